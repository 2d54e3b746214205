package dev.sluice.lab.command;

import dev.sluice.lab.run.Contender;
import dev.sluice.lab.run.Runner;
import dev.sluice.lab.targets.SluiceTarget;
import dev.sluice.lab.targets.SluiceVariant;
import dev.sluice.lab.workload.Workload;
import dev.sluice.lab.workload.Workloads;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;

/** {@code lab compare}: every workload on Sluice, the kernel and the other Java pipes, one table each. */
@Command(name = "compare", description = "Runs every workload on the baseline and the candidates and prints one "
        + "table per workload, its conclusion and a summary.")
public final class CompareCommand implements Callable<Integer> {
    /** Creates the command; picocli fills in its options. */
    public CompareCommand() {
        // nothing to set up
    }

    @Spec
    CommandLine.Model.CommandSpec spec;
    @CommandLine.Mixin
    CommonOptions c = new CommonOptions();
    @Option(names = "--workload", split = ",", preprocessor = CommaList.Check.class, paramLabel = "NAME",
            description = "only these workloads")
    List<String> workloads;

    @Override
    public Integer call() throws IOException {
        c.check();
        CommonOptions.Columns cols = c.columns(LabDefaults.COMPARE_TARGETS);
        List<Workload> ws = workloads == null ? Workloads.all()
                : workloads.stream().filter(n -> !n.isBlank()).map(String::trim).map(Workloads::byName).distinct()
                .toList();
        if (ws.isEmpty()) {
            throw new IllegalArgumentException("--workload: needs at least one of "
                    + String.join(", ", new RunCommand.WorkloadNames()));
        }
        List<Runner.Plan> plans = new ArrayList<>();
        for (Workload w : ws) {
            List<Contender> cs = new ArrayList<>(cols.contenders());
            // Oleg's test is about the per-call clock: show Sluice with timestamps on beside the default.
            if (w.name().equals("nonblock") && c.targets == null) {
                cs.add(1, new Contender.OnTarget(SluiceTarget.of(SluiceVariant.defaults().withTimestamps(true))));
            }
            plans.addAll(Runner.plan(w, WorkloadArgs.parse(List.of(w), c.quick, List.of()).get(0), cs,
                    c.threadKinds()));
        }
        var runs = c.reports.recorded(spec.commandLine().getErr(),
                () -> new Runner(c.warmup, c.reps, c.progress(spec.commandLine().getErr())).run(plans));
        List<String> command = new ArrayList<>(List.of("lab", "compare"));
        if (c.quick) {
            command.add("--quick");
        }
        var r = Session.results(command, c.machine, c.warmup, c.reps, cols.baseline(), runs, List.of());
        return Session.finish(r, c.reports, spec.commandLine().getOut(), spec.commandLine().getErr());
    }
}
