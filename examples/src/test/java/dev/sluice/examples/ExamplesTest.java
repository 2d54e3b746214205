package dev.sluice.examples;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.IntStream;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** The demo and the README example work end to end, and the demo's command line refuses bad options cleanly. */
@Timeout(60)
class ExamplesTest {

    @Test
    void readmeExampleDeliversEveryLineInOrder() throws Exception {
        List<String> expected = IntStream.range(0, 5000).mapToObj(i -> "line " + i).toList();
        assertThat(ReadmeExample.lines(5000)).isEqualTo(expected);
    }

    @Test
    void demoRunMovesVerifiedBytesWithOneWriter() throws Exception {
        var r = PumpDemo.run(new PumpDemo.Config(4000, 1, true, 0.2, 8192, true));
        assertThat(r.bytes()).isPositive().isEqualTo(r.counters().bytesRead()).isEqualTo(r.counters().bytesWritten());
        assertThat(r.bytes() % 4000).isZero();
    }

    @Test
    void demoRunWithManyPlatformWritersLosesNothing() throws Exception {
        var r = PumpDemo.run(new PumpDemo.Config(100, 4, false, 0.2, 4096, false));
        assertThat(r.bytes()).isPositive().isEqualTo(r.counters().bytesWritten());
        assertThat(r.bytes() % 100).isZero();
    }

    @Test
    void defaultTourCoversSizesAndThreadKinds() {
        var runs = PumpDemo.parse();
        assertThat(runs).extracting(PumpDemo.Config::writeSize).contains(65536, 4096, 100);
        assertThat(runs).extracting(PumpDemo.Config::virtual).contains(true, false);
    }

    @Test
    void optionsAreParsedWithOrWithoutAnEqualsSign() {
        var runs = PumpDemo.parse("--write-size=512", "--writers", "3", "--threads", "platform", "--seconds", "1",
                "--capacity=1m", "--verify");
        assertThat(runs).singleElement().satisfies(c -> {
            assertThat(c.writeSize()).isEqualTo(512);
            assertThat(c.writers()).isEqualTo(3);
            assertThat(c.virtual()).isFalse();
            assertThat(c.seconds()).isEqualTo(1.0);
            assertThat(c.capacity()).isEqualTo(1 << 20);
            assertThat(c.verify()).isTrue();
        });
        assertThat(PumpDemo.parse("--threads=VIRTUAL", "--write-size", "64k")).singleElement()
                .satisfies(c -> assertThat(c.virtual()).isTrue())
                .satisfies(c -> assertThat(c.writeSize()).isEqualTo(65536));
    }

    /** Each bad command line: the option it must name. */
    static Stream<Arguments> badCommandLines() {
        return Stream.of(
                Arguments.of(List.of("--bogus"), "--bogus"),
                Arguments.of(List.of("stray"), "stray"),
                Arguments.of(List.of("--seconds"), "--seconds"),
                Arguments.of(List.of("--seconds", "0"), "--seconds"),
                Arguments.of(List.of("--seconds", "-1"), "--seconds"),
                Arguments.of(List.of("--seconds=NaN"), "--seconds"),
                Arguments.of(List.of("--seconds=3601"), "--seconds"),
                Arguments.of(List.of("--seconds", "soon"), "--seconds"),
                Arguments.of(List.of("--writers=0"), "--writers"),
                Arguments.of(List.of("--writers=257"), "--writers"),
                Arguments.of(List.of("--writers=many"), "--writers"),
                Arguments.of(List.of("--writers=99999999999"), "--writers"),
                Arguments.of(List.of("--write-size=0"), "--write-size"),
                Arguments.of(List.of("--write-size=17m"), "--write-size"),
                Arguments.of(List.of("--write-size=4q"), "--write-size"),
                Arguments.of(List.of("--write-size="), "--write-size"),
                Arguments.of(List.of("--capacity=0"), "--capacity"),
                Arguments.of(List.of("--capacity=9999999999m"), "--capacity"),
                Arguments.of(List.of("--threads=green"), "--threads"),
                Arguments.of(List.of("--threads"), "--threads"));
    }

    @ParameterizedTest
    @MethodSource("badCommandLines")
    void aBadOptionIsOneLineAndExitCodeTwoBeforeAnythingRuns(List<String> args, String named) {
        var out = new StringWriter();
        var err = new StringWriter();
        int code = PumpDemo.execute(args.toArray(String[]::new), new PrintWriter(out, true),
                new PrintWriter(err, true));
        assertThat(code).as("exit code").isEqualTo(2);
        assertThat(out.toString()).as("stdout").isEmpty();
        assertThat(err.toString().lines()).as("stderr").singleElement().asString()
                .startsWith("demo: ").contains(named).contains("--help")
                .doesNotContain("Exception").doesNotContain("\tat ");
    }

    @Test
    void helpListsEveryOptionAndExitsZero() {
        var out = new StringWriter();
        var err = new StringWriter();
        assertThat(PumpDemo.execute(new String[] {"--help"}, new PrintWriter(out, true), new PrintWriter(err, true)))
                .isZero();
        assertThat(err.toString()).isEmpty();
        assertThat(out.toString()).startsWith("Usage: ./sluice demo")
                .contains("--write-size", "--writers", "--threads", "--seconds", "--capacity", "--verify", "--help");
        assertThat(out.toString().lines()).allSatisfy(line -> assertThat(line.length()).isLessThanOrEqualTo(120));
    }

    @Test
    void theDemoProcessExitsTwoWithOneLineAndNoStackTrace() throws Exception {
        for (String[] args : new String[][] {{"--bogus"}, {"--seconds", "0"}}) {
            String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
            List<String> command = new ArrayList<>(List.of(java, "-cp", System.getProperty("java.class.path"),
                    PumpDemo.class.getName()));
            command.addAll(List.of(args));
            Process p = new ProcessBuilder(command).start();
            p.getOutputStream().close();
            String stdout = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            String stderr = new String(p.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
            assertThat(p.waitFor()).as("exit code of %s", List.of(args)).isEqualTo(2);
            assertThat(stdout).isEmpty();
            assertThat(stderr.lines()).singleElement().asString().startsWith("demo: ").contains(args[0])
                    .doesNotContain("Exception");
        }
    }

    @Test
    void aShortRunThroughTheCommandLinePrintsItsTable() {
        var out = new StringWriter();
        var err = new StringWriter();
        int code = PumpDemo.execute(new String[] {"--seconds", "0.1", "--writers", "2", "--write-size", "4k",
            "--threads", "virtual", "--verify"}, new PrintWriter(out, true), new PrintWriter(err, true));
        assertThat(code).as("exit code, stderr: %s", err).isZero();
        assertThat(out.toString())
                .contains("4 KiB", "virtual", "Counters of the last run:", "bytes read == bytes written");
    }
}
