package dev.sluice.lab.report;

import dev.sluice.lab.report.Analysis.CaseView;
import dev.sluice.lab.report.Analysis.Row;
import dev.sluice.lab.report.Analysis.WorkloadView;
import dev.sluice.lab.reproduce.Finding;
import dev.sluice.lab.reproduce.Findings;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.Writer;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The terminal's report. By default within {@link Text#WIDTH} columns: per workload one table (target, median
 * with its unit, ×vs the baseline with its 95 % interval, verdict, context switches per run), how each target
 * was configured, the notes, and a one-line conclusion; then the reproduced findings, if any, and the closing
 * summary. {@code --wide} prints the older layout instead: means, medians and context switches in one column
 * per target, as wide as the targets make it.
 */
public final class TextFormat implements ReportFormat {
    private final boolean wide;

    /**
     * A text report in the default layout, or in the wide one.
     *
     * @param wide the wide layout of one column per target
     */
    public TextFormat(boolean wide) {
        this.wide = wide;
    }

    @Override
    public void write(Analysis a, Writer w) throws IOException {
        PrintWriter out = new PrintWriter(w);
        header(a, out);
        List<Finding> findings = a.results().reproductions();
        if (!findings.isEmpty()) {
            // lab reproduce: the findings are the report; the runs behind them are in --json and --html.
            findings.forEach(f -> finding(f, out));
            out.println();
            Text.wrap(Findings.summary(findings), Text.WIDTH, "", "  ").forEach(out::println);
        } else if (wide) {
            out.print(Tables.compare(a.results()));
        } else {
            for (WorkloadView v : a.workloads()) {
                workload(v, out);
                distance(v.workload(), a.results().runs(), out);
            }
        }
        if (!a.workloads().isEmpty() && findings.isEmpty()) {
            out.println();
            Text.wrap(a.summary(), Text.WIDTH, "", "  ").forEach(out::println);
        }
        out.flush();
    }

    private static void header(Analysis a, PrintWriter out) {
        Results r = a.results();
        StringBuilder m = new StringBuilder("machine:");
        r.machine().forEach((k, v) -> m.append(' ').append(k).append('=').append(v).append(';'));
        Text.wrap(m.toString(), Text.WIDTH, "", "  ").forEach(out::println);
        if (r.sluice() != null && r.jvm() != null) {
            Text.wrap("build: sluice " + r.sluice().version() + " (" + r.sluice().commit() + "), " + r.jvm().name()
                    + " " + r.jvm().version() + ", JVM arguments: " + String.join(" ", r.jvm().args()), Text.WIDTH,
                    "", "  ").forEach(out::println);
        }
        if (a.busy() != null) {
            Text.wrap("warning: " + a.busy(), Text.WIDTH, "", "  ").forEach(out::println);
        }
    }

    private static void workload(WorkloadView v, PrintWriter out) {
        out.println();
        String base = v.baseline();
        out.println(Text.clip(String.format(Locale.ROOT, "%s: %s, %s; median of %d reps, ×vs %s with its 95 %% "
                        + "interval (above 1 is better)", v.workload(), what(v.metric(), v.unit()),
                v.lowerIsBetter() ? "lower is better" : "higher is better",
                v.reps(), base), Text.WIDTH));
        int tw = Math.min(36, Math.max(6, v.cases().stream().flatMap(c -> c.rows().stream())
                .mapToInt(r -> r.target().length()).max().orElse(6)));
        String ratioHead = Text.clip("×vs " + base + " [95 %]", 23);
        for (CaseView c : v.cases()) {
            out.println("  " + c.label());
            List<String[]> table = new ArrayList<>();
            table.add(new String[] {"target", "median", ratioHead, "verdict", "cs/run"});
            for (Row r : c.rows()) {
                table.add(cells(r, v.unit(), base, v.reps()));
            }
            print(table, tw, out);
        }
        for (Map.Entry<String, String> h : v.how().entrySet()) {
            Text.wrap(h.getValue(), Text.WIDTH, "    how " + h.getKey() + ": ", "      ").forEach(out::println);
        }
        for (int i = 0; i < v.notes().size(); i++) {
            Text.wrap(v.notes().get(i), Text.WIDTH, "    [" + (i + 1) + "] ", "        ").forEach(out::println);
        }
        for (String r : v.remarks()) {
            Text.wrap(r, Text.WIDTH, "    note ", "      ").forEach(out::println);
        }
        Text.wrap(v.conclusion(), Text.WIDTH, "  → ", "    ").forEach(out::println);
    }

    /**
     * One line: how far apart the CPUs were before the workload's runs. The same machine passes a cache line
     * between its two CPUs several times faster at one moment than at another (the host moves them), and every
     * figure that moves bytes between threads follows; a wide range says the runs mixed the two.
     */
    private static void distance(String workload, List<Results.Run> runs, PrintWriter out) {
        String d = distance(workload, runs);
        if (!d.isEmpty()) {
            Text.wrap(d, Text.WIDTH, "  cpus: ", "    ").forEach(out::println);
        }
    }

    /**
     * {@return the sentence of the CPU distance before a workload's runs, or empty if it was not measured}
     *
     * @param workload the workload
     * @param runs     every run of the results (the workload's are picked)
     */
    static String distance(String workload, List<Results.Run> runs) {
        String d = Tables.distance(runs.stream().filter(r -> r.workload().equals(workload)).toList());
        return d.isEmpty() ? "" : "CPU distance before each run (a cache line's round trip between two threads): "
                + d + " ns";
    }

    /** The compared figure in words, its unit said once: {@code MB/s}, {@code time in s}, {@code µs per op}. */
    static String what(String metric, String unit) {
        if (metric.equals(unit)) {
            return unit;
        }
        if (metric.equals("seconds")) {
            return "time in " + unit;
        }
        return metric.endsWith("/op") ? unit + " per op" : metric + " in " + unit;
    }

    private static String[] cells(Row r, String unit, String base, int reps) {
        if (!r.ok()) {
            return new String[] {r.target(), r.status() + " [" + r.note() + "]", "", "", ""};
        }
        String ratio;
        if (r.target().equals(base)) {
            ratio = "baseline";
        } else if (!r.vsBaseline().defined()) {
            ratio = "-";
        } else if (reps < Bootstrap.MIN_REPS) {
            ratio = String.format(Locale.ROOT, "×%.3f", r.vsBaseline().ratio());
        } else {
            ratio = String.format(Locale.ROOT, "×%.3f [%.3f, %.3f]", r.vsBaseline().ratio(), r.vsBaseline().lo(),
                    r.vsBaseline().hi());
        }
        return new String[] {r.target(), Tables.num(r.median()) + " " + unit, ratio, r.verdict(),
            Tables.count(r.csPerRun())};
    }

    /** Target left-aligned (clipped to {@code tw}), the figures right-aligned, the ratio and verdict left. */
    private static void print(List<String[]> table, int tw, PrintWriter out) {
        int[] w = new int[5];
        w[0] = tw;
        for (String[] row : table) {
            for (int i = 1; i < 5; i++) {
                w[i] = Math.max(w[i], row[i].length());
            }
        }
        for (String[] row : table) {
            String line = String.format(Locale.ROOT, "    %-" + w[0] + "s  %" + w[1] + "s  %-" + w[2] + "s  %-" + w[3]
                    + "s  %" + w[4] + "s", Text.clip(row[0], tw), row[1], row[2], row[3], row[4]);
            out.println(Text.clip(line.stripTrailing(), Text.WIDTH));
        }
    }

    private static void finding(Finding f, PrintWriter out) {
        out.println();
        out.println(Text.clip(f.number() + ". " + f.title() + " — " + f.verdict().toUpperCase(Locale.ROOT),
                Text.WIDTH));
        line("claim", f.claim(), out);
        line("source", f.source(), out);
        line("original", f.original(), out);
        line("knob", f.knob(), out);
        line("kernel", f.kernel(), out);
        line("ours", f.ours(), out);
        for (String d : f.details()) {
            Text.wrap(d, Text.WIDTH, "                ", "                  ").forEach(out::println);
        }
        line("verdict", f.verdict() + (f.why() == null ? "" : ": " + f.why()), out);
    }

    private static void line(String label, String text, PrintWriter out) {
        Text.wrap(text, Text.WIDTH, String.format(Locale.ROOT, "   %-10s  ", label), "               ")
                .forEach(out::println);
    }
}
