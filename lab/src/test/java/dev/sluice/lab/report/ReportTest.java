package dev.sluice.lab.report;

import dev.sluice.lab.report.Results.Rep;
import dev.sluice.lab.report.Results.Run;
import dev.sluice.lab.report.Results.Summary;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

/** The table formatter, the JSON writer/reader and the HTML report, on hand-made results. */
class ReportTest {

    static Rep rep(double seconds, long vcs) {
        return new Rep(seconds, 1000, 10, 0.1, 0.2, vcs, 1L, 4096L, Map.of("seconds", seconds, "MB/s", 1000 / seconds / 1e6),
                Map.of("readerWakeups", 3L));
    }

    static Run run(String target, String status, String reason, double... seconds) {
        List<Rep> reps = new java.util.ArrayList<>();
        for (double s : seconds) {
            reps.add(rep(s, 100));
        }
        return new Run("hackbench", "-", Map.of("groups", 1L), target, target, Map.of(), "platform", status, reason,
                "seconds", "s", true, null, reps, dev.sluice.lab.Runner.summarize(reps));
    }

    static Results sample() {
        return new Results(Results.SCHEMA, Results.VERSION, "2026-01-01T00:00:00Z", List.of("lab", "compare"),
                new LinkedHashMap<>(Map.of("cores", "2")), 1, 2, "nio",
                List.of(run("sluice", "ok", null, 1.0, 1.0), run("nio", "ok", null, 2.0, 2.0),
                        run("okio", "n/a", "writes are not atomic", new double[0]),
                        run("jdk-piped", "failed", "pipen: wrong byte", new double[0])));
    }

    @Test
    void summaryHasMeanMedianAndCv() {
        Summary s = Summary.of(List.of(1.0, 2.0, 3.0, 10.0));
        assertThat(s.mean()).isEqualTo(4.0);
        assertThat(s.median()).isEqualTo(2.5);
        assertThat(s.cv()).isCloseTo(Math.sqrt((9 + 4 + 1 + 36) / 3.0) / 4.0, within(1e-12));
        assertThat(Summary.of(List.of(5.0)).cv()).isZero();
    }

    @Test
    void improvementIsPositiveWhenBetterInEitherDirection() {
        assertThat(Tables.improvement(2.0, 1.0, true)).isEqualTo(50.0);
        assertThat(Tables.improvement(2.0, 3.0, true)).isEqualTo(-50.0);
        assertThat(Tables.improvement(100, 150, false)).isEqualTo(50.0);
    }

    @Test
    void tablePutsBaselineFirstAndShowsPctAndCv() {
        String t = Tables.compare(sample());
        assertThat(t).contains("hackbench: seconds (s), lower is better; value[pct imp vs nio](CV)");
        String header = t.lines().filter(l -> l.trim().startsWith("case")).findFirst().orElseThrow();
        assertThat(header.indexOf("nio")).isLessThan(header.indexOf("sluice"));
        assertThat(t).contains("2.000[  0.00%]( 0.0%)").contains("1.000[ 50.00%]( 0.0%)");
        assertThat(t).contains("n/a [1]").contains("[1] okio n/a: writes are not atomic");
        assertThat(t).contains("failed [2]").contains("[2] jdk-piped failed: pipen: wrong byte");
        assertThat(t).contains("context switches per run").contains("100/1");
    }

    @Test
    void jsonRoundTrips(@TempDir Path dir) throws IOException {
        Results r = sample();
        Path f = dir.resolve("r.json");
        r.write(f);
        Results back = Results.read(f);
        assertThat(back).isEqualTo(r);
        assertThat(Files.readString(f)).contains("\"schema\" : \"sluice-lab-results\"").contains("\"version\" : 1");
    }

    @Test
    void readerRefusesOtherSchemasAndVersions() {
        assertThatThrownBy(() -> Results.fromJson("{\"schema\":\"x\",\"version\":1}"))
                .isInstanceOf(IOException.class).hasMessageContaining("not a sluice-lab-results file");
        assertThatThrownBy(() -> Results.fromJson("{\"schema\":\"sluice-lab-results\",\"version\":2}"))
                .isInstanceOf(IOException.class).hasMessageContaining("version 2");
        assertThatThrownBy(() -> Results.fromJson("not json")).isInstanceOf(IOException.class);
    }

    @Test
    void htmlIsSelfContainedWithCharts() {
        String h = Html.render(sample());
        assertThat(h).startsWith("<!DOCTYPE html>").contains("<svg").contains("<table").contains("hackbench")
                .contains("writes are not atomic").doesNotContain("<script").doesNotContain("src=")
                .doesNotContain("href=\"http");
    }
}
