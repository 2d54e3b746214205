package dev.sluice.lab.command;

import dev.sluice.lab.report.Results;
import dev.sluice.lab.report.Results.Run;
import dev.sluice.lab.reproduce.Experiment;
import dev.sluice.lab.reproduce.Experiments;
import dev.sluice.lab.reproduce.Finding;
import dev.sluice.lab.reproduce.Reproducer;
import dev.sluice.lab.run.Runner;
import dev.sluice.lab.measure.Machine;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;

/**
 * {@code lab reproduce}: each finding of the seed threads re-run on Sluice by toggling its option, with the
 * claim, the source, the original figure, ours with its interval, and a verdict.
 */
@Command(name = "reproduce", description = "Re-runs the seven kernel-list findings (issue 16) on Sluice, toggling "
        + "the option each is about, and prints claim, source, the original figure, ours with its 95 %% interval "
        + "and a verdict per finding. The full run is the default; --quick finishes within about five minutes "
        + "on two cores.")
public final class ReproduceCommand implements Callable<Integer> {
    /** Creates the command; picocli fills in its options. */
    public ReproduceCommand() {
        // nothing to set up
    }

    @Spec
    CommandLine.Model.CommandSpec spec;
    @Option(names = "--quick", description = "smaller sizes (about five minutes on two cores)")
    boolean quick;
    @Option(names = "--experiment", split = ",", preprocessor = CommaList.Check.class, paramLabel = "N",
            description = "only these experiments, 1..7")
    List<Integer> only;
    @Option(names = "--reps", description = "measured repetitions per case, 5.." + LabDefaults.MAX_REPS
            + " (default: 5 with --quick, else 10)")
    Integer reps;
    @Option(names = "--warmup", description = "unmeasured runs per case first, 0.." + LabDefaults.MAX_WARMUP
            + " (default ${DEFAULT-VALUE})")
    int warmup = Integer.parseInt(LabDefaults.WARMUP);
    @CommandLine.Mixin
    ReportOptions reports = new ReportOptions();

    /** Read before the runs, so the load average is other work's. */
    final Map<String, String> machine = Machine.facts();

    @Override
    public Integer call() throws IOException {
        int n = reps == null ? (quick ? 5 : 10) : reps;
        if (n < 5 || n > LabDefaults.MAX_REPS) {
            throw new IllegalArgumentException("--reps: must be 5.." + LabDefaults.MAX_REPS
                    + " (a verdict needs an interval), got " + n);
        }
        if (warmup < 0 || warmup > LabDefaults.MAX_WARMUP) {
            throw new IllegalArgumentException("--warmup: must be 0.." + LabDefaults.MAX_WARMUP + ", got " + warmup);
        }
        List<Experiment> chosen = new ArrayList<>();
        for (Experiment e : Experiments.all()) {
            if (only == null || only.contains(e.number())) {
                chosen.add(e);
            }
        }
        if (only != null) {
            for (int i : only) {
                if (i < 1 || i > Experiments.all().size()) {
                    throw new IllegalArgumentException("--experiment: must be 1.." + Experiments.all().size()
                            + ", got " + i);
                }
            }
        }
        reports.check();
        List<Runner.Plan> plans = Reproducer.plan(chosen, quick);
        List<Run> runs = reports.recorded(spec.commandLine().getErr(),
                () -> new Runner(warmup, n, reports.progress(spec.commandLine().getErr())).run(plans));
        List<Finding> findings = Reproducer.findings(chosen, runs, machine);
        List<String> command = new ArrayList<>(List.of("lab", "reproduce"));
        if (quick) {
            command.add("--quick");
        }
        Results r = Session.results(command, machine, warmup, n, null, runs, findings);
        return Session.finish(r, reports, spec.commandLine().getOut(), spec.commandLine().getErr());
    }
}
