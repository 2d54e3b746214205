package dev.sluice.lab.command;

import dev.sluice.lab.Lab;
import dev.sluice.lab.measure.Rusage;
import dev.sluice.lab.report.Analysis;
import dev.sluice.lab.report.Results;
import dev.sluice.lab.report.Results.Run;
import dev.sluice.lab.reproduce.Finding;
import dev.sluice.lab.run.Provenance;

import java.io.IOException;
import java.io.PrintWriter;
import java.time.Instant;
import java.util.List;
import java.util.Map;

/** The end of every command that runs: assemble the results, print the report, write the files, exit code. */
final class Session {
    private Session() {
    }

    /**
     * @param command  the command line, for the results file
     * @param machine  the machine facts read before the runs
     * @param warmup   warm-up runs per case
     * @param reps     measured runs per case
     * @param baseline the baseline's id
     * @param runs     every run
     * @param findings the reproduced findings, if the command was {@code reproduce}
     * @return the results
     */
    static Results results(List<String> command, Map<String, String> machine, int warmup, int reps, String baseline,
                           List<Run> runs, List<Finding> findings) {
        return new Results(Results.SCHEMA, Results.VERSION, Instant.now().toString(), command, Provenance.build(),
                Provenance.jvm(), machine, warmup, reps, baseline, runs, findings);
    }

    /**
     * Prints and writes the reports.
     *
     * @param r       the results
     * @param reports the report options
     * @param out     stdout
     * @param err     stderr
     * @return 0, or {@link Lab#FAILED} if a case failed its self-check
     * @throws IOException if a report file cannot be written
     */
    static int finish(Results r, ReportOptions reports, PrintWriter out, PrintWriter err) throws IOException {
        Analysis a = Analysis.of(r);
        Rusage.available().ifPresent(why -> out.println("context switches and CPU: n/a (" + why + ")"));
        reports.emit(a, out, err);
        long failed = r.runs().stream().filter(x -> x.status().equals("failed")).count();
        if (failed > 0) {
            err.println("lab: " + failed + " case(s) FAILED their self-check; their figures are not reported");
            return Lab.FAILED;
        }
        return 0;
    }
}
