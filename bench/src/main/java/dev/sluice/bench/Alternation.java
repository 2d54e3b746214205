package dev.sluice.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;

/**
 * Summarises an alternated comparison made by {@code bench/alternate}: JMH runs of a baseline and of the
 * current build, one fork each, taken in turns (baseline first in odd rounds, current first in even ones) so
 * that drift in the machine falls on both. Reads the CSV results ({@code baseline-N.csv}, {@code current-N.csv})
 * in a folder and prints, per benchmark and parameter set, the median of each side over the rounds and their
 * ratio, oriented so that above 1 means the current build is better (more throughput, less time), plus the
 * lowest and highest per-round ratio.
 *
 * <p>Runs made with {@code -prof dev.sluice.bench.CoreToCore} have a {@code c2c.ns} row per benchmark: how far
 * apart the two CPUs were while that fork ran. On a guest whose host moves its CPUs nearer and farther apart,
 * a round whose two forks ran at different distances compares the host, not the builds; so the summary then
 * also gives each benchmark's medians over the rounds where both forks ran near ({@link #NEAR_NS}).
 */
public final class Alternation {
    /**
     * The fork mean of {@code c2c.ns} up to which a fork counts as run with its CPUs near: the cache-line round
     * trip is about 130 ns near and 430-600 ns far on the guests of docs/performance.md.
     */
    static final double NEAR_NS = 300;
    private static final String C2C = ":c2c.ns";

    private Alternation() {
    }

    /**
     * Prints the summary of the runs in a folder.
     *
     * @param args the folder {@code bench/alternate} wrote
     * @throws IOException if a result cannot be read
     */
    public static void main(String[] args) throws IOException {
        if (args.length != 1) {
            System.err.println("usage: Alternation RESULTS_DIR");
            System.exit(2);
        }
        System.out.print(summary(Path.of(args[0])));
    }

    /** One benchmark with one parameter set: its scores per round, per side. */
    record Row(String name, String unit, boolean higherIsBetter, Map<Integer, Double> baseline,
            Map<Integer, Double> current) {
    }

    static String summary(Path dir) throws IOException {
        Map<String, Row> rows = new LinkedHashMap<>();
        List<Path> files;
        try (Stream<Path> list = Files.list(dir)) {
            files = list.filter(p -> p.getFileName().toString().matches("(baseline|current)-\\d+\\.csv"))
                    .sorted().toList();
        }
        if (files.isEmpty()) {
            throw new IOException("no baseline-N.csv or current-N.csv in " + dir);
        }
        for (Path f : files) {
            String stem = f.getFileName().toString().replace(".csv", "");
            boolean baseline = stem.startsWith("baseline");
            int round = Integer.parseInt(stem.substring(stem.indexOf('-') + 1));
            read(Files.readAllLines(f), baseline, round, rows);
        }
        return render(rows.values()) + renderNear(rows);
    }

    static void read(List<String> lines, boolean baseline, int round, Map<String, Row> rows) {
        if (lines.isEmpty()) {
            return;
        }
        List<String> header = fields(lines.get(0));
        int score = header.indexOf("Score");
        int unit = header.indexOf("Unit");
        int mode = header.indexOf("Mode");
        for (String line : lines.subList(1, lines.size())) {
            List<String> f = fields(line);
            if (f.size() != header.size()) {
                continue;
            }
            StringBuilder key = new StringBuilder(shortName(f.get(0)));
            for (int i = unit + 1; i < f.size(); i++) {
                key.append(' ').append(header.get(i).replace("Param: ", "")).append('=').append(f.get(i));
            }
            boolean higher = f.get(mode).equals("thrpt");
            Row row = rows.computeIfAbsent(key.toString(),
                    k -> new Row(k, f.get(unit), higher, new TreeMap<>(), new TreeMap<>()));
            (baseline ? row.baseline() : row.current()).put(round, Double.parseDouble(f.get(score)));
        }
    }

    private static String shortName(String benchmark) {
        return benchmark.replace("dev.sluice.bench.", "");
    }

    /** Splits one CSV line as JMH writes it: fields separated by commas, text fields in double quotes. */
    static List<String> fields(String line) {
        List<String> out = new ArrayList<>();
        StringBuilder cur = new StringBuilder();
        boolean quoted = false;
        for (int i = 0; i < line.length(); i++) {
            char c = line.charAt(i);
            if (c == '"') {
                quoted = !quoted;
            } else if (c == ',' && !quoted) {
                out.add(cur.toString());
                cur.setLength(0);
            } else {
                cur.append(c);
            }
        }
        out.add(cur.toString());
        return out;
    }

    static String render(Iterable<Row> rows) {
        StringBuilder sb = new StringBuilder(String.format(Locale.ROOT, "%-70s %6s %12s %12s %7s %15s%n",
                "benchmark", "rounds", "baseline", "current", "ratio", "per-round range"));
        for (Row r : rows) {
            List<Double> ratios = new ArrayList<>();
            for (var e : r.current().entrySet()) {
                Double b = r.baseline().get(e.getKey());
                if (b != null) {
                    ratios.add(better(r, e.getValue(), b));
                }
            }
            double b = median(r.baseline().values());
            double c = median(r.current().values());
            String range = ratios.isEmpty() ? "-" : String.format(Locale.ROOT, "%.2f..%.2f",
                    ratios.stream().mapToDouble(Double::doubleValue).min().orElseThrow(),
                    ratios.stream().mapToDouble(Double::doubleValue).max().orElseThrow());
            sb.append(String.format(Locale.ROOT, "%-70s %6d %12.3f %12.3f %7.3f %15s%n", r.name() + " (" + r.unit()
                    + ")", ratios.size(), b, c, better(r, c, b), range));
        }
        sb.append("ratio: current over baseline, oriented so that above 1 is better (throughput up or time down);"
                + " medians over rounds\n");
        return sb.toString();
    }

    /**
     * The medians over the rounds whose two forks both ran near ({@link #NEAR_NS}), for every benchmark with a
     * {@code c2c.ns} row; empty if there is none.
     */
    static String renderNear(Map<String, Row> rows) {
        StringBuilder sb = new StringBuilder();
        for (Row r : rows.values()) {
            int space = r.name().indexOf(' ');
            String head = space < 0 ? r.name() : r.name().substring(0, space);
            if (head.contains(":")) {
                continue; // a secondary metric
            }
            Row c2c = rows.get(head + C2C + (space < 0 ? "" : r.name().substring(space)));
            if (c2c == null) {
                continue;
            }
            List<Double> b = new ArrayList<>();
            List<Double> c = new ArrayList<>();
            for (var e : r.current().entrySet()) {
                int round = e.getKey();
                Double bs = r.baseline().get(round);
                if (bs != null && near(c2c.baseline().get(round)) && near(c2c.current().get(round))) {
                    b.add(bs);
                    c.add(e.getValue());
                }
            }
            if (sb.isEmpty()) {
                sb.append(String.format(Locale.ROOT, "%nrounds whose two forks both ran with the CPUs near"
                        + " (c2c.ns <= %.0f):%n", NEAR_NS));
            }
            double mb = median(b);
            double mc = median(c);
            sb.append(String.format(Locale.ROOT, "%-70s %6d %12.3f %12.3f %7.3f%n", r.name() + " (" + r.unit() + ")",
                    b.size(), mb, mc, b.isEmpty() ? Double.NaN : better(r, mc, mb)));
        }
        return sb.toString();
    }

    private static boolean near(Double c2cNanos) {
        return c2cNanos != null && c2cNanos <= NEAR_NS;
    }

    private static double better(Row r, double current, double baseline) {
        return r.higherIsBetter() ? current / baseline : baseline / current;
    }

    static double median(java.util.Collection<Double> values) {
        if (values.isEmpty()) {
            return Double.NaN;
        }
        double[] v = values.stream().mapToDouble(Double::doubleValue).toArray();
        Arrays.sort(v);
        int n = v.length;
        return n % 2 == 1 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
    }
}
