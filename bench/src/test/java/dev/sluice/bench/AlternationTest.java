package dev.sluice.bench;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class AlternationTest {
    private static final String HEADER = "\"Benchmark\",\"Mode\",\"Threads\",\"Samples\",\"Score\","
            + "\"Score Error (99.9%)\",\"Unit\",\"Param: writeSize\"";

    /** One fork's CSV: the stream's score and the distance its CPUs ran at. */
    private static List<String> fork(double mbPerSecond, double c2cNanos) {
        return List.of(HEADER,
                "\"dev.sluice.bench.ThroughputBenchmark.SluiceDefault.stream\",\"thrpt\",1,3," + mbPerSecond
                        + ",1.0,\"ops/us\",4096",
                "\"dev.sluice.bench.ThroughputBenchmark.SluiceDefault.stream:c2c.ns\",\"thrpt\",1,3," + c2cNanos
                        + ",1.0,\"ns\",4096");
    }

    @Test
    void roundsWhoseForksRanAtDifferentDistancesAreLeftOutOfTheNearSummary() {
        Map<String, Alternation.Row> rows = new LinkedHashMap<>();
        // Round 1 both near, round 2 the baseline far (a quarter of its speed), round 3 both near.
        Alternation.read(fork(10_000, 130), true, 1, rows);
        Alternation.read(fork(11_000, 140), false, 1, rows);
        Alternation.read(fork(2_500, 480), true, 2, rows);
        Alternation.read(fork(11_500, 120), false, 2, rows);
        Alternation.read(fork(10_200, 125), true, 3, rows);
        Alternation.read(fork(11_200, 135), false, 3, rows);

        String near = Alternation.renderNear(rows);
        String line = near.lines().filter(l -> l.startsWith("ThroughputBenchmark.SluiceDefault.stream writeSize"))
                .findFirst().orElseThrow();
        // Two rounds, medians 10100 and 11100: 1.099. With round 2, the ratio would be 11200 / 10000 = 1.12.
        assertThat(line.trim().split("\\s+")).containsSubsequence("2", "10100.000", "11100.000", "1.099");
        assertThat(near).doesNotContain("c2c.ns writeSize");
    }

    @Test
    void withoutTheProfilerThereIsNoNearSummary() {
        Map<String, Alternation.Row> rows = new LinkedHashMap<>();
        Alternation.read(List.of(HEADER, "\"dev.sluice.bench.ThroughputBenchmark.SluiceDefault.stream\",\"thrpt\",1,3,"
                + "100.0,1.0,\"ops/us\",4096"), true, 1, rows);
        assertThat(Alternation.renderNear(rows)).isEmpty();
    }
}
