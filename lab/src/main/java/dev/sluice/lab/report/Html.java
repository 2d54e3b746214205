package dev.sluice.lab.report;

import dev.sluice.lab.report.Results.Run;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * A self-contained HTML report: no scripts, fonts or images from the network; charts are inline SVG. Per
 * workload: a bar chart of the compared metric per case and target, latency percentiles where the workload
 * has them, context switches, and the same tables as the terminal (plus the Sluice counters).
 */
public final class Html {
    private static final String[] PALETTE = {"#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd", "#8c564b",
            "#e377c2", "#7f7f7f", "#bcbd22", "#17becf"};

    private Html() {
    }

    public static void write(Results r, Path file) throws IOException {
        Path parent = file.toAbsolutePath().getParent();
        if (parent != null) {
            Files.createDirectories(parent);
        }
        Files.writeString(file, render(r), StandardCharsets.UTF_8);
    }

    /** One colour per target id for the whole report, in order of first appearance. */
    private static final ThreadLocal<Map<String, String>> COLOURS = ThreadLocal.withInitial(java.util.HashMap::new);

    private static String colour(String target) {
        Map<String, String> m = COLOURS.get();
        return m.computeIfAbsent(target, t -> PALETTE[m.size() % PALETTE.length]);
    }

    public static String render(Results r) {
        COLOURS.get().clear();
        r.runs().forEach(x -> colour(x.target()));
        StringBuilder h = new StringBuilder();
        h.append("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>Sluice lab report</title>\n<style>")
                .append("body{font-family:sans-serif;margin:2em;color:#222}table{border-collapse:collapse;margin:.5em 0 1.5em}")
                .append("td,th{border:1px solid #ccc;padding:.2em .5em;text-align:right;font-size:13px}")
                .append("td:first-child,th:first-child{text-align:left}th{background:#f3f3f3}.na{color:#999}")
                .append(".bad{color:#b00;font-weight:bold}.good{color:#070}svg{display:block;margin:.5em 0}")
                .append("code{background:#f6f6f6}</style></head><body>\n");
        h.append("<h1>Sluice lab report</h1>\n<p>").append(esc(String.join(" ", r.command()))).append(" &mdash; ")
                .append(esc(r.created())).append(", ").append(r.warmup()).append(" warm-up + ").append(r.reps())
                .append(" measured repetitions per case, targets interleaved; baseline <b>").append(esc(r.baseline()))
                .append("</b>. Results schema ").append(esc(r.schema())).append(" v").append(r.version()).append(".</p>\n");
        h.append("<table><tr><th>machine</th><th></th></tr>");
        r.machine().forEach((k, v) -> h.append("<tr><td>").append(esc(k)).append("</td><td>").append(esc(v)).append("</td></tr>"));
        h.append("</table>\n");
        for (Map.Entry<String, List<Run>> e : Tables.byWorkload(r.runs()).entrySet()) {
            List<Run> runs = e.getValue();
            Run first = runs.get(0);
            List<String> cols = Tables.columns(runs, r.baseline());
            List<String> rows = Tables.rows(runs);
            String base = cols.contains(r.baseline()) ? r.baseline() : cols.get(0);
            h.append("<h2>").append(esc(e.getKey())).append("</h2>\n");
            h.append("<p>").append(esc(first.metric())).append(" (").append(esc(first.unit())).append("), ")
                    .append(first.lowerIsBetter() ? "lower is better" : "higher is better").append(".</p>\n");
            double[][] v = new double[rows.size()][cols.size()];
            double[][] cs = new double[rows.size()][cols.size()];
            for (int i = 0; i < rows.size(); i++) {
                for (int j = 0; j < cols.size(); j++) {
                    Run x = Tables.find(runs, rows.get(i), cols.get(j));
                    v[i][j] = x != null && x.ok() ? Tables.mean(x, x.metric()) : Double.NaN;
                    cs[i][j] = x != null && x.ok() ? Tables.mean(x, "voluntaryCs") + Tables.mean(x, "involuntaryCs") : Double.NaN;
                }
            }
            h.append(bars(first.metric() + " (" + first.unit() + ")", rows, cols, v));
            h.append(percentiles(runs, rows, cols));
            h.append(bars("context switches per run (voluntary + involuntary, whole process)", rows, cols, cs, Tables::count));
            h.append(table(runs, rows, cols, base));
            h.append(medianTable(runs, rows, cols, base));
            h.append(counters(runs));
            Set<String> notes = new LinkedHashSet<>();
            runs.stream().filter(x -> !x.ok()).forEach(x -> notes.add(x.target() + " " + x.status() + ": " + x.reason()));
            runs.stream().filter(x -> x.ok() && x.note() != null).forEach(x -> notes.add(x.target() + ": " + x.note()));
            if (!notes.isEmpty()) {
                h.append("<ul>");
                notes.forEach(n -> h.append("<li>").append(esc(n)).append("</li>"));
                h.append("</ul>\n");
            }
        }
        h.append("</body></html>\n");
        return h.toString();
    }

    private static String table(List<Run> runs, List<String> rows, List<String> cols, String base) {
        StringBuilder h = new StringBuilder("<table><tr><th>case</th>");
        cols.forEach(c -> h.append("<th>").append(esc(c)).append("</th>"));
        h.append("</tr>");
        for (String row : rows) {
            h.append("<tr><td>").append(esc(row)).append("</td>");
            Run b = Tables.find(runs, row, base);
            double bv = b != null && b.ok() ? Tables.mean(b, b.metric()) : Double.NaN;
            for (String c : cols) {
                Run x = Tables.find(runs, row, c);
                if (x == null) {
                    h.append("<td></td>");
                } else if (!x.ok()) {
                    h.append("<td class=\"").append(x.status().equals("failed") ? "bad" : "na").append("\" title=\"")
                            .append(esc(x.reason())).append("\">").append(esc(x.status())).append("</td>");
                } else {
                    double val = Tables.mean(x, x.metric());
                    double imp = Tables.improvement(bv, val, x.lowerIsBetter());
                    String cls = Double.isNaN(imp) || Math.abs(imp) < 1e-9 ? "" : imp > 0 ? "good" : "bad";
                    h.append("<td>").append(Tables.num(val)).append(" <span class=\"").append(cls).append("\">[")
                            .append(Double.isNaN(imp) ? "-" : String.format(Locale.ROOT, "%.2f%%", imp)).append("]</span> (")
                            .append(String.format(Locale.ROOT, "%.1f%%", Tables.cv(x, x.metric()) * 100)).append(") ")
                            .append("<br><small>cs ").append(Tables.count(Tables.mean(x, "voluntaryCs"))).append('/')
                            .append(Tables.count(Tables.mean(x, "involuntaryCs"))).append("</small></td>");
                }
            }
            h.append("</tr>");
        }
        return h.append("</table>\n").toString();
    }

    /**
     * The terminal's median view as one table: per cell the median and its better-by against the baseline,
     * the best median in bold, and under every other cell how it stands against the best.
     */
    private static String medianTable(List<Run> runs, List<String> rows, List<String> cols, String base) {
        List<Tables.MedianRow> medians = Tables.medianRows(runs, cols, rows, base);
        if (medians.isEmpty()) {
            return "";
        }
        StringBuilder h = new StringBuilder("<p>Medians: ×better-by against ").append(esc(base))
                .append(" (above 1 is better) with a 95&nbsp;% bootstrap interval; the best median in bold, and under ")
                .append("each other cell its better-by against the best and whether it is more than ")
                .append(Math.round(Tables.TOLERANCE * 100)).append("&nbsp;% behind it beyond noise.</p>\n");
        h.append("<table><tr><th>case</th>");
        cols.forEach(c -> h.append("<th>").append(esc(c)).append("</th>"));
        h.append("</tr>");
        for (Tables.MedianRow m : medians) {
            h.append("<tr><td>").append(esc(m.row())).append("</td>");
            for (String c : cols) {
                Run x = Tables.find(runs, m.row(), c);
                if (x == null || !x.ok()) {
                    h.append("<td class=\"na\">").append(x == null ? "" : esc(x.status())).append("</td>");
                    continue;
                }
                String median = Tables.num(m.medians().get(c));
                h.append("<td>").append(c.equals(m.best()) ? "<b>" + median + "</b>" : median).append(' ')
                        .append(c.equals(base) ? "(baseline)" : esc(Tables.ratio(m.vsBaseline().get(c))));
                Bootstrap.Ratio vsBest = m.vsBest().get(c);
                if (c.equals(m.best())) {
                    h.append("<br><small>best</small>");
                } else if (vsBest != null && vsBest.defined()) {
                    Bootstrap.Verdict v = vsBest.verdict(Tables.TOLERANCE);
                    h.append("<br><small>vs best ").append(esc(Tables.ratio(vsBest))).append(" <span class=\"")
                            .append(v == Bootstrap.Verdict.BEHIND ? "bad" : v == Bootstrap.Verdict.WITHIN ? "good" : "")
                            .append("\">").append(esc(v.words(Tables.TOLERANCE))).append("</span></small>");
                }
                h.append("</td>");
            }
            h.append("</tr>");
        }
        return h.append("</table>\n").toString();
    }

    private static String counters(List<Run> runs) {
        List<Run> with = runs.stream().filter(x -> x.ok() && x.summary().keySet().stream().anyMatch(k -> k.startsWith("counter."))).toList();
        if (with.isEmpty()) {
            return "";
        }
        List<String> keys = with.get(0).summary().keySet().stream().filter(k -> k.startsWith("counter.")).toList();
        StringBuilder h = new StringBuilder("<details><summary>Sluice counters (mean per run)</summary><table><tr><th>case / target</th>");
        keys.forEach(k -> h.append("<th>").append(esc(k.substring(8))).append("</th>"));
        h.append("</tr>");
        for (Run x : with) {
            h.append("<tr><td>").append(esc(Tables.rowKey(x) + " " + x.target())).append("</td>");
            keys.forEach(k -> h.append("<td>").append(Tables.count(Tables.mean(x, k))).append("</td>"));
            h.append("</tr>");
        }
        return h.append("</table></details>\n").toString();
    }

    /** Latency percentiles (keys ending in " us" that start with p or max) per target, log scale. */
    private static String percentiles(List<Run> runs, List<String> rows, List<String> cols) {
        List<String> keys = new ArrayList<>();
        for (Run x : runs) {
            if (x.ok()) {
                for (String k : x.summary().keySet()) {
                    if (k.endsWith(" us") && (k.startsWith("p") || k.startsWith("max") || k.startsWith("write p"))
                            && !keys.contains(k)) {
                        keys.add(k);
                    }
                }
            }
        }
        if (keys.isEmpty()) {
            return "";
        }
        keys.sort(java.util.Comparator.comparingDouble(Html::percentileRank));
        StringBuilder h = new StringBuilder();
        for (String row : rows) {
            List<String> series = new ArrayList<>();
            List<String> colors = new ArrayList<>();
            List<double[]> vals = new ArrayList<>();
            for (String c : cols) {
                Run x = Tables.find(runs, row, c);
                if (x == null || !x.ok()) {
                    continue;
                }
                double[] v = new double[keys.size()];
                boolean any = false;
                for (int i = 0; i < keys.size(); i++) {
                    v[i] = Tables.mean(x, keys.get(i));
                    any |= !Double.isNaN(v[i]);
                }
                if (any) {
                    series.add(c);
                    colors.add(colour(c));
                    vals.add(v);
                }
            }
            if (!series.isEmpty()) {
                h.append(lines("latency percentiles, µs (log scale), " + row, keys, series, colors, vals));
            }
        }
        return h.toString();
    }

    /** p50 -> 50, write p99.9 -> 99.9, max -> 100: the x order of the percentile chart. */
    static double percentileRank(String key) {
        java.util.regex.Matcher m = java.util.regex.Pattern.compile("p([0-9.]+)").matcher(key);
        return key.contains("max") ? 100 : m.find() ? Double.parseDouble(m.group(1)) : 101;
    }

    private static String lines(String title, List<String> xs, List<String> series, List<String> colors,
                                List<double[]> vals) {
        int w = 640;
        int hgt = 260;
        int left = 60;
        int top = 30;
        int plotW = w - left - 160;
        int plotH = hgt - top - 40;
        double min = Double.MAX_VALUE;
        double max = 0;
        for (double[] v : vals) {
            for (double d : v) {
                if (!Double.isNaN(d) && d > 0) {
                    min = Math.min(min, d);
                    max = Math.max(max, d);
                }
            }
        }
        if (max == 0) {
            return "";
        }
        double lo = Math.floor(Math.log10(min));
        double hi = Math.ceil(Math.log10(max));
        if (hi == lo) {
            hi = lo + 1;
        }
        StringBuilder s = new StringBuilder();
        s.append(String.format(Locale.ROOT, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" role=\"img\">", w, hgt));
        s.append(String.format(Locale.ROOT, "<text x=\"%d\" y=\"18\" font-size=\"13\" font-weight=\"bold\">%s</text>", left, esc(title)));
        for (double d = lo; d <= hi; d++) {
            double y = top + plotH - (d - lo) / (hi - lo) * plotH;
            s.append(String.format(Locale.ROOT, "<line x1=\"%d\" y1=\"%.1f\" x2=\"%d\" y2=\"%.1f\" stroke=\"#ddd\"/>", left, y, left + plotW, y));
            s.append(String.format(Locale.ROOT, "<text x=\"%d\" y=\"%.1f\" font-size=\"11\" text-anchor=\"end\">%s</text>", left - 4, y + 4,
                    Tables.num(Math.pow(10, d))));
        }
        for (int i = 0; i < xs.size(); i++) {
            double x = left + (xs.size() == 1 ? plotW / 2.0 : i * plotW / (double) (xs.size() - 1));
            s.append(String.format(Locale.ROOT, "<text x=\"%.1f\" y=\"%d\" font-size=\"11\" text-anchor=\"middle\">%s</text>", x, top + plotH + 16,
                    esc(xs.get(i).replace(" us", ""))));
        }
        for (int k = 0; k < series.size(); k++) {
            String color = colors.get(k);
            StringBuilder pts = new StringBuilder();
            double[] v = vals.get(k);
            for (int i = 0; i < xs.size(); i++) {
                if (Double.isNaN(v[i]) || v[i] <= 0) {
                    continue;
                }
                double x = left + (xs.size() == 1 ? plotW / 2.0 : i * plotW / (double) (xs.size() - 1));
                double y = top + plotH - (Math.log10(v[i]) - lo) / (hi - lo) * plotH;
                pts.append(String.format(Locale.ROOT, "%.1f,%.1f ", x, y));
                s.append(String.format(Locale.ROOT, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"3\" fill=\"%s\"><title>%s %s: %s µs</title></circle>",
                        x, y, color, esc(series.get(k)), esc(xs.get(i)), Tables.num(v[i])));
            }
            s.append(String.format(Locale.ROOT, "<polyline points=\"%s\" fill=\"none\" stroke=\"%s\" stroke-width=\"2\"/>", pts, color));
            s.append(String.format(Locale.ROOT, "<rect x=\"%d\" y=\"%d\" width=\"10\" height=\"10\" fill=\"%s\"/><text x=\"%d\" y=\"%d\" font-size=\"12\">%s</text>",
                    left + plotW + 12, top + k * 16, color, left + plotW + 26, top + k * 16 + 9, esc(series.get(k))));
        }
        return s.append("</svg>\n").toString();
    }

    /** Horizontal grouped bars: one group per case, one bar per target. */
    static String bars(String title, List<String> groups, List<String> series, double[][] v) {
        return bars(title, groups, series, v, Tables::num);
    }

    static String bars(String title, List<String> groups, List<String> series, double[][] v,
                       java.util.function.DoubleFunction<String> fmt) {
        double max = 0;
        for (double[] row : v) {
            for (double d : row) {
                if (!Double.isNaN(d)) {
                    max = Math.max(max, d);
                }
            }
        }
        int barH = 14;
        int labelW = 190;
        int plotW = 420;
        int groupH = series.size() * (barH + 2) + 12;
        int top = 26;
        int height = top + groups.size() * groupH + 10;
        StringBuilder s = new StringBuilder();
        s.append(String.format(Locale.ROOT, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" role=\"img\">",
                labelW + plotW + 230, height));
        s.append(String.format(Locale.ROOT, "<text x=\"0\" y=\"16\" font-size=\"13\" font-weight=\"bold\">%s</text>", esc(title)));
        for (int g = 0; g < groups.size(); g++) {
            int y0 = top + g * groupH;
            s.append(String.format(Locale.ROOT, "<text x=\"0\" y=\"%d\" font-size=\"12\">%s</text>", y0 + 12, esc(groups.get(g))));
            for (int k = 0; k < series.size(); k++) {
                int y = y0 + k * (barH + 2);
                double d = v[g][k];
                String color = colour(series.get(k));
                if (Double.isNaN(d)) {
                    s.append(String.format(Locale.ROOT, "<text x=\"%d\" y=\"%d\" font-size=\"11\" fill=\"#999\">%s: n/a</text>",
                            labelW, y + 11, esc(series.get(k))));
                    continue;
                }
                double bw = max > 0 ? d / max * plotW : 0;
                s.append(String.format(Locale.ROOT, "<rect x=\"%d\" y=\"%d\" width=\"%.1f\" height=\"%d\" fill=\"%s\"><title>%s: %s</title></rect>",
                        labelW, y, Math.max(bw, 1), barH, color, esc(series.get(k)), fmt.apply(d)));
                s.append(String.format(Locale.ROOT, "<text x=\"%.1f\" y=\"%d\" font-size=\"11\">%s %s</text>",
                        labelW + Math.max(bw, 1) + 4, y + 11, esc(series.get(k)), fmt.apply(d)));
            }
        }
        return s.append("</svg>\n").toString();
    }

    static String esc(String s) {
        if (s == null) {
            return "";
        }
        return s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace("\"", "&quot;");
    }
}
