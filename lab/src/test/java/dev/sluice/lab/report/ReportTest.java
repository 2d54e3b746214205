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

    /** Eight repetitions per target: sluice best and tidy, the others placed to get each verdict. */
    static Results withReps() {
        double[] sluice = {1.00, 0.99, 1.01, 1.00, 1.02, 0.98, 1.00, 1.01};
        return new Results(Results.SCHEMA, Results.VERSION, "2026-01-01T00:00:00Z", List.of("lab", "run"),
                new LinkedHashMap<>(Map.of("cores", "2")), 0, 8, "nio",
                List.of(run("sluice", "ok", null, sluice),
                        run("nio", "ok", null, times(sluice, 2)),
                        run("kernel", "ok", null, times(sluice, 1.005)),
                        run("jdk-piped", "ok", null, times(sluice, 1.5)),
                        run("okio", "ok", null, 0.85, 1.40, 0.95, 1.30, 0.90, 1.35, 1.05, 1.10),
                        run("perf", "n/a", "perf bench has no hackbench here", new double[0])));
    }

    static double[] times(double[] v, double factor) {
        return java.util.Arrays.stream(v).map(x -> x * factor).toArray();
    }

    @Test
    void medianTableGivesRatiosAgainstTheBaselineAndVerdictsAgainstTheBest() {
        String t = Tables.compare(withReps());
        assertThat(t).contains("hackbench: median ×better-by vs nio (above 1 is better) [95% bootstrap interval], "
                + "8 reps; * best median");
        List<String> lines = t.lines().toList();
        int heading = lines.indexOf(lines.stream().filter(l -> l.contains("median ×better-by")).findFirst().orElseThrow());
        assertThat(lines.get(heading - 1)).as("right under the mean table").startsWith("  - platform");
        List<String> table = lines.subList(heading + 1, heading + 3);
        assertThat(table.get(0)).startsWith("  case");
        String row = table.get(1);
        // half the baseline's time is twice as good; the baseline's own cell says what it is
        assertThat(row).contains("*1.000 ×2.000 [").contains("2.000 (baseline)").contains("n/a");
        assertThat(row.indexOf("(baseline)")).isLessThan(row.indexOf("*1.000"));
        assertThat(table.get(0).length()).as("aligned: %s", table).isEqualTo(row.length());

        String verdicts = lines.get(heading + 3);
        assertThat(verdicts).startsWith("  - platform, against the best (sluice): ");
        List<String> each = List.of(verdicts.substring(verdicts.indexOf(": ") + 2).split("; "));
        assertThat(each).hasSize(4);
        assertThat(each).anySatisfy(v -> assertThat(v).startsWith("nio ×0.500 [").endsWith("] resolvably behind"));
        assertThat(each).anySatisfy(v -> assertThat(v).startsWith("kernel ×0.995 [").endsWith("] within 3 %"));
        assertThat(each).anySatisfy(v -> assertThat(v).startsWith("jdk-piped ×0.667 [").endsWith("] resolvably behind"));
        assertThat(each).anySatisfy(v -> assertThat(v).startsWith("okio ").endsWith("] within noise"));
        assertThat(t).as("printed the same way twice").isEqualTo(Tables.compare(withReps()));
    }

    @Test
    void noMedianTableWithFewerThanFiveReps() {
        assertThat(Tables.compare(sample())).doesNotContain("median ×better-by").doesNotContain("against the best");
        assertThat(Html.render(sample())).doesNotContain("Medians:");
    }

    @Test
    void throughputBestIsTheHighestMedian() {
        // The same values read as higher-is-better: now the highest median (nio's) is best, and "better by"
        // still reads above 1 as better, so sluice with half of nio's figure is ×0.5.
        List<Run> runs = withReps().runs().stream().map(r -> new Run(r.workload(), r.caseLabel(), r.params(),
                r.target(), r.family(), r.targetSettings(), r.threads(), r.status(), r.reason(), r.metric(), r.unit(),
                false, r.note(), r.reps(), r.summary())).toList();
        List<Tables.MedianRow> m = Tables.medianRows(runs, Tables.columns(runs, "nio"), Tables.rows(runs), "nio");
        assertThat(m).hasSize(1);
        assertThat(m.get(0).best()).isEqualTo("nio");
        assertThat(m.get(0).vsBaseline().get("sluice").ratio()).isCloseTo(0.5, within(1e-9));
        assertThat(m.get(0).vsBest()).doesNotContainKey("nio").containsKeys("sluice", "kernel", "jdk-piped", "okio");
        assertThat(m.get(0).vsBest().get("sluice").verdict(Tables.TOLERANCE)).isEqualTo(Bootstrap.Verdict.BEHIND);
    }

    @Test
    void htmlHasTheMedianTableWithTheBestInBold() {
        String h = Html.render(withReps());
        assertThat(h).contains("Medians:").contains("<b>1.000</b> ×2.000 [").contains("2.000 (baseline)")
                .contains("resolvably behind").contains("within 3 %").contains("within noise");
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
