package dev.sluice.lab.report;

import dev.sluice.lab.report.Results.Rep;
import dev.sluice.lab.report.Results.Run;

import java.util.List;
import java.util.Optional;

/**
 * Finds the first field a results file lacks that the report needs, so that a hand-edited or truncated file
 * is refused with the field's name instead of failing half-way through a table.
 */
final class ResultsCheck {
    private ResultsCheck() {
    }

    /**
     * @param r results as read
     * @return the path of the first missing field, e.g. {@code runs[3].metric}
     */
    static Optional<String> missing(Results r) {
        if (r.command() == null) {
            return Optional.of("command");
        }
        if (r.machine() == null) {
            return Optional.of("machine");
        }
        if (r.runs() == null) {
            return Optional.of("runs");
        }
        for (int i = 0; i < r.runs().size(); i++) {
            Optional<String> m = missing(r.runs().get(i)).map(f -> f);
            if (m.isPresent()) {
                return Optional.of("runs[" + i + "]." + m.get());
            }
        }
        return Optional.empty();
    }

    private static Optional<String> missing(Run run) {
        if (run == null) {
            return Optional.of("(the run itself)");
        }
        List<String> names = List.of("workload", "caseLabel", "params", "target", "family", "threads", "status",
                "metric", "unit", "reps", "summary");
        Object[] values = {run.workload(), run.caseLabel(), run.params(), run.target(), run.family(), run.threads(),
            run.status(), run.metric(), run.unit(), run.reps(), run.summary()};
        for (int i = 0; i < values.length; i++) {
            if (values[i] == null) {
                return Optional.of(names.get(i));
            }
        }
        for (int i = 0; i < run.reps().size(); i++) {
            Rep rep = run.reps().get(i);
            if (rep == null || rep.metrics() == null || rep.counters() == null) {
                return Optional.of("reps[" + i + "]" + (rep == null ? "" : rep.metrics() == null ? ".metrics"
                        : ".counters"));
            }
        }
        return Optional.empty();
    }
}
