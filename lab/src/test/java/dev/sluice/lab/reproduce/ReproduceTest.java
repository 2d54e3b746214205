package dev.sluice.lab.reproduce;

import dev.sluice.lab.LabCliTest;
import dev.sluice.lab.report.Results;
import dev.sluice.lab.report.Results.Rep;
import dev.sluice.lab.report.Results.Run;
import dev.sluice.lab.run.Runner;
import dev.sluice.lab.workload.Param;
import dev.sluice.lab.workload.Workload;
import dev.sluice.lab.workload.Workloads;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/** The seven experiments, the verdicts, the findings from runs, and one real (small) reproduce run. */
class ReproduceTest {

    @Test
    void verdictsFollowTheIntervalAndTheClaimsDirection() {
        assertThat(Verdict.of(1.25, 1.3, 1.1, 1.5)).isEqualTo(Verdict.REPRODUCED);
        assertThat(Verdict.of(1.25, 1.1, 0.9, 1.3)).isEqualTo(Verdict.SAME_DIRECTION);
        assertThat(Verdict.of(1.25, 0.95, 0.8, 1.1)).isEqualTo(Verdict.NOT_REPRODUCED);
        assertThat(Verdict.of(1.25, 0.7, 0.6, 0.8)).isEqualTo(Verdict.OPPOSITE);
        // a claimed loss (hackbench -7.5 %): a resolved loss reproduces it, a resolved gain is the opposite
        assertThat(Verdict.of(0.925, 0.8, 0.7, 0.9)).isEqualTo(Verdict.REPRODUCED);
        assertThat(Verdict.of(0.925, 0.95, 0.85, 1.05)).isEqualTo(Verdict.SAME_DIRECTION);
        assertThat(Verdict.of(0.925, 1.2, 1.1, 1.3)).isEqualTo(Verdict.OPPOSITE);
        assertThat(Verdict.of(0.925, Double.NaN, Double.NaN, Double.NaN)).isEqualTo(Verdict.NONE);
    }

    @Test
    void theSevenExperimentsToggleOneOptionOnAWorkloadWithValidParameters() {
        List<Experiment> all = Experiments.all();
        assertThat(all).extracting(Experiment::number).containsExactly(1, 2, 3, 4, 5, 6, 7);
        for (Experiment e : all) {
            assertThat(e.before()).as(e.title()).isNotEqualTo(e.after());
            assertThat(e.before().id()).isNotEqualTo(e.after().id());
            Workload w = Workloads.byName(e.workload());
            for (Map<String, List<Long>> sizes : List.of(e.quick(), e.full())) {
                sizes.forEach((name, values) -> {
                    Param p = w.params().stream().filter(x -> x.name().equals(name)).findFirst().orElseThrow();
                    values.forEach(p::check);
                });
            }
            assertThat(e.claim()).isNotBlank();
            assertThat(e.source()).isNotBlank();
            assertThat(e.original()).isNotBlank();
            assertThat(e.kernel().get()).startsWith("no knob");
        }
        // the pool experiment varies poolPages down to 0 at pipen's 8, 16 and 32 KiB writes
        Experiment pool = all.get(6);
        assertThat(pool.before().poolPages()).isZero();
        assertThat(pool.quick().get("size")).containsExactly(8192L, 16384L, 32768L);
        assertThat(Reproducer.plan(all, true)).hasSize(2 * (6 + 3));
    }

    static Run run(String label, String target, String metric, boolean lower, double... values) {
        List<Rep> reps = new ArrayList<>();
        for (double v : values) {
            reps.add(new Rep(1, 1, 1, 0.0, 0.0, 10L, 1L, 0L, Map.of(metric, v), Map.of("pagesAllocated", 5L)));
        }
        return new Run("pipen", label, Map.of(), target, "sluice", Map.of(), "", "platform", "ok", null, metric,
                "MB/s", lower, null, reps, Runner.summarize(reps));
    }

    @Test
    void severalSizesArePooledIntoOneVerdict() {
        Experiment pool = Experiments.all().get(6);
        String before = pool.before().id();
        String after = pool.after().id();
        List<Run> runs = new ArrayList<>();
        for (String size : List.of("size=8192", "size=16384", "size=32768")) {
            runs.add(run("exp 7 " + size, before, "MB/s", false, 100, 101, 99, 100, 102));
            runs.add(run("exp 7 " + size, after, "MB/s", false, 111, 112, 110, 111, 113));
        }
        Finding f = Reproducer.findings(List.of(pool), runs, Map.of("cores", "2")).get(0);
        assertThat(f.ratio()).isBetween(1.10, 1.12);
        assertThat(f.lo()).isGreaterThan(1.0);
        assertThat(f.verdict()).isEqualTo("reproduced");
        assertThat(f.ours()).startsWith("MB/s over 3 sizes (geometric mean): ×1.1").contains("the original: ×1.112");
        assertThat(f.details()).anySatisfy(d -> assertThat(d)
                .startsWith("size=8192: MB/s 100.00 → 111.00 MB/s (×1.110 ["));
        assertThat(f.why()).contains("2 cores").contains("threads in one JVM");
    }

    @Test
    void aSideThatDidNotRunGivesNoVerdict() {
        Experiment e = Experiments.all().get(4);
        Run ok = run("exp 5", e.after().id(), "seconds", true, 1, 1, 1, 1, 1);
        Run failed = new Run("nonblock", "exp 5", Map.of(), e.before().id(), "sluice", Map.of(), "", "platform",
                "failed", "nonblock: wrong byte", "seconds", "s", true, null, List.of(), Map.of());
        Finding f = Reproducer.findings(List.of(e), List.of(failed, ok), Map.of()).get(0);
        assertThat(f.verdict()).isEqualTo("n/a");
        assertThat(f.why()).contains("wrong byte");
    }

    @Test
    void reproducePrintsEachPartOfAFindingAndTheReportHasItsSection(@TempDir Path dir) throws Exception {
        Path html = dir.resolve("r.html");
        Path json = dir.resolve("r.json");
        LabCliTest.Outcome o = LabCliTest.lab("reproduce", "--quick", "--experiment", "5", "--warmup", "0",
                "--quiet", "--html", html.toString(), "--json", json.toString());
        assertThat(o.code()).as(o.err()).isZero();
        assertThat(o.out()).contains("5. no timestamps on anonymous pipes — ").contains("   claim ", "   source ",
                "   original ", "   knob        --timestamps on → off", "   kernel ", "   ours        seconds ",
                "   verdict ");
        assertThat(o.out().lines()).allSatisfy(l -> assertThat(l.length()).isLessThanOrEqualTo(120));
        assertThat(o.out()).containsPattern("(Reproduced|Same direction, within noise|Not reproduced|Opposite) 1 of 1");
        assertThat(Files.readString(html)).contains("id=\"reproduction\"").contains("no timestamps on anonymous pipes");
        Results r = Results.read(json);
        assertThat(r.reproductions()).hasSize(1);
        assertThat(r.runs()).hasSize(2).allMatch(Run::ok);
        assertThat(r.runs().get(0).reps()).hasSize(5);
    }
}
