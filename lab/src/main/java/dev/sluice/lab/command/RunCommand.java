package dev.sluice.lab.command;

import dev.sluice.lab.run.Runner;
import dev.sluice.lab.workload.Workload;
import dev.sluice.lab.workload.Workloads;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;

/**
 * {@code lab run WORKLOAD[,WORKLOAD...]}: the named workloads on the chosen targets, with the baseline added
 * so that every table has something to compare with.
 */
@Command(name = "run", description = "Runs workloads on the chosen targets and the baseline. Workload parameters "
        + "are options: lab run hackbench --groups 2 --loops 1000 (comma-separated values run every combination). "
        + "Several workloads (lab run pipen,tee) run their repetitions interleaved, one table each, like compare.")
public final class RunCommand implements Callable<Integer> {
    /** Creates the command; picocli fills in its options. */
    public RunCommand() {
        // nothing to set up
    }

    @Spec
    CommandLine.Model.CommandSpec spec;
    @Parameters(index = "0", paramLabel = "WORKLOAD[,WORKLOAD...]", completionCandidates = WorkloadNames.class,
            preprocessor = CommaList.Check.class, description = "${COMPLETION-CANDIDATES}")
    String workload;
    @CommandLine.Mixin
    CommonOptions c = new CommonOptions();
    @CommandLine.Unmatched
    List<String> rest = new ArrayList<>();

    @Override
    public Integer call() throws IOException {
        List<Workload> ws = new ArrayList<>();
        for (String n : CommaList.split("WORKLOAD", workload)) {
            Workload w = Workloads.byName(n.toLowerCase(Locale.ROOT));
            if (!ws.contains(w)) {
                ws.add(w);
            }
        }
        if (ws.isEmpty()) {
            throw new IllegalArgumentException("WORKLOAD: none named; choose from "
                    + String.join(", ", new WorkloadNames()));
        }
        c.check();
        List<Map<String, List<Long>>> values;
        try {
            values = WorkloadArgs.parse(ws, c.quick, rest);
        } catch (IllegalArgumentException e) {
            // Workload parameters are options picocli cannot know (each workload has its own): their errors are
            // parameter errors all the same.
            throw new CommandLine.ParameterException(spec.commandLine(), e.getMessage(), e);
        }
        CommonOptions.Columns cols = c.columns(LabDefaults.RUN_TARGETS);
        List<Runner.Plan> plans = new ArrayList<>();
        for (int i = 0; i < ws.size(); i++) {
            plans.addAll(Runner.plan(ws.get(i), values.get(i), cols.contenders(), c.threadKinds()));
        }
        // One Runner for all of them, so the repetitions interleave across workloads as in compare.
        var runs = c.reports.recorded(spec.commandLine().getErr(),
                () -> new Runner(c.warmup, c.reps, c.progress(spec.commandLine().getErr())).run(plans));
        var r = Session.results(List.of("lab", "run", workload), c.machine, c.warmup, c.reps, cols.baseline(), runs,
                List.of());
        return Session.finish(r, c.reports, spec.commandLine().getOut(), spec.commandLine().getErr());
    }

    /**
     * Lists each workload's parameters under {@code lab run --help}.
     *
     * @return the workload parameters, for the help: they are not picocli options (each workload has its
     *         own), so picocli cannot list them by itself
     */
    public static String footer() {
        StringBuilder sb = new StringBuilder("%nWorkload parameters (lab list gives the defaults, the --quick preset "
                + "and the ranges):%n");
        for (Workload w : Workloads.all()) {
            sb.append(String.format("  %-10s %s%%n", w.name(),
                    String.join(" ", w.params().stream().map(p -> "--" + p.name()).toList())));
        }
        return sb.toString();
    }

    /** The workload names, for the help. */
    static final class WorkloadNames implements Iterable<String> {
        @Override
        public java.util.Iterator<String> iterator() {
            return Workloads.all().stream().map(Workload::name).iterator();
        }
    }
}
