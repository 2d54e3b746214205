package dev.sluice.examples;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** The demo and the README example work end to end. */
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
        var runs = PumpDemo.parse(new String[0], System.out);
        assertThat(runs).extracting(PumpDemo.Config::writeSize).contains(65536, 4096, 100);
        assertThat(runs).extracting(PumpDemo.Config::virtual).contains(true, false);
    }

    @Test
    void optionsAreParsedAndBadOnesRejected() {
        var runs = PumpDemo.parse(new String[] {"--write-size=512", "--writers=3", "--threads=platform"}, System.out);
        assertThat(runs).singleElement().satisfies(c -> {
            assertThat(c.writeSize()).isEqualTo(512);
            assertThat(c.writers()).isEqualTo(3);
            assertThat(c.virtual()).isFalse();
        });
        assertThatThrownBy(() -> PumpDemo.parse(new String[] {"--writers=0"}, System.out))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("--writers");
        assertThatThrownBy(() -> PumpDemo.parse(new String[] {"--bogus"}, System.out))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("unknown option");
        var help = new ByteArrayOutputStream();
        assertThat(PumpDemo.parse(new String[] {"--help"}, new PrintStream(help, true, StandardCharsets.UTF_8)))
                .isNull();
        assertThat(help.toString(StandardCharsets.UTF_8)).contains("usage:");
    }
}
