package dev.sluice.lab.report;

import dev.sluice.lab.report.Results.Run;
import dev.sluice.lab.report.Results.Summary;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * The tables the kernel list prints: one row per case, one column per target, each cell
 * {@code value[pct imp](CV)} with the improvement over the baseline column (positive = better, whichever
 * the direction of the metric), and a context-switch table for the same cases.
 */
public final class Tables {
    private Tables() {
    }

    /** Orders the targets: the baseline first, then in order of appearance. */
    static List<String> columns(List<Run> runs, String baseline) {
        Set<String> ids = new LinkedHashSet<>();
        if (baseline != null && runs.stream().anyMatch(r -> r.target().equals(baseline))) {
            ids.add(baseline);
        }
        runs.forEach(r -> ids.add(r.target()));
        return new ArrayList<>(ids);
    }

    /** Rows: distinct case label and thread kind, in order of appearance. */
    static List<String> rows(List<Run> runs) {
        Set<String> rows = new LinkedHashSet<>();
        runs.forEach(r -> rows.add(rowKey(r)));
        return new ArrayList<>(rows);
    }

    static String rowKey(Run r) {
        return r.caseLabel() + " " + r.threads();
    }

    /** Workloads in order of appearance. */
    static Map<String, List<Run>> byWorkload(List<Run> runs) {
        Map<String, List<Run>> m = new LinkedHashMap<>();
        runs.forEach(r -> m.computeIfAbsent(r.workload(), k -> new ArrayList<>()).add(r));
        return m;
    }

    static Run find(List<Run> runs, String row, String target) {
        for (Run r : runs) {
            if (rowKey(r).equals(row) && r.target().equals(target)) {
                return r;
            }
        }
        return null;
    }

    /**
     * Improvement of {@code value} over {@code base} in percent, positive when better: for a time
     * {@code (base - value) / base}, for a throughput {@code (value - base) / base}.
     *
     * @param base          the baseline's value
     * @param value         the value compared with it
     * @param lowerIsBetter true for a time, false for a throughput
     * @return the improvement in percent, negative when {@code value} is worse
     */
    public static double improvement(double base, double value, boolean lowerIsBetter) {
        return lowerIsBetter ? (base - value) / base * 100 : (value - base) / base * 100;
    }

    /**
     * {@return {@code v} for a table cell: four significant digits below 10,000 (whole numbers above), no
     * exponent for the usual range, {@code -} for NaN}
     *
     * @param v the value
     */
    public static String num(double v) {
        if (Double.isNaN(v)) {
            return "-";
        }
        double a = Math.abs(v);
        if (a >= 10000) {
            return String.format(Locale.ROOT, "%.0f", v);
        }
        if (a >= 1000) {
            return String.format(Locale.ROOT, "%.1f", v);
        }
        if (a >= 100) {
            return String.format(Locale.ROOT, "%.2f", v);
        }
        if (a >= 1 || a == 0) {
            return String.format(Locale.ROOT, "%.3f", v);
        }
        return String.format(Locale.ROOT, "%.4g", v);
    }

    /**
     * {@return a count for a table cell, with k/M suffixes: 1234567 -> 1.23M; {@code -} for NaN}
     *
     * @param v the count
     */
    public static String count(double v) {
        if (Double.isNaN(v)) {
            return "-";
        }
        if (v >= 1e6) {
            return String.format(Locale.ROOT, "%.2fM", v / 1e6);
        }
        if (v >= 1e4) {
            return String.format(Locale.ROOT, "%.1fk", v / 1e3);
        }
        return String.format(Locale.ROOT, "%.0f", v);
    }

    /**
     * {@return the whole comparison as text: per workload, the metric table then the context-switch table}
     *
     * @param results the results file's runs, machine and baseline
     */
    public static String compare(Results results) {
        StringBuilder out = new StringBuilder();
        String baseline = results.baseline();
        Map<String, String> footnotes = new LinkedHashMap<>();
        for (Map.Entry<String, List<Run>> e : byWorkload(results.runs()).entrySet()) {
            List<Run> runs = e.getValue();
            Run first = runs.get(0);
            List<String> cols = columns(runs, baseline);
            List<String> rows = rows(runs);
            String base = cols.contains(baseline) ? baseline : cols.get(0);
            out.append(String.format("%n%s: %s (%s), %s; value[pct imp vs %s](CV), mean of %d reps%n", e.getKey(),
                    first.metric(), first.unit(), first.lowerIsBetter() ? "lower is better" : "higher is better",
                    base, results.reps()));
            List<List<String>> table = withHeader(cols);
            for (String row : rows) {
                List<String> line = new ArrayList<>();
                line.add(row);
                Run b = find(runs, row, base);
                double bv = b != null && b.ok() ? mean(b, b.metric()) : Double.NaN;
                for (String c : cols) {
                    Run r = find(runs, row, c);
                    line.add(cell(r, bv, footnotes));
                }
                table.add(line);
            }
            out.append(render(table));
            out.append(medianTable(e.getKey(), runs, cols, rows, base));
            out.append(String.format("%s: context switches per run, voluntary/involuntary (whole process)%n",
                    e.getKey()));
            List<List<String>> cs = withHeader(cols);
            for (String row : rows) {
                List<String> line = new ArrayList<>();
                line.add(row);
                for (String c : cols) {
                    line.add(ifRan(find(runs, row, c),
                            r -> count(mean(r, "voluntaryCs")) + "/" + count(mean(r, "involuntaryCs"))));
                }
                cs.add(line);
            }
            out.append(render(cs));
            out.append(distanceTable(e.getKey(), runs, cols, rows));
            for (Run r : runs) {
                if (r.ok() && r.summary().containsKey("counter.writerWakeups")) {
                    out.append(String.format("  counters %s %s: waits r/w %s/%s, wake-ups to r/w %s/%s, "
                                    + "found nothing %s, "
                                    + "lock contended %s (mean per run)%n", rowKey(r).trim(), r.target(),
                            count(mean(r, "counter.readerWaits")), count(mean(r, "counter.writerWaits")),
                            count(mean(r, "counter.readerWakeups")), count(mean(r, "counter.writerWakeups")),
                            count(mean(r, "counter.emptyWakeups")), count(mean(r, "counter.lockContended"))));
                }
            }
            Set<String> notes = new LinkedHashSet<>();
            runs.stream().filter(r -> r.ok() && r.note() != null).forEach(r -> notes.add(r.target() + ": " + r.note()));
            notes.forEach(n -> out.append("  note ").append(n).append(System.lineSeparator()));
        }
        if (!footnotes.isEmpty()) {
            out.append(System.lineSeparator());
            footnotes.forEach((k, v) -> out.append(String.format("[%s] %s%n", v, k)));
        }
        return out.toString();
    }

    /**
     * The CPUs' distance measured before each run ({@link Results#CPU_DISTANCE}), per cell the median and the
     * range over the repetitions: two CPUs that share a cache pass a line several times faster than two that do
     * not, and every figure that moves bytes between threads follows; a cell whose range spans both kinds mixed
     * them. Empty for results without it.
     */
    static String distanceTable(String workload, List<Run> runs, List<String> cols, List<String> rows) {
        if (runs.stream().noneMatch(r -> r.ok() && r.summary().containsKey(Results.CPU_DISTANCE))) {
            return "";
        }
        List<List<String>> table = withHeader(cols);
        for (String row : rows) {
            List<String> line = new ArrayList<>();
            line.add(row);
            for (String c : cols) {
                line.add(ifRan(find(runs, row, c), Tables::distance));
            }
            table.add(line);
        }
        return String.format("%s: CPU distance before each run, ns (a cache line's round trip between two threads),"
                + " median [lowest-highest]%n", workload) + render(table);
    }

    private static String distance(Run r) {
        String d = distance(List.of(r));
        return d.isEmpty() ? "-" : d;
    }

    /**
     * {@return the CPU distance before the runs' repetitions: {@code median [lowest-highest]} in ns, or empty if
     * none was measured}
     *
     * @param runs the runs (those that did not run are skipped)
     */
    static String distance(List<Run> runs) {
        List<Double> v = runs.stream().filter(Run::ok).flatMap(r -> r.reps().stream())
                .map(rep -> rep.metrics().get(Results.CPU_DISTANCE)).filter(java.util.Objects::nonNull).toList();
        if (v.isEmpty()) {
            return "";
        }
        return String.format(Locale.ROOT, "%.0f [%.0f-%.0f]", Summary.of(v).median(),
                java.util.Collections.min(v), java.util.Collections.max(v));
    }

    /** How far behind the best still counts as "as good": the team's "within 3 %" question. */
    public static final double TOLERANCE = 0.03;

    /**
     * The median view under the mean table: per cell the median and its better-by against the baseline with a
     * 95 % bootstrap interval, the best median in each row starred, then a line per row saying, for every
     * other target, whether it is resolvably more than {@link #TOLERANCE} behind the best. Empty with fewer
     * than {@link Bootstrap#MIN_REPS} repetitions.
     */
    static String medianTable(String workload, List<Run> runs, List<String> cols, List<String> rows, String base) {
        List<MedianRow> medians = medianRows(runs, cols, rows, base);
        if (medians.isEmpty()) {
            return "";
        }
        StringBuilder out = new StringBuilder(String.format(
                "%s: median ×better-by vs %s (above 1 is better) [95%% bootstrap interval], %d reps; * best median%n",
                workload, base, runs.stream().filter(Run::ok).mapToInt(r -> r.reps().size()).min().orElse(0)));
        List<List<String>> table = withHeader(cols);
        for (MedianRow m : medians) {
            List<String> line = new ArrayList<>();
            line.add(m.row());
            for (String c : cols) {
                line.add(ifRan(find(runs, m.row(), c), r -> (c.equals(m.best()) ? "*" : "") + num(m.medians().get(c))
                        + " " + (c.equals(base) ? "(baseline)" : ratio(m.vsBaseline().get(c)))));
            }
            table.add(line);
        }
        out.append(render(table));
        for (MedianRow m : medians) {
            List<String> verdicts = new ArrayList<>();
            m.vsBest().forEach((c, r) -> {
                if (r.defined()) {
                    verdicts.add(c + " " + ratio(r) + " " + r.verdict(TOLERANCE).words(TOLERANCE));
                }
            });
            if (!verdicts.isEmpty()) {
                out.append(String.format("  %s, against the best (%s): %s%n", m.row().trim(), m.best(),
                        String.join("; ", verdicts)));
            }
        }
        return out.toString();
    }

    /**
     * One row of the median view.
     *
     * @param medians    each ok target's median of the compared metric
     * @param vsBaseline every other ok target's better-by against the baseline (NaN where the baseline is not ok)
     * @param best       the target with the best median, or null if none is ok
     * @param vsBest     every other ok target's better-by against the best (so at most 1 at the point)
     */
    record MedianRow(String row, Map<String, Double> medians, Map<String, Bootstrap.Ratio> vsBaseline, String best,
                     Map<String, Bootstrap.Ratio> vsBest) {
    }

    /** The median view of a workload's runs, or nothing if any ok run has too few repetitions. */
    static List<MedianRow> medianRows(List<Run> runs, List<String> cols, List<String> rows, String base) {
        if (runs.stream().noneMatch(Run::ok)
                || runs.stream().anyMatch(r -> r.ok() && r.reps().size() < Bootstrap.MIN_REPS)) {
            return List.of();
        }
        List<MedianRow> out = new ArrayList<>();
        for (String row : rows) {
            Map<String, double[]> samples = new LinkedHashMap<>();
            for (String c : cols) {
                Run r = find(runs, row, c);
                if (r != null && r.ok()) {
                    samples.put(c, samples(r));
                }
            }
            boolean lower = runs.get(0).lowerIsBetter();
            Map<String, Double> medians = new LinkedHashMap<>();
            samples.forEach((c, v) -> medians.put(c, Bootstrap.median(v)));
            String best = null;
            for (Map.Entry<String, Double> m : medians.entrySet()) {
                if (best == null || (lower ? m.getValue() < medians.get(best) : m.getValue() > medians.get(best))) {
                    best = m.getKey();
                }
            }
            Map<String, Bootstrap.Ratio> vsBaseline = new LinkedHashMap<>();
            Map<String, Bootstrap.Ratio> vsBest = new LinkedHashMap<>();
            double[] baseSamples = samples.getOrDefault(base, new double[0]);
            for (Map.Entry<String, double[]> s : samples.entrySet()) {
                if (!s.getKey().equals(base)) {
                    vsBaseline.put(s.getKey(), Bootstrap.betterBy(baseSamples, s.getValue(), lower));
                }
                if (!s.getKey().equals(best)) {
                    vsBest.put(s.getKey(), Bootstrap.betterBy(samples.get(best), s.getValue(), lower));
                }
            }
            out.add(new MedianRow(row, medians, vsBaseline, best, vsBest));
        }
        return out;
    }

    /** A run's compared metric, one value per repetition. */
    static double[] samples(Run r) {
        return r.reps().stream().map(rep -> rep.metrics().get(r.metric())).filter(java.util.Objects::nonNull)
                .mapToDouble(Double::doubleValue).toArray();
    }

    /** {@code ×1.064 [0.991, 1.142]}, or {@code ×-} where there is no ratio. */
    static String ratio(Bootstrap.Ratio r) {
        return r.defined() ? String.format(Locale.ROOT, "×%.3f [%.3f, %.3f]", r.ratio(), r.lo(), r.hi()) : "×-";
    }

    static double mean(Run r, String key) {
        Summary s = r.summary().get(key);
        return s == null ? Double.NaN : s.mean();
    }

    static double cv(Run r, String key) {
        Summary s = r.summary().get(key);
        return s == null ? Double.NaN : s.cv();
    }

    private static String cell(Run r, double base, Map<String, String> footnotes) {
        if (r == null) {
            return "";
        }
        if (!r.ok()) {
            String key = r.target() + " " + r.status() + ": " + r.reason();
            String mark = footnotes.computeIfAbsent(key, k -> Integer.toString(footnotes.size() + 1));
            return r.status() + " [" + mark + "]";
        }
        double v = mean(r, r.metric());
        String pct = Double.isNaN(base) ? "   -   " : String.format(Locale.ROOT, "%6.2f%%",
                improvement(base, v, r.lowerIsBetter()));
        return String.format(Locale.ROOT, "%s[%s](%4.1f%%)", num(v), pct, cv(r, r.metric()) * 100);
    }

    /** A new table holding its header row: "case", then the targets. */
    private static List<List<String>> withHeader(List<String> cols) {
        List<String> header = new ArrayList<>();
        header.add("case");
        header.addAll(cols);
        List<List<String>> table = new ArrayList<>();
        table.add(header);
        return table;
    }

    /** Empty where the target has no such case, its status where it did not run, else {@code ok}'s text. */
    private static String ifRan(Run r, java.util.function.Function<Run, String> ok) {
        return r == null ? "" : r.ok() ? ok.apply(r) : r.status();
    }

    /** Left-aligns the first column and right-aligns the others. */
    static String render(List<List<String>> table) {
        int cols = table.get(0).size();
        int[] w = new int[cols];
        for (List<String> row : table) {
            for (int i = 0; i < cols; i++) {
                w[i] = Math.max(w[i], row.get(i).length());
            }
        }
        StringBuilder sb = new StringBuilder();
        for (List<String> row : table) {
            StringBuilder line = new StringBuilder();
            for (int i = 0; i < cols; i++) {
                String c = row.get(i);
                if (i == 0) {
                    line.append("  ").append(c).append(" ".repeat(w[i] - c.length()));
                } else {
                    line.append("  ").append(" ".repeat(w[i] - c.length())).append(c);
                }
            }
            sb.append(line.toString().stripTrailing()).append(System.lineSeparator());
        }
        return sb.toString();
    }

    /**
     * {@return the machine facts, one line}
     *
     * @param r the results whose machine it describes
     */
    public static String machine(Results r) {
        StringBuilder sb = new StringBuilder("machine:");
        r.machine().forEach((k, v) -> sb.append(' ').append(k).append('=').append(v).append(';'));
        return sb.toString();
    }
}
