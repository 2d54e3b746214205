package dev.sluice.lab.report;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.sluice.lab.report.Results.Rep;
import dev.sluice.lab.report.Results.Run;
import dev.sluice.lab.run.Runner;
import org.junit.jupiter.api.Test;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.infra.BenchmarkParams;
import org.openjdk.jmh.infra.IterationParams;
import org.openjdk.jmh.results.AggregationPolicy;
import org.openjdk.jmh.results.BenchmarkResult;
import org.openjdk.jmh.results.IterationResult;
import org.openjdk.jmh.results.IterationResultMetaData;
import org.openjdk.jmh.results.ResultRole;
import org.openjdk.jmh.results.RunResult;
import org.openjdk.jmh.results.ScalarResult;
import org.openjdk.jmh.results.SingleShotResult;
import org.openjdk.jmh.results.ThroughputResult;
import org.openjdk.jmh.results.format.ResultFormatFactory;
import org.openjdk.jmh.results.format.ResultFormatType;
import org.openjdk.jmh.runner.IterationType;
import org.openjdk.jmh.runner.WorkloadParams;
import org.openjdk.jmh.runner.options.TimeValue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

/**
 * The JMH export loads as JMH results: every benchmark of it is rebuilt with JMH's own result classes from
 * the export's raw data, written out again by JMH's own JSON writer, and the two files must have the same
 * keys and JMH's statistics (score, error, confidence, percentiles) must be the export's.
 */
class JmhJsonFormatTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    static Results sample() {
        List<Run> runs = new ArrayList<>(ReportTest.withReps().runs());
        List<Rep> reps = new ArrayList<>();
        for (double mbs : new double[] {2600, 2710, 2550, 2690, 2630, 2580}) {
            reps.add(new Rep(0.5, 1L << 30, 1000, 0.1, 0.2, 900L, 20L, 0L, Map.of("seconds", 0.5, "MB/s", mbs),
                    Map.of()));
        }
        runs.add(new Run("pipen", "size=4096", Map.of("size", 4096L, "bytes", 1L << 30), "kernel", "kernel",
                Map.of(), "pipe2", "platform", "ok", null, "MB/s", "MB/s", false, null, reps, Runner.summarize(reps)));
        Results r = ReportTest.withReps();
        return new Results(r.schema(), r.version(), r.created(), r.command(), r.sluice(), r.jvm(), r.machine(),
                r.warmup(), r.reps(), r.baseline(), runs, List.of());
    }

    @Test
    void jmhsOwnClassesAndWriterAgreeWithTheExport() throws Exception {
        JsonNode ours = JSON.readTree(new JmhJsonFormat().render(Analysis.of(sample())));
        assertThat(ours.isArray()).isTrue();
        assertThat(ours).as("one per case that ran (perf was n/a)").hasSize(8);
        List<RunResult> rebuilt = new ArrayList<>();
        for (JsonNode b : ours) {
            rebuilt.add(rebuild(b));
        }
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        ResultFormatFactory.getInstance(ResultFormatType.JSON, new PrintStream(bytes, true, StandardCharsets.UTF_8))
                .writeOut(rebuilt);
        JsonNode theirs = JSON.readTree(bytes.toString(StandardCharsets.UTF_8));
        assertThat(theirs).hasSize(ours.size());
        for (int i = 0; i < ours.size(); i++) {
            JsonNode o = ours.get(i);
            JsonNode t = theirs.get(i);
            assertThat(keys(o)).as("top-level keys").isEqualTo(keys(t));
            assertThat(keys(o.get("primaryMetric"))).isEqualTo(keys(t.get("primaryMetric")));
            assertThat(o.get("benchmark").asText()).isEqualTo(t.get("benchmark").asText());
            assertThat(o.get("mode").asText()).isEqualTo(t.get("mode").asText());
            assertThat(o.get("params")).isEqualTo(t.get("params"));
            assertSame(o.get("primaryMetric"), t.get("primaryMetric"));
            assertThat(keys(o.get("secondaryMetrics"))).isEqualTo(keys(t.get("secondaryMetrics")));
            assertSame(o.get("secondaryMetrics").get("·contextSwitches"),
                    t.get("secondaryMetrics").get("·contextSwitches"));
        }
        assertThat(ours.get(7).get("mode").asText()).isEqualTo("thrpt");
        assertThat(ours.get(0).get("mode").asText()).isEqualTo("ss");
        assertThat(ours.get(0).get("params").get("sluiceCommit").asText()).isEqualTo("abc1234");
        assertThat(ours.get(0).get("jvmArgs").get(0).asText()).isEqualTo("-Xmx1g");
    }

    private static void assertSame(JsonNode o, JsonNode t) {
        double score = o.get("score").asDouble();
        assertThat(score).isCloseTo(t.get("score").asDouble(), within(Math.abs(score) * 1e-6));
        assertThat(o.get("scoreError").asDouble()).isCloseTo(t.get("scoreError").asDouble(),
                within(Math.abs(score) * 1e-6));
        for (int k = 0; k < 2; k++) {
            assertThat(o.get("scoreConfidence").get(k).asDouble()).isCloseTo(
                    t.get("scoreConfidence").get(k).asDouble(), within(Math.abs(score) * 1e-6));
        }
        Iterator<Map.Entry<String, JsonNode>> p = t.get("scorePercentiles").fields();
        while (p.hasNext()) {
            Map.Entry<String, JsonNode> e = p.next();
            assertThat(o.get("scorePercentiles").get(e.getKey()).asDouble()).as("percentile " + e.getKey())
                    .isCloseTo(e.getValue().asDouble(), within(Math.abs(score) * 1e-6));
        }
    }

    private static TreeSet<String> keys(JsonNode n) {
        TreeSet<String> k = new TreeSet<>();
        n.fieldNames().forEachRemaining(k::add);
        return k;
    }

    /** A JMH RunResult with one fork whose iterations are the export's raw data. */
    private static RunResult rebuild(JsonNode b) {
        Mode mode = Mode.deepValueOf(b.get("mode").asText());
        WorkloadParams wp = new WorkloadParams();
        int order = 0;
        for (Iterator<Map.Entry<String, JsonNode>> it = b.get("params").fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> e = it.next();
            wp.put(e.getKey(), e.getValue().asText(), order++);
        }
        List<String> jvmArgs = new ArrayList<>();
        b.get("jvmArgs").forEach(a -> jvmArgs.add(a.asText()));
        IterationParams warm = new IterationParams(IterationType.WARMUP, b.get("warmupIterations").asInt(),
                TimeValue.seconds(1), b.get("warmupBatchSize").asInt());
        IterationParams measure = new IterationParams(IterationType.MEASUREMENT,
                b.get("measurementIterations").asInt(), TimeValue.seconds(1), b.get("measurementBatchSize").asInt());
        BenchmarkParams bp = new BenchmarkParams(b.get("benchmark").asText(), "generated", false,
                b.get("threads").asInt(), new int[] {1}, List.of(), b.get("forks").asInt(), 0, warm, measure, mode, wp,
                TimeUnit.SECONDS, 1, b.get("jvm").asText(), jvmArgs, b.get("jdkVersion").asText(),
                b.get("vmName").asText(), b.get("vmVersion").asText(), b.get("jmhVersion").asText(),
                TimeValue.minutes(10));
        JsonNode raw = b.get("primaryMetric").get("rawData").get(0);
        JsonNode cs = b.get("secondaryMetrics").get("·contextSwitches");
        List<IterationResult> iterations = new ArrayList<>();
        for (int i = 0; i < raw.size(); i++) {
            double v = raw.get(i).asDouble();
            IterationResult ir = new IterationResult(bp, measure, new IterationResultMetaData(0, 0));
            ir.addResult(mode == Mode.Throughput
                    ? new ThroughputResult(ResultRole.PRIMARY, "run", v, 1_000_000_000L, TimeUnit.SECONDS)
                    : new SingleShotResult(ResultRole.PRIMARY, "run", Math.round(v * 1e9), TimeUnit.SECONDS));
            if (cs != null) {
                ir.addResult(new ScalarResult("·contextSwitches", cs.get("rawData").get(0).get(i).asDouble(), "#/op",
                        AggregationPolicy.AVG));
            }
            iterations.add(ir);
        }
        return new RunResult(bp, List.of(new BenchmarkResult(bp, iterations)));
    }
}
