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
 */
public final class Alternation {
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
        return render(rows.values());
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
