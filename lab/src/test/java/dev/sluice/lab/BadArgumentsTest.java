package dev.sluice.lab;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Every bad argument exits 2 with one line naming the option and what it accepts, before anything runs: no
 * table on stdout, no progress, no stack trace. The workloads are the full-sized ones, so a case that did
 * start running would take far longer than this test does.
 */
class BadArgumentsTest {

    static Stream<Arguments> bad() {
        return Stream.of(
                // issue 16's list
                Arguments.of(new String[] {"run", "pipen", "--bytes", "17179869185g"}, "--bytes: '17179869185g' is too "
                        + "large"),
                Arguments.of(new String[] {"run", "pipen", "--size", "0"}, "--size: must be 1..1m bytes"),
                Arguments.of(new String[] {"run", "pipen", "--size", "4096,2m"}, "--size: must be 1..1m bytes (k/m/g "
                        + "allowed), got 2m"),
                Arguments.of(new String[] {"run", "pipebench", "--pipe-size", "4m"}, "--pipe-size: must be 1..1m"),
                Arguments.of(new String[] {"run", "nonblock", "--size", "1m"}, "--size: must be 1..68k"),
                Arguments.of(new String[] {"run", "pipen", "--target", ""}, "--target: needs at least one of"),
                Arguments.of(new String[] {"run", "pipen", "--json", "/dev/null/r.json"}, "--json: cannot"),
                Arguments.of(new String[] {"run", "pipen", "--html", "/proc/version/r.html"}, "--html: cannot"),
                Arguments.of(new String[] {"run", "pipen", "--jfr", "/dev/null/r.jfr"}, "--jfr: cannot"),
                Arguments.of(new String[] {"run", "pipen", "--jmh-json", "/dev/null/j.json"}, "--jmh-json: cannot"),
                // the rest of the options
                Arguments.of(new String[] {"run", "pipen", "--bytes", "1k", "--size", "4k"}, "--bytes must be at least "
                        + "--size"),
                Arguments.of(new String[] {"run", "pipen", "--bytes", "-5"}, "--bytes: must not be negative"),
                Arguments.of(new String[] {"run", "hackbench", "--groups", "two"}, "--groups: needs a number"),
                Arguments.of(new String[] {"run", "hackbench", "--grops", "2"}, "unknown option --grops for hackbench"),
                Arguments.of(new String[] {"run", "nosuch"}, "unknown workload 'nosuch'"),
                Arguments.of(new String[] {"run", ","}, "WORKLOAD: ',' has an empty element"),
                Arguments.of(new String[] {"run", "pipen", "--target", "pipe9"}, "--target: unknown target 'pipe9'"),
                Arguments.of(new String[] {"run", "pipen", "--policy", "sometimes"}, "--policy=sometimes names no "
                        + "wake policy; choose one of [always, half-empty"),
                Arguments.of(new String[] {"run", "pipen", "--reader-wake", "x"},
                        "--reader-wake=x names no reader wake policy"),
                Arguments.of(new String[] {"run", "pipen", "--wait", "x"}, "--wait=x names no wait discipline"),
                Arguments.of(new String[] {"run", "pipen", "--lock", "x"}, "--lock=x names no lock strategy"),
                Arguments.of(new String[] {"run", "pipen", "--page-memory", "x"},
                        "--page-memory=x names no page memory"),
                Arguments.of(new String[] {"run", "pipen", "--pool-pages", "-2"}, "--pool-pages: must be -1"),
                Arguments.of(new String[] {"run", "pipen", "--capacity", "2g"}, "--capacity: must be 0"),
                Arguments.of(new String[] {"run", "pipen", "--timestamps", "maybe"}, "--timestamps: must be on or off"),
                Arguments.of(new String[] {"run", "pipen", "--spin", "5ms"}, "--spin: unknown value"),
                Arguments.of(new String[] {"run", "pipen", "--spin", "2000us"}, "--spin: 2000us is out of range"),
                Arguments.of(new String[] {"run", "pipen", "--threads", "green"}, "--threads: must be platform, "
                        + "virtual or both"),
                Arguments.of(new String[] {"run", "pipen", "--reps", "0"}, "--reps: must be 1..1000, got 0"),
                Arguments.of(new String[] {"run", "pipen", "--reps", "many"}, "--reps"),
                Arguments.of(new String[] {"run", "pipen", "--warmup", "-1"}, "--warmup: must be 0..100"),
                Arguments.of(new String[] {"compare", "--baseline", "nope"}, "--baseline: 'nope' is neither"),
                Arguments.of(new String[] {"compare", "--workload", "nosuch"}, "unknown workload 'nosuch'"),
                Arguments.of(new String[] {"reproduce", "--experiment", "8"}, "--experiment: must be 1..7"),
                Arguments.of(new String[] {"reproduce", "--reps", "3"}, "--reps: must be 5..1000"),
                Arguments.of(new String[] {"report", "/nonexistent/r.json"}, "no such results file"),
                Arguments.of(new String[] {"frobnicate"}, "Unmatched argument"),
                // An empty element of a list (a trailing, leading or doubled comma) names the option. Each line also
                // carries an error the lab finds later (--reps, --target pipe9), so that a lab that let the empty
                // element through fails at once on that instead of running.
                Arguments.of(new String[] {"run", "pipen", "--size", "4096,", "--target", "pipe9"},
                        "--size: '4096,' has an empty element"),
                Arguments.of(new String[] {"run", "pipen", "--size=4096,,8k", "--target", "pipe9"},
                        "--size: '4096,,8k' has an empty element"),
                Arguments.of(new String[] {"run", "pipen,", "--reps", "0"}, "WORKLOAD: 'pipen,' has an empty element"),
                Arguments.of(new String[] {"run", "pipen", "--target", "sluice,", "--reps", "0"},
                        "--target: 'sluice,' has an empty element"),
                Arguments.of(new String[] {"run", "pipen", "--policy=,always", "--reps", "0"},
                        "--policy: ',always' has an empty element"),
                Arguments.of(new String[] {"run", "pipen", "--threads", "platform, ,virtual", "--reps", "0"},
                        "--threads: 'platform, ,virtual' has an empty element"),
                Arguments.of(new String[] {"run", "pipen", "--capacity", "64k,", "--reps", "0"},
                        "--capacity: '64k,' has an empty element"),
                Arguments.of(new String[] {"compare", "--workload", "pipen,", "--reps", "0"},
                        "--workload: 'pipen,' has an empty element"),
                Arguments.of(new String[] {"reproduce", "--experiment", "1,", "--reps", "3"},
                        "--experiment: '1,' has an empty element"),
                // A device that refuses every write is found before the runs, not after them.
                Arguments.of(new String[] {"run", "pipen", "--html", "/dev/full", "--target", "pipe9"},
                        "--html: cannot write /dev/full"),
                Arguments.of(new String[] {"run", "pipen", "--json", "/dev/full", "--target", "pipe9"},
                        "--json: cannot write /dev/full"),
                Arguments.of(new String[] {"compare", "--jfr", "/dev/full", "--baseline", "nope"},
                        "--jfr: cannot write /dev/full"),
                Arguments.of(new String[] {"report", "/nonexistent/r.json", "--jmh-json", "/dev/full"},
                        "--jmh-json: cannot write /dev/full"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("bad")
    void exitsTwoWithOneLineBeforeAnythingRuns(String[] args, String message) {
        LabCliTest.Outcome o = LabCliTest.lab(args);
        assertThat(o.code()).as(o.err()).isEqualTo(Lab.USAGE);
        assertThat(o.out()).as("nothing ran, nothing printed").isEmpty();
        assertThat(o.err().lines()).as(o.err()).hasSize(1);
        assertThat(o.err()).startsWith("lab: ").contains(message).doesNotContain("\tat ").doesNotContain("Exception");
    }

    @Test
    void aResultsFileWithAMissingFieldIsNamedNotAStackTrace(@TempDir Path dir) throws Exception {
        Path f = dir.resolve("r.json");
        Files.writeString(f, "{\"schema\":\"sluice-lab-results\",\"version\":1,\"command\":[],\"machine\":{},"
                + "\"runs\":[{\"workload\":\"pipen\",\"caseLabel\":\"-\",\"target\":\"sluice\"}]}");
        LabCliTest.Outcome o = LabCliTest.lab("report", f.toString());
        assertThat(o.code()).isEqualTo(Lab.USAGE);
        assertThat(o.err().lines()).hasSize(1);
        assertThat(o.err()).contains("field 'runs[0].params' is missing");
        assertThat(o.out()).isEmpty();
    }

    @Test
    void anUnwritableReportLeavesNoFileAndRunsNothing(@TempDir Path dir) throws Exception {
        Path blocker = dir.resolve("a-file");
        Files.writeString(blocker, "x");
        LabCliTest.Outcome o = LabCliTest.lab("compare", "--json", blocker.resolve("r.json").toString());
        assertThat(o.code()).isEqualTo(Lab.USAGE);
        assertThat(o.err()).contains("--json: cannot");
        assertThat(o.out()).isEmpty();
    }
}
