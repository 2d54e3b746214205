package dev.sluice.lab.report;

import dev.sluice.lab.measure.Machine;
import dev.sluice.lab.report.Results.Run;
import dev.sluice.lab.targets.Family;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * What a session's results say, worked out once for every report format: per workload and case the
 * median of each target with its 95 % interval, its ratio to the baseline with that ratio's interval, where
 * it stands against the best, a one-line conclusion per workload and a closing summary over all of them.
 * The formats only lay this out; none of them computes a figure of its own.
 *
 * @param results   the session
 * @param workloads one view per workload, in the order they ran
 * @param summary   the closing sentence
 * @param busy      the load warning, or null when the machine was idle enough
 */
public record Analysis(Results results, List<WorkloadView> workloads, String summary, String busy) {

    /** Where a target stands in a case. */
    public enum Standing {
        /** The best median. */
        BEST,
        /** Not the best, but the interval of its ratio to the best includes 1. */
        WITHIN_NOISE,
        /** Resolvably behind the best. */
        BEHIND,
        /** Too few repetitions to tell. */
        UNRESOLVED,
        /** Did not run: n/a or failed. */
        NONE
    }

    /**
     * One workload.
     *
     * @param workload      its name
     * @param metric        the compared metric
     * @param unit          its unit
     * @param lowerIsBetter its direction
     * @param baseline      the target the ratios are against
     * @param reps          measured repetitions per case
     * @param cases         one per case (parameters and thread kind)
     * @param how           how each target was configured, by target id
     * @param notes         the reasons a target did not run or failed, numbered as the tables refer to them
     * @param remarks       what a target that ran says of its run ({@code target: remark}), where that adds to
     *                      how it was configured; not referred to by the tables
     * @param conclusion    one sentence
     */
    public record WorkloadView(String workload, String metric, String unit, boolean lowerIsBetter, String baseline,
                               int reps, List<CaseView> cases, Map<String, String> how, List<String> notes,
                               List<String> remarks, String conclusion) {
    }

    /**
     * One case of a workload.
     *
     * @param label the varying parameters and the thread kind, e.g. {@code size=4096, platform threads}
     * @param best  the target with the best median, or null if none ran
     * @param rows  one per target, baseline first
     */
    public record CaseView(String label, String best, List<Row> rows) {
    }

    /**
     * One target in one case.
     *
     * @param target     target id
     * @param family     its family
     * @param status     ok, n/a or failed
     * @param note       the number of the note that explains an n/a or failed row, else 0
     * @param median     the median of the compared metric (NaN unless ok)
     * @param lo         the 2.5th percentile of the bootstrap medians
     * @param hi         the 97.5th percentile
     * @param vsBaseline better-by against the baseline (above 1 = better), NONE for the baseline itself
     * @param vsBest     better-by against the best (at most 1 at the point), NONE for the best itself
     * @param standing   where it stands
     * @param csPerRun   median context switches per run (voluntary + involuntary), NaN if unknown
     */
    public record Row(String target, String family, String status, int note, double median, double lo, double hi,
                      Bootstrap.Ratio vsBaseline, Bootstrap.Ratio vsBest, Standing standing, double csPerRun) {
        /** {@return whether it ran} */
        public boolean ok() {
            return "ok".equals(status);
        }

        /** {@return "best", "within noise", "behind 23 %" or "-"} */
        public String verdict() {
            return switch (standing) {
                case BEST -> "best";
                case WITHIN_NOISE -> "within noise";
                case BEHIND -> String.format(Locale.ROOT, "behind %.0f %%", (1 - vsBest.ratio()) * 100);
                case UNRESOLVED -> vsBest.defined() ? String.format(Locale.ROOT, "×%.2f of best", vsBest.ratio()) : "-";
                case NONE -> status;
            };
        }
    }

    /**
     * Works out every figure the reports show from a session's results.
     *
     * @param results a session's results
     * @return what they say
     */
    public static Analysis of(Results results) {
        List<WorkloadView> views = new ArrayList<>();
        for (Map.Entry<String, List<Run>> e : Tables.byWorkload(results.runs()).entrySet()) {
            views.add(workload(e.getKey(), e.getValue(), results.baseline(), results.reps()));
        }
        double load = Machine.loadPerCore(results.machine());
        String busy = load > 0.75 ? String.format(Locale.ROOT, "the machine was busy before the lab started (load "
                + "average %s on %s cores): expect noisy figures, and take none of them as a benchmark",
                results.machine().get("loadavg"), results.machine().get("cores")) : null;
        return new Analysis(results, views, summary(views), busy);
    }

    private static WorkloadView workload(String name, List<Run> runs, String baseline, int reps) {
        Run first = runs.get(0);
        List<String> cols = Tables.columns(runs, baseline);
        String base = cols.contains(baseline) ? baseline : cols.get(0);
        Map<String, String> how = new LinkedHashMap<>();
        List<String> notes = new ArrayList<>();
        Map<String, Integer> noteNumber = new LinkedHashMap<>();
        for (String c : cols) {
            runs.stream().filter(r -> r.target().equals(c) && r.how() != null).findFirst()
                    .ifPresent(r -> how.put(c, r.how()));
        }
        List<CaseView> cases = new ArrayList<>();
        for (String row : Tables.rows(runs)) {
            cases.add(caseView(row, runs, cols, base, first.lowerIsBetter(), notes, noteNumber));
        }
        Set<String> remarks = new LinkedHashSet<>();
        runs.stream().filter(r -> r.ok() && r.note() != null && !r.note().equals(how.get(r.target())))
                .forEach(r -> remarks.add(r.target() + ": " + r.note()));
        return new WorkloadView(name, first.metric(), first.unit(), first.lowerIsBetter(), base, reps, cases, how,
                notes, List.copyOf(remarks), Conclusions.workload(name, base, cases));
    }

    private static CaseView caseView(String row, List<Run> runs, List<String> cols, String base, boolean lower,
                                     List<String> notes, Map<String, Integer> noteNumber) {
        Map<String, double[]> samples = new LinkedHashMap<>();
        for (String c : cols) {
            Run r = Tables.find(runs, row, c);
            if (r != null && r.ok()) {
                samples.put(c, Tables.samples(r));
            }
        }
        String best = null;
        for (Map.Entry<String, double[]> s : samples.entrySet()) {
            double m = Bootstrap.median(s.getValue());
            double b = best == null ? Double.NaN : Bootstrap.median(samples.get(best));
            if (best == null || (lower ? m < b : m > b)) {
                best = s.getKey();
            }
        }
        boolean resolvable = samples.values().stream().allMatch(v -> v.length >= Bootstrap.MIN_REPS);
        List<Row> rows = new ArrayList<>();
        for (String c : cols) {
            Run r = Tables.find(runs, row, c);
            if (r == null) {
                continue;
            }
            if (!r.ok()) {
                String why = r.target() + " " + r.status() + ": " + r.reason();
                int n = noteNumber.computeIfAbsent(why, k -> {
                    notes.add(k);
                    return notes.size();
                });
                rows.add(new Row(c, r.family(), r.status(), n, Double.NaN, Double.NaN, Double.NaN,
                        Bootstrap.Ratio.NONE, Bootstrap.Ratio.NONE, Standing.NONE, Double.NaN));
                continue;
            }
            double[] v = samples.get(c);
            double[] mi = Bootstrap.medianInterval(v);
            Bootstrap.Ratio vsBase = c.equals(base) || !samples.containsKey(base) ? Bootstrap.Ratio.NONE
                    : Bootstrap.betterBy(samples.get(base), v, lower);
            Bootstrap.Ratio vsBest = c.equals(best) ? Bootstrap.Ratio.NONE : Bootstrap.betterBy(samples.get(best), v,
                    lower);
            Standing st = c.equals(best) ? Standing.BEST : !resolvable ? Standing.UNRESOLVED
                    : vsBest.hi() >= 1 ? Standing.WITHIN_NOISE : Standing.BEHIND;
            rows.add(new Row(c, r.family(), r.status(), 0, mi[0], mi[1], mi[2], vsBase, vsBest, st, cs(r)));
        }
        return new CaseView(label(row), best, rows);
    }

    /** Median context switches (voluntary + involuntary) per repetition. */
    private static double cs(Run r) {
        double[] v = r.reps().stream().filter(x -> x.voluntaryCs() != null && x.involuntaryCs() != null)
                .mapToDouble(x -> x.voluntaryCs() + x.involuntaryCs()).toArray();
        return v.length == 0 ? Double.NaN : Bootstrap.median(v);
    }

    /** {@code size=4096 platform} becomes {@code size=4096, platform threads}; {@code - platform} just the kind. */
    private static String label(String row) {
        int sp = row.lastIndexOf(' ');
        String params = row.substring(0, sp);
        String threads = row.substring(sp + 1) + " threads";
        return params.equals("-") ? threads : params + ", " + threads;
    }

    /** The closing sentence over every workload, from Sluice's standing in each. */
    private static String summary(List<WorkloadView> views) {
        return Conclusions.summary(views);
    }

    /**
     * @param family a family alias from a results file
     * @return whether it is Sluice's: the in-process pipe or the shared-memory one
     */
    static boolean isSluice(String family) {
        return Family.SLUICE.alias().equals(family) || Family.SHM.alias().equals(family);
    }
}
