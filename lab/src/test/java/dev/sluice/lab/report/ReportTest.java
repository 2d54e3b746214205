package dev.sluice.lab.report;

import dev.sluice.lab.report.Results.Rep;
import dev.sluice.lab.report.Results.Run;
import dev.sluice.lab.report.Results.Summary;
import dev.sluice.lab.run.Runner;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

/** The analysis, the text and HTML formats and the JSON reader, on hand-made results. */
class ReportTest {

    static Rep rep(double seconds, long vcs) {
        return new Rep(seconds, 1000, 10, 0.1, 0.2, vcs, 1L, 4096L, Map.of("seconds", seconds,
                "MB/s", 1000 / seconds / 1e6), Map.of("readerWakeups", 3L, "writerWakeups", 2L));
    }

    static Run run(String workload, String target, String family, String status, String reason, double... seconds) {
        List<Rep> reps = new ArrayList<>();
        for (double s : seconds) {
            reps.add(rep(s, 100));
        }
        return new Run(workload, "-", Map.of("groups", 1L), target, family, Map.of(), "how " + target, "platform",
                status, reason, "seconds", "s", true, null, reps, Runner.summarize(reps));
    }

    static Run run(String target, String status, String reason, double... seconds) {
        return run("hackbench", target, target.startsWith("sluice") ? "sluice" : target, status, reason, seconds);
    }

    static Results results(int reps, List<Run> runs) {
        return new Results(Results.SCHEMA, Results.VERSION, "2026-01-01T00:00:00Z", List.of("lab", "compare"),
                new Results.Build("0.1.0-SNAPSHOT", "abc1234"), new Results.Jvm("OpenJDK", "Adoptium", "25",
                "/jdk", List.of("-Xmx1g")), new LinkedHashMap<>(Map.of("cores", "2", "loadavg", "0.1")), 1, reps,
                "nio", runs, List.of());
    }

    /** Two reps: no intervals. */
    static Results sample() {
        return results(2, List.of(run("sluice", "ok", null, 1.0, 1.0), run("nio", "ok", null, 2.0, 2.0),
                run("okio", "n/a", "writes are not atomic"), run("jdk-piped", "failed", "pipen: wrong byte")));
    }

    /** Eight repetitions per target: sluice best and tidy, the others placed to get each standing. */
    static Results withReps() {
        double[] sluice = {1.00, 0.99, 1.01, 1.00, 1.02, 0.98, 1.00, 1.01};
        return results(8, List.of(run("sluice", "ok", null, sluice),
                run("nio", "ok", null, times(sluice, 2)),
                run("kernel", "ok", null, times(sluice, 1.005)),
                run("jdk-piped", "ok", null, times(sluice, 1.5)),
                run("okio", "ok", null, 0.85, 1.40, 0.95, 1.30, 0.90, 1.35, 1.05, 1.10),
                run("perf", "n/a", "perf bench has no hackbench here"),
                run("pipen", "sluice", "sluice", "ok", null, times(sluice, 3)),
                run("pipen", "nio", "nio", "ok", null, times(sluice, 1))));
    }

    static double[] times(double[] v, double factor) {
        return java.util.Arrays.stream(v).map(x -> x * factor).toArray();
    }

    @Test
    void analysisFindsTheBestTheRatiosAndTheStandings() {
        Analysis a = Analysis.of(withReps());
        Analysis.WorkloadView hb = a.workloads().get(0);
        assertThat(hb.workload()).isEqualTo("hackbench");
        Analysis.CaseView c = hb.cases().get(0);
        assertThat(c.best()).isEqualTo("sluice");
        assertThat(c.rows().get(0).target()).as("baseline first").isEqualTo("nio");
        Map<String, Analysis.Row> rows = new LinkedHashMap<>();
        c.rows().forEach(r -> rows.put(r.target(), r));
        assertThat(rows.get("sluice").vsBaseline().ratio()).isCloseTo(2.0, within(1e-9));
        assertThat(rows.get("sluice").standing()).isEqualTo(Analysis.Standing.BEST);
        assertThat(rows.get("kernel").standing()).isEqualTo(Analysis.Standing.WITHIN_NOISE);
        assertThat(rows.get("jdk-piped").standing()).isEqualTo(Analysis.Standing.BEHIND);
        assertThat(rows.get("jdk-piped").verdict()).isEqualTo("behind 33 %");
        assertThat(rows.get("okio").standing()).isEqualTo(Analysis.Standing.WITHIN_NOISE);
        assertThat(rows.get("perf").standing()).isEqualTo(Analysis.Standing.NONE);
        assertThat(rows.get("sluice").lo()).isLessThanOrEqualTo(rows.get("sluice").median());
        assertThat(rows.get("sluice").hi()).isGreaterThanOrEqualTo(rows.get("sluice").median());
        assertThat(rows.get("sluice").csPerRun()).isEqualTo(101.0);
        assertThat(hb.conclusion()).startsWith("hackbench: sluice best (×2.00 [")
                .contains("within noise of it: kernel, "
                + "okio");
        assertThat(a.summary()).isEqualTo("Summary: Sluice fastest on 1 of 2 (hackbench); resolvably behind on 1: "
                + "pipen (nio best, sluice behind 67 %).");
    }

    @Test
    void textFitsIn120ColumnsWithOneTablePerWorkloadAndASummary() {
        String t = new TextFormat(false).render(Analysis.of(withReps()));
        assertThat(t.lines()).allSatisfy(l -> assertThat(l.length()).as(l).isLessThanOrEqualTo(120));
        assertThat(t).contains("hackbench: time in s, lower is better; median of 8 reps, ×vs nio")
                .contains("pipen: time in s").contains("  → hackbench: sluice best").contains("Summary: Sluice "
                        + "fastest on 1 of 2").contains("build: sluice 0.1.0-SNAPSHOT (abc1234)");
        String sluiceRow = t.lines().filter(l -> l.trim().startsWith("sluice ")).findFirst().orElseThrow();
        assertThat(sluiceRow).contains("1.000 s").contains("×2.000 [").contains("best").endsWith("101");
        assertThat(t).contains("perf       n/a [1]").contains("[1] perf n/a: perf bench has no hackbench here");
        assertThat(t).as("no means, no doubled units").doesNotContain("(s)").doesNotContain("mean of");
        assertThat(t).as("printed the same way twice").isEqualTo(new TextFormat(false).render(Analysis.of(withReps())));
    }

    /** The shared-memory pipe is Sluice's too: a run of it against the kernel pipe between JVMs is summed up. */
    @Test
    void theSharedMemoryPipeCountsAsSluicesInTheSummary() {
        Results r = results(2, List.of(run("pingpong", "kernel-jvm", "kernel-jvm", "ok", null, 2.0, 2.0),
                run("pingpong", "shm", "shm", "ok", null, 1.0, 1.0)));
        String t = new TextFormat(false).render(Analysis.of(r));
        assertThat(t).doesNotContain("no Sluice target ran").contains("Summary: Sluice fastest on 1 of 1");
    }

    /**
     * The CPU distance measured before each repetition is shown once per workload (and per cell in the wide
     * layout), as the median and range over the repetitions that ran; results without it show no such line.
     */
    @Test
    void theCpuDistanceBeforeEachRunIsShownPerWorkload() {
        double[] ns = {150, 600, 140, 620};
        List<Rep> reps = new ArrayList<>();
        for (double d : ns) {
            reps.add(new Rep(1.0, 1000, 10, 0.1, 0.2, 100L, 1L, 4096L,
                    Map.of("seconds", 1.0, Results.CPU_DISTANCE, d), Map.of()));
        }
        Run measured = new Run("hackbench", "-", Map.of("groups", 1L), "sluice", "sluice", Map.of(), "how",
                "platform", "ok", null, "seconds", "s", true, null, reps, Runner.summarize(reps));
        Results r = results(4, List.of(measured, run("nio", "ok", null, 2.0, 2.0, 2.0, 2.0)));
        assertThat(new TextFormat(false).render(Analysis.of(r)))
                .contains("cpus: CPU distance before each run (a cache line's round trip between two threads): "
                        + "375 [140-620] ns");
        assertThat(new TextFormat(true).render(Analysis.of(r)))
                .contains("hackbench: CPU distance before each run, ns")
                .containsPattern("- platform +- +375 \\[140-620]");
        assertThat(new HtmlFormat().render(Analysis.of(r))).contains("<p class=\"small cpus\">CPU distance before"
                + " each run (a cache line's round trip between two threads): 375 [140-620] ns.</p>");
        assertThat(new TextFormat(false).render(Analysis.of(withReps()))).doesNotContain("CPU distance");
        assertThat(new HtmlFormat().render(Analysis.of(withReps()))).doesNotContain("CPU distance");
    }

    /**
     * Numbers in brackets are only for the reasons the table points to (n/a, failed); what a target that ran says
     * of its run is a plain note, and none that only repeats how the target was configured.
     */
    @Test
    void onlyTheReasonsTheTablePointsToAreNumbered() {
        Run sluice = run("sluice", "ok", null, 1, 1, 1, 1, 1);
        Run nio = run("nio", "ok", null, 2, 2, 2, 2, 2);
        Run perf = run("perf", "ok", null, 3, 3, 3, 3, 3);
        Run noted = new Run(nio.workload(), nio.caseLabel(), nio.params(), nio.target(), nio.family(),
                nio.targetSettings(), nio.how(), nio.threads(), nio.status(), nio.reason(), nio.metric(), nio.unit(),
                nio.lowerIsBetter(), "capacity fixed at 64 KiB", nio.reps(), nio.summary());
        Run howAgain = new Run(perf.workload(), perf.caseLabel(), perf.params(), perf.target(), perf.family(),
                perf.targetSettings(), perf.how(), perf.threads(), perf.status(), perf.reason(), perf.metric(),
                perf.unit(), perf.lowerIsBetter(), "how perf", perf.reps(), perf.summary());
        Analysis a = Analysis.of(results(5, List.of(sluice, noted, howAgain, run("okio", "n/a", "not atomic"))));
        assertThat(a.workloads().get(0).notes()).containsExactly("okio n/a: not atomic");
        assertThat(a.workloads().get(0).remarks()).containsExactly("nio: capacity fixed at 64 KiB");
        String t = new TextFormat(false).render(a);
        assertThat(t).containsPattern("okio +n/a \\[1]").contains("    [1] okio n/a: not atomic")
                .contains("    note nio: capacity fixed at 64 KiB").doesNotContain("[2]")
                .containsOnlyOnce("perf: how perf");
        assertThat(new HtmlFormat().render(a)).contains("<li>nio: capacity fixed at 64 KiB</li>");
    }

    @Test
    void wideKeepsTheOlderLayout() {
        String t = new TextFormat(true).render(Analysis.of(withReps()));
        assertThat(t).contains("value[pct imp vs nio](CV)").contains("median ×better-by vs nio");
    }

    @Test
    void fewerThanFiveRepsGiveNoIntervalAndSaySo() {
        Analysis a = Analysis.of(sample());
        String t = new TextFormat(false).render(a);
        assertThat(t).contains("×2.000 ").doesNotContain("×2.000 [");
        assertThat(a.summary()).contains("medians only, without intervals");
    }

    @Test
    void busyMachineIsWarnedAbout() {
        Results r = withReps();
        Map<String, String> busy = new LinkedHashMap<>(r.machine());
        busy.put("loadavg", "4.0");
        Results loaded = new Results(r.schema(), r.version(), r.created(), r.command(), r.sluice(), r.jvm(), busy,
                r.warmup(), r.reps(), r.baseline(), r.runs(), r.reproductions());
        assertThat(Analysis.of(loaded).busy()).contains("load average 4.0 on 2 cores");
        assertThat(Analysis.of(r).busy()).isNull();
        assertThat(new HtmlFormat().render(Analysis.of(loaded))).contains("id=\"load-warning\"");
    }

    @Test
    void htmlHasSummaryFirstWhiskersAxisAndTheOkabeItoPalette() {
        String h = new HtmlFormat().render(Analysis.of(withReps()));
        assertThat(h).startsWith("<!DOCTYPE html>").doesNotContain("<script").doesNotContain("src=")
                .doesNotContain("href=\"http");
        assertThat(h.indexOf("id=\"summary\"")).as("summary before the first workload")
                .isLessThan(h.indexOf("id=\"w-hackbench\""));
        assertThat(h).contains("<details open id=\"w-hackbench\">").contains("<details open id=\"w-pipen\">");
        // five ok targets in hackbench and two in pipen: one whisker each
        assertThat(h.split("<line class=\"whisker\"", -1)).hasSize(1 + 5 + 2);
        assertThat(h).contains("class=\"axis\"").contains("<text class=\"unit\"");
        assertThat(h).contains("fill=\"" + HtmlFormat.BASELINE + "\"").contains("fill=\"" + HtmlFormat.PALETTE[0]
                + "\"").doesNotContain("#d62728");
        assertThat(h).contains("Machine and build").contains("abc1234").contains("-Xmx1g");
        assertThat(h).as("the unit said once").contains("time in s, lower is better").doesNotContain("seconds in s")
                .contains("baseline <b>nio</b>");
        Results r = withReps();
        Results noBaseline = new Results(r.schema(), r.version(), r.created(), r.command(), r.sluice(), r.jvm(),
                r.machine(), r.warmup(), r.reps(), null, r.runs(), r.reproductions());
        assertThat(new HtmlFormat().render(Analysis.of(noBaseline))).doesNotContain("baseline <b>");
        assertThat(h).contains("how sluice");
    }

    @Test
    void niceStepsAreRound() {
        assertThat(Bars.niceStep(2623)).isEqualTo(500.0);
        assertThat(Bars.niceStep(1.0)).isCloseTo(0.2, within(1e-12));
        assertThat(Bars.niceStep(73)).isEqualTo(10.0);
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
    void jsonRoundTrips() throws Exception {
        Results r = withReps();
        String json = new JsonFormat().render(Analysis.of(r));
        assertThat(Results.fromJson(json, "r.json")).isEqualTo(r);
        assertThat(json).contains("\"schema\" : \"sluice-lab-results\"").contains("\"version\" : 1")
                .contains("\"commit\" : \"abc1234\"").contains("\"args\" : [ \"-Xmx1g\" ]");
    }

    @Test
    void readerRefusesOtherSchemasVersionsAndMissingFieldsByName() {
        assertThatThrownBy(() -> Results.fromJson("{\"schema\":\"x\",\"version\":1}", "f"))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("not a sluice-lab-results file");
        assertThatThrownBy(() -> Results.fromJson("{\"schema\":\"sluice-lab-results\",\"version\":2}", "f"))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("version 2");
        assertThatThrownBy(() -> Results.fromJson("not json", "f")).isInstanceOf(IllegalArgumentException.class);
        String noMetric = "{\"schema\":\"sluice-lab-results\",\"version\":1,\"command\":[],\"machine\":{},"
                + "\"runs\":[{\"workload\":\"pipen\",\"caseLabel\":\"-\",\"params\":{},\"target\":\"sluice\","
                + "\"family\":\"sluice\",\"threads\":\"platform\",\"status\":\"ok\",\"unit\":\"MB/s\",\"reps\":[],"
                + "\"summary\":{}}]}";
        assertThatThrownBy(() -> Results.fromJson(noMetric, "f")).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("f: field 'runs[0].metric' is missing; the report needs it");
    }
}
