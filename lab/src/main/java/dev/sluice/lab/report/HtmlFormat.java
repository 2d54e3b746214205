package dev.sluice.lab.report;

import dev.sluice.lab.report.Analysis.CaseView;
import dev.sluice.lab.report.Analysis.Row;
import dev.sluice.lab.report.Analysis.WorkloadView;
import dev.sluice.lab.report.Results.Run;
import dev.sluice.lab.reproduce.Finding;
import dev.sluice.lab.reproduce.Findings;

import java.io.IOException;
import java.io.Writer;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * A self-contained HTML report: no scripts, fonts or images from anywhere, charts as inline SVG. First the
 * summary (the conclusions, and the reproduced findings if any), the machine and the load warning; then one
 * collapsible section per workload with, per case, bars of the medians with 95 % interval whiskers on a value
 * axis with its unit, and the table behind them. Colours are Okabe and Ito's palette, which stays apart for
 * the common colour-vision deficiencies, with the baseline in neutral grey.
 */
public final class HtmlFormat implements ReportFormat {
    /** Creates the format. */
    public HtmlFormat() {
        // nothing to set up
    }

    /** Okabe–Ito, without its black (kept for text and whiskers) and grey (kept for the baseline). */
    static final String[] PALETTE = {"#0072B2", "#E69F00", "#009E73", "#CC79A7", "#56B4E9", "#D55E00", "#F0E442"};
    /** The baseline's bar: neutral, so no target reads as "the bad one". */
    static final String BASELINE = "#999999";
    /** Whiskers. */
    static final String WHISKER = "#000000";

    private static final String STYLE = "body{font-family:sans-serif;margin:2em;color:#222;max-width:70em}"
            + "table{border-collapse:collapse;margin:.5em 0 1em}td,th{border:1px solid #ccc;padding:.2em .5em;"
            + "font-size:13px;text-align:left;vertical-align:top}td.num{text-align:right}th{background:#f3f3f3}"
            + ".warn{background:#fff4d6;border:1px solid #e69f00;padding:.5em}details{margin:1em 0}"
            + "summary{font-size:1.3em;font-weight:bold;cursor:pointer}svg{display:block;margin:.5em 0}"
            + ".na{color:#777}.small{font-size:12px;color:#555}"
            + "table.repro{table-layout:fixed;width:100%}table.repro td{overflow-wrap:anywhere}";

    @Override
    public void write(Analysis a, Writer out) throws IOException {
        Results r = a.results();
        StringBuilder h = new StringBuilder(64 * 1024);
        h.append("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>Sluice lab report</title>\n")
                .append("<style>").append(STYLE).append("</style></head><body>\n<h1>Sluice lab report</h1>\n");
        h.append("<p>").append(esc(String.join(" ", r.command()))).append(" &mdash; ").append(esc(r.created()))
                .append("; ").append(r.warmup()).append(" warm-up + ").append(r.reps())
                .append(" measured repetitions per case, cases interleaved");
        if (r.baseline() != null && !r.baseline().isBlank()) { // lab reproduce compares each finding's two sides
            h.append("; baseline <b>").append(esc(r.baseline())).append("</b>");
        }
        h.append(".</p>\n");
        if (a.busy() != null) {
            h.append("<p class=\"warn\" id=\"load-warning\">Warning: ").append(esc(a.busy())).append(".</p>\n");
        }
        if (!r.reproductions().isEmpty()) {
            // lab reproduce: the findings are the conclusions; the workload summary follows as the runs behind them.
            reproduction(r.reproductions(), h);
        }
        summary(a, h);
        machine(r, h);
        for (WorkloadView v : a.workloads()) {
            workload(v, r.runs(), h);
        }
        h.append("</body></html>\n");
        out.write(h.toString());
    }

    private static void summary(Analysis a, StringBuilder h) {
        boolean repro = !a.results().reproductions().isEmpty();
        h.append(repro ? "<h2>The runs behind the findings</h2>\n" : "<h2>Summary</h2>\n");
        if (!a.workloads().isEmpty() && !repro) {
            h.append("<p id=\"summary-sentence\">").append(esc(a.summary())).append("</p>\n");
        }
        h.append("<table id=\"summary\"><tr><th>workload</th><th>best</th><th>Sluice</th><th>conclusion</th></tr>");
        for (WorkloadView v : a.workloads()) {
            List<String> best = new ArrayList<>();
            List<String> sluice = new ArrayList<>();
            for (CaseView c : v.cases()) {
                String prefix = v.cases().size() > 1 ? c.label() + ": " : "";
                best.add(prefix + (c.best() == null ? "-" : c.best()));
                sluice.add(prefix + Conclusions.sluice(c).map(x -> x.target() + " " + x.verdict()).orElse("-"));
            }
            h.append("<tr><td><a href=\"#w-").append(esc(v.workload())).append("\">").append(esc(v.workload()))
                    .append("</a></td><td>").append(esc(String.join("; ", best))).append("</td><td>")
                    .append(esc(String.join("; ", sluice))).append("</td><td>").append(esc(v.conclusion()))
                    .append("</td></tr>");
        }
        h.append("</table>\n");
    }

    private static void reproduction(List<Finding> findings, StringBuilder h) {
        h.append("<details open id=\"reproduction\"><summary>Reproduction of the kernel-list findings</summary>\n")
                .append("<p id=\"reproduction-summary\">").append(esc(Findings.summary(findings)))
                .append("</p>\n")
                .append("<table class=\"repro\"><colgroup><col style=\"width:2.5em\"><col style=\"width:15%\">")
                .append("<col style=\"width:13%\"><col style=\"width:12%\"><col style=\"width:15%\">")
                .append("<col style=\"width:16%\"><col style=\"width:9%\"><col></colgroup>")
                .append("<tr><th>#</th><th>finding</th><th>source</th><th>original</th><th>knob</th>")
                .append("<th>ours (95 % interval)</th><th>verdict</th><th>why it may differ</th></tr>");
        for (Finding f : findings) {
            h.append("<tr><td>").append(f.number()).append("</td><td><b>").append(esc(f.title())).append("</b><br>")
                    .append(esc(f.claim())).append("</td><td>").append(esc(f.source())).append("</td><td>")
                    .append(esc(f.original())).append("</td><td>").append(esc(f.knob())).append("<br><span class=")
                    .append("\"small\">kernel: ").append(esc(f.kernel())).append("</span></td><td>")
                    .append(esc(f.ours()));
            f.details().forEach(d -> h.append("<br><span class=\"small\">").append(esc(d)).append("</span>"));
            h.append("</td><td class=\"verdict\"><b>").append(esc(f.verdict())).append("</b></td><td>")
                    .append(esc(f.why())).append("</td></tr>");
        }
        h.append("</table></details>\n");
    }

    private static void machine(Results r, StringBuilder h) {
        h.append("<details id=\"machine\"><summary>Machine and build</summary><table>");
        r.machine().forEach((k, v) -> h.append("<tr><td>").append(esc(k)).append("</td><td>").append(esc(v))
                .append("</td></tr>"));
        if (r.sluice() != null) {
            h.append("<tr><td>sluice</td><td>").append(esc(r.sluice().version())).append(" (")
                    .append(esc(r.sluice().commit())).append(")</td></tr>");
        }
        if (r.jvm() != null) {
            h.append("<tr><td>jvm</td><td>").append(esc(r.jvm().name() + " " + r.jvm().version() + ", "
                    + r.jvm().vendor())).append("</td></tr><tr><td>jvm arguments</td><td>")
                    .append(esc(String.join(" ", r.jvm().args()))).append("</td></tr>");
        }
        h.append("</table></details>\n");
    }

    private static void workload(WorkloadView v, List<Run> runs, StringBuilder h) {
        h.append("<details open id=\"w-").append(esc(v.workload())).append("\"><summary>").append(esc(v.workload()))
                .append("</summary>\n<p>").append(esc(v.conclusion())).append("</p>\n<p class=\"small\">")
                .append(esc(TextFormat.what(v.metric(), v.unit()))).append(", ")
                .append(v.lowerIsBetter() ? "lower" : "higher").append(" is better; bars are medians of ")
                .append(v.reps()).append(" repetitions, whiskers their 95&nbsp;% bootstrap interval.</p>\n");
        String distance = TextFormat.distance(v.workload(), runs);
        if (!distance.isEmpty()) {
            h.append("<p class=\"small cpus\">").append(esc(distance)).append(".</p>\n");
        }
        Map<String, String> colours = colours(v);
        for (CaseView c : v.cases()) {
            h.append("<h3>").append(esc(c.label())).append("</h3>\n");
            h.append(Bars.svg(c, v.unit(), colours));
            table(v, c, h);
        }
        h.append("<table><tr><th>target</th><th>configured as</th></tr>");
        v.how().forEach((t, how) -> h.append("<tr><td>").append(esc(t)).append("</td><td>").append(esc(how))
                .append("</td></tr>"));
        h.append("</table>\n");
        if (!v.notes().isEmpty()) {
            h.append("<ol class=\"small\">");
            v.notes().forEach(n -> h.append("<li>").append(esc(n)).append("</li>"));
            h.append("</ol>\n");
        }
        if (!v.remarks().isEmpty()) {
            h.append("<ul class=\"small\">");
            v.remarks().forEach(n -> h.append("<li>").append(esc(n)).append("</li>"));
            h.append("</ul>\n");
        }
        counters(runs.stream().filter(r -> r.workload().equals(v.workload()) && r.ok()).toList(), h);
        h.append("</details>\n");
    }

    /** One colour per target of the workload, the baseline grey. */
    private static Map<String, String> colours(WorkloadView v) {
        Map<String, String> m = new LinkedHashMap<>();
        int i = 0;
        for (CaseView c : v.cases()) {
            for (Row r : c.rows()) {
                if (!m.containsKey(r.target())) {
                    m.put(r.target(), r.target().equals(v.baseline()) ? BASELINE : PALETTE[i++ % PALETTE.length]);
                }
            }
        }
        return m;
    }

    private static void table(WorkloadView v, CaseView c, StringBuilder h) {
        h.append("<table><tr><th>target</th><th>median</th><th>95 % interval</th><th>×vs ").append(esc(v.baseline()))
                .append(" [95 %]</th><th>verdict</th><th>context switches per run</th></tr>");
        for (Row r : c.rows()) {
            h.append("<tr><td>").append(esc(r.target())).append("</td>");
            if (!r.ok()) {
                h.append("<td class=\"na\" colspan=\"5\">").append(esc(r.status())).append(" (see note ")
                        .append(r.note()).append(")</td></tr>");
                continue;
            }
            h.append("<td class=\"num\">").append(Tables.num(r.median())).append(' ').append(esc(v.unit()))
                    .append("</td><td class=\"num\">").append(Tables.num(r.lo())).append(" – ")
                    .append(Tables.num(r.hi())).append("</td><td class=\"num\">")
                    .append(r.target().equals(v.baseline()) ? "baseline" : r.vsBaseline().defined()
                            ? String.format(Locale.ROOT, "×%.3f [%.3f, %.3f]", r.vsBaseline().ratio(),
                            r.vsBaseline().lo(), r.vsBaseline().hi()) : "-")
                    .append("</td><td>").append(esc(r.verdict())).append("</td><td class=\"num\">")
                    .append(Tables.count(r.csPerRun())).append("</td></tr>");
        }
        h.append("</table>\n");
    }

    /** Sluice's own counters, mean per run, where a target keeps them. */
    private static void counters(List<Run> runs, StringBuilder h) {
        List<Run> with = runs.stream().filter(r -> r.summary().containsKey("counter.writerWakeups")).toList();
        if (with.isEmpty()) {
            return;
        }
        List<String> keys = List.of("readerWaits", "writerWaits", "readerWakeups", "writerWakeups", "emptyWakeups",
                "spunWaits", "lockContended", "pagesAllocated");
        h.append("<table class=\"small\"><tr><th>pipe counters, mean per run</th>");
        keys.forEach(k -> h.append("<th>").append(k).append("</th>"));
        h.append("</tr>");
        for (Run r : with) {
            h.append("<tr><td>").append(esc(r.target() + " " + r.caseLabel() + " " + r.threads())).append("</td>");
            keys.forEach(k -> h.append("<td class=\"num\">").append(Tables.count(Tables.mean(r, "counter." + k)))
                    .append("</td>"));
            h.append("</tr>");
        }
        h.append("</table>\n");
    }

    /** Escapes text for HTML. */
    static String esc(String s) {
        if (s == null) {
            return "";
        }
        return s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace("\"", "&quot;");
    }
}
