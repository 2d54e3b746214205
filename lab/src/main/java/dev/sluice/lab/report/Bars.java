package dev.sluice.lab.report;

import dev.sluice.lab.report.Analysis.CaseView;
import dev.sluice.lab.report.Analysis.Row;

import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * A horizontal bar chart in SVG: one bar per target (its median), a whisker across its 95 % interval, and a
 * value axis from zero with ticks at round numbers and the unit. Targets that did not run get their label and
 * "n/a" or "failed" instead of a bar.
 */
final class Bars {
    private static final int LABEL = 230;
    private static final int PLOT = 480;
    private static final int BAR = 18;
    private static final int GAP = 8;
    private static final int TOP = 10;

    private Bars() {
    }

    static String svg(CaseView c, String unit, Map<String, String> colours) {
        List<Row> rows = c.rows();
        double max = 0;
        for (Row r : rows) {
            if (r.ok()) {
                max = Math.max(max, Math.max(r.median(), Double.isNaN(r.hi()) ? 0 : r.hi()));
            }
        }
        double step = niceStep(max > 0 ? max : 1);
        double top = Math.ceil((max > 0 ? max : 1) / step) * step;
        int height = TOP + rows.size() * (BAR + GAP) + 40;
        int width = LABEL + PLOT + 40;
        StringBuilder s = new StringBuilder();
        s.append(String.format(Locale.ROOT, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" "
                + "role=\"img\" aria-label=\"medians with 95%% intervals, %s\" font-size=\"12\" fill=\"#222\">",
                width, height,
                HtmlFormat.esc(unit)));
        // The axis and its grid first, so the bars and whiskers are drawn over the grid lines.
        axis(s, top, step, unit, TOP + rows.size() * (BAR + GAP));
        int y = TOP;
        for (Row r : rows) {
            s.append(String.format(Locale.ROOT, "<text x=\"%d\" y=\"%d\" text-anchor=\"end\">%s</text>", LABEL - 6,
                    y + BAR - 5, HtmlFormat.esc(Text.clip(r.target(), 34))));
            if (!r.ok()) {
                s.append(String.format(Locale.ROOT, "<text x=\"%d\" y=\"%d\" fill=\"#777\">%s</text>", LABEL + 4,
                        y + BAR - 5, HtmlFormat.esc(r.status())));
            } else {
                double w = r.median() / top * PLOT;
                s.append(String.format(Locale.ROOT, "<rect class=\"bar\" x=\"%d\" y=\"%d\" width=\"%.1f\" "
                        + "height=\"%d\" fill=\"%s\" shape-rendering=\"crispEdges\"><title>%s: %s %s</title></rect>",
                        LABEL, y, w, BAR, colours.get(r.target()), HtmlFormat.esc(r.target()), Tables.num(r.median()),
                        HtmlFormat.esc(unit)));
                whisker(s, r, top, y);
            }
            y += BAR + GAP;
        }
        return s.append("</svg>\n").toString();
    }

    private static void whisker(StringBuilder s, Row r, double top, int y) {
        if (Double.isNaN(r.lo()) || Double.isNaN(r.hi())) {
            return;
        }
        double x1 = LABEL + r.lo() / top * PLOT;
        double x2 = LABEL + r.hi() / top * PLOT;
        int mid = y + BAR / 2;
        s.append(String.format(Locale.ROOT, "<g class=\"whisker\" stroke=\"%s\" stroke-width=\"2\" "
                + "shape-rendering=\"crispEdges\"><line class=\"whisker\" x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\"/>"
                + "<line x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\"/><line x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" "
                + "y2=\"%d\"/></g>", HtmlFormat.WHISKER, x1, mid, x2, mid, x1, mid - 5, x1, mid + 5, x2, mid - 5, x2,
                mid + 5));
    }

    private static void axis(StringBuilder s, double top, double step, String unit, int y) {
        s.append(String.format(Locale.ROOT, "<g class=\"axis\"><line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" "
                + "stroke=\"#444\"/>", LABEL, y, LABEL + PLOT, y));
        for (double v = 0; v <= top + step / 2; v += step) {
            double x = LABEL + v / top * PLOT;
            s.append(String.format(Locale.ROOT, "<line x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\" stroke=\"#444\"/>"
                    + "<line x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\" stroke=\"#ddd\"/>"
                    + "<text class=\"tick\" x=\"%.1f\" y=\"%d\" text-anchor=\"middle\">%s</text>", x, y, x, y + 4, x,
                    TOP, x, y - 1, x, y + 16, tick(v)));
        }
        s.append(String.format(Locale.ROOT, "<text class=\"unit\" x=\"%d\" y=\"%d\" text-anchor=\"middle\">%s</text>"
                + "</g>", LABEL + PLOT / 2, y + 32, HtmlFormat.esc(unit)));
    }

    /** A step of 1, 2 or 5 times a power of ten giving four to ten ticks. */
    static double niceStep(double max) {
        double raw = max / 5;
        double pow = Math.pow(10, Math.floor(Math.log10(raw)));
        double f = raw / pow;
        return (f < 1.5 ? 1 : f < 3.5 ? 2 : f < 7.5 ? 5 : 10) * pow;
    }

    private static String tick(double v) {
        if (v == Math.rint(v) && Math.abs(v) < 1e15) {
            return String.format(Locale.ROOT, "%,d", (long) v);
        }
        return Tables.num(v);
    }
}
