package dev.sluice.lab.report;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.sluice.lab.report.Results.Rep;
import dev.sluice.lab.report.Results.Run;
import org.apache.commons.math3.distribution.TDistribution;
import org.apache.commons.math3.stat.descriptive.rank.Percentile;

import java.io.IOException;
import java.io.Writer;
import java.util.List;
import java.util.function.ToDoubleFunction;

/**
 * The session in JMH's JSON result format (the array {@code -rf json} writes), so JMH's tooling and
 * visualisers (jmh.morethan.io) read it: one entry per case that ran, as benchmark
 * {@code dev.sluice.lab.<workload>.run} with the target, the thread kind, every workload parameter and the
 * Sluice build as {@code params}. Each measured repetition is one iteration of one fork; the score and its
 * error are JMH's (the mean, and the 99.9 % Student-t half-width), not the medians of the other reports.
 * Context switches per run are a secondary metric. Times per run are JMH's single-shot mode, {@code µs} per
 * round trip its average-time mode, rates its throughput mode.
 */
public final class JmhJsonFormat implements ReportFormat {
    /** Creates the format. */
    public JmhJsonFormat() {
        // nothing to set up
    }

    /** The JMH release whose JSON layout this follows. */
    public static final String JMH_VERSION = "1.37";
    private static final double[] PERCENTILES = {0.0, 50.0, 90.0, 95.0, 99.0, 99.9, 99.99, 99.999, 99.9999, 100.0};

    private final ObjectMapper mapper = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

    @Override
    public void write(Analysis a, Writer out) throws IOException {
        Results r = a.results();
        ArrayNode all = mapper.createArrayNode();
        for (Run run : r.runs()) {
            if (run.ok() && !run.reps().isEmpty()) {
                all.add(benchmark(r, run));
            }
        }
        mapper.writeValue(out, all);
    }

    private ObjectNode benchmark(Results r, Run run) {
        ObjectNode b = mapper.createObjectNode();
        b.put("jmhVersion", JMH_VERSION);
        b.put("benchmark", "dev.sluice.lab." + run.workload() + ".run");
        b.put("mode", mode(run));
        b.put("threads", 1);
        b.put("forks", 1);
        Results.Jvm jvm = r.jvm();
        b.put("jvm", jvm == null ? "unknown" : jvm.home() + "/bin/java");
        ArrayNode args = b.putArray("jvmArgs");
        if (jvm != null) {
            jvm.args().forEach(args::add);
        }
        b.put("jdkVersion", r.machine().getOrDefault("jdkVersion", jvm == null ? "unknown" : jvm.version()));
        b.put("vmName", jvm == null ? "unknown" : jvm.name());
        b.put("vmVersion", jvm == null ? "unknown" : jvm.version());
        b.put("warmupIterations", r.warmup());
        b.put("warmupTime", "single run");
        b.put("warmupBatchSize", 1);
        b.put("measurementIterations", run.reps().size());
        b.put("measurementTime", "single run");
        b.put("measurementBatchSize", 1);
        ObjectNode params = b.putObject("params");
        params.put("target", run.target());
        params.put("threadKind", run.threads());
        run.params().forEach((k, v) -> params.put(k, Long.toString(v)));
        if (r.sluice() != null) {
            params.put("sluiceVersion", r.sluice().version());
            params.put("sluiceCommit", r.sluice().commit());
        }
        b.set("primaryMetric", metric(run.reps(), rep -> rep.metrics().get(run.metric()), unit(run)));
        ObjectNode secondary = b.putObject("secondaryMetrics");
        if (run.reps().stream().allMatch(x -> x.voluntaryCs() != null && x.involuntaryCs() != null)) {
            secondary.set("·contextSwitches", metric(run.reps(), x -> x.voluntaryCs() + x.involuntaryCs(), "#/op"));
        }
        return b;
    }

    /** JMH's mode for the run's metric: single shot for a time per run, average time per op, throughput. */
    static String mode(Run run) {
        if (!run.lowerIsBetter()) {
            return "thrpt";
        }
        return run.metric().equals("seconds") ? "ss" : "avgt";
    }

    /** JMH's unit notation: {@code s/op}, {@code us/op}, or the rate's own unit. */
    static String unit(Run run) {
        if (!run.lowerIsBetter()) {
            return run.unit();
        }
        return (run.unit().equals("µs") ? "us" : run.unit()) + "/op";
    }

    private ObjectNode metric(List<Rep> reps, ToDoubleFunction<Rep> value, String unit) {
        double[] v = reps.stream().mapToDouble(value).toArray();
        int n = v.length;
        double mean = 0;
        for (double x : v) {
            mean += x;
        }
        mean /= n;
        double error = error(v, mean);
        ObjectNode m = mapper.createObjectNode();
        put(m, "score", mean);
        put(m, "scoreError", error);
        ArrayNode conf = m.putArray("scoreConfidence");
        add(conf, mean - error);
        add(conf, mean + error);
        ObjectNode pct = m.putObject("scorePercentiles");
        Percentile p = new Percentile();
        for (double q : PERCENTILES) {
            double x = q == 0 ? min(v) : p.evaluate(v, q);
            put(pct, Double.toString(q), x);
        }
        m.put("scoreUnit", unit);
        ArrayNode raw = m.putArray("rawData").addArray();
        for (double x : v) {
            add(raw, x);
        }
        return m;
    }

    /** The half-width of the 99.9 % Student-t interval of the mean, as JMH reports it; NaN for two values or fewer. */
    static double error(double[] v, double mean) {
        int n = v.length;
        if (n <= 2) {
            return Double.NaN;
        }
        double ss = 0;
        for (double x : v) {
            ss += (x - mean) * (x - mean);
        }
        double sd = Math.sqrt(ss / (n - 1));
        double t = new TDistribution(n - 1).inverseCumulativeProbability(1 - 0.001 / 2);
        return t * sd / Math.sqrt(n);
    }

    private static double min(double[] v) {
        double m = Double.POSITIVE_INFINITY;
        for (double x : v) {
            m = Math.min(m, x);
        }
        return m;
    }

    /** JMH writes NaN and the infinities as strings. */
    private static void put(ObjectNode o, String k, double d) {
        if (Double.isNaN(d)) {
            o.put(k, "NaN");
        } else if (Double.isInfinite(d)) {
            o.put(k, d > 0 ? "+INF" : "-INF");
        } else {
            o.put(k, d);
        }
    }

    private static void add(ArrayNode a, double d) {
        if (Double.isNaN(d)) {
            a.add("NaN");
        } else {
            a.add(d);
        }
    }

}
