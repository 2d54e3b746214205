package dev.sluice;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.sluice.PipeOptions.SystemDefaults;
import dev.sluice.policy.LockStrategy;
import dev.sluice.policy.WakePolicy;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * JVM-wide defaults from {@code sluice.*} properties: a bad one fails once, clearly, naming the property and
 * the accepted values, and does not take every later {@code Pipe.open} of the JVM down with it; a duration
 * that overflows is refused, not wrapped.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class SystemDefaultsTest {

    private static SystemDefaults of(String... keyValues) {
        Properties p = new Properties();
        for (int i = 0; i < keyValues.length; i += 2) {
            p.setProperty(keyValues[i], keyValues[i + 1]);
        }
        return new SystemDefaults(p);
    }

    @Test
    void goodPropertiesSetTheDefaults() {
        SystemDefaults d = of("sluice.wakePolicy", "half-empty", "sluice.lockStrategy", "SPIN",
                "sluice.spinBeforePark", "500ns");
        d.reportOnce();
        assertThat(d.wakePolicy).isEqualTo(WakePolicy.HALF_EMPTY);
        assertThat(d.lockStrategy).isEqualTo(LockStrategy.SPIN);
        assertThat(d.spinBeforeParkNanos).isEqualTo(500);
    }

    @Test
    void aBadPropertyIsReportedOnceAndTheBuiltInDefaultStandsIn() {
        SystemDefaults d = of("sluice.wakePolicy", "sometimes", "sluice.lockStrategy", "spin");
        assertThatThrownBy(d::reportOnce).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("sluice.wakePolicy=sometimes").hasMessageContaining("full-and-freed")
                .hasMessageContaining("half-empty");
        d.reportOnce(); // once only
        assertThat(d.wakePolicy).isEqualTo(PipeOptions.DEFAULT_WAKE_POLICY);
        assertThat(d.lockStrategy).as("the good one still counts").isEqualTo(LockStrategy.SPIN);
    }

    @Test
    void durationsThatOverflowAreRefused() {
        assertThatThrownBy(() -> SystemDefaults.parseSpin("18446744073710ms"))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("sluice.spinBeforePark");
        assertThatThrownBy(() -> SystemDefaults.parseSpin("9223372036854775807us"))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> SystemDefaults.parseSpin("-1ns")).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> SystemDefaults.parseSpin("fast")).isInstanceOf(IllegalArgumentException.class);
        assertThat(SystemDefaults.parseSpin(" 1MS ")).isEqualTo(1_000_000);
        SystemDefaults d = of("sluice.spinBeforePark", "18446744073710ms");
        assertThatThrownBy(d::reportOnce).hasMessageContaining("18446744073710ms");
        assertThat(d.spinBeforeParkNanos).isEqualTo(PipeOptions.DEFAULT_SPIN_BEFORE_PARK.toNanos());
    }

    /** The whole story in a JVM of its own: the first open fails clearly, the next ones work. */
    @Test
    void aJvmWithABadPropertyFailsItsFirstOpenOnly() throws Exception {
        Path java = Path.of(System.getProperty("java.home"), "bin", "java");
        Process child = new ProcessBuilder(java.toString(), "-cp", System.getProperty("java.class.path"),
                "-Dsluice.waitDiscipline=herd", BadPropertyChild.class.getName())
                .redirectErrorStream(true).start();
        String out = new String(child.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(child.waitFor(30, TimeUnit.SECONDS)).isTrue();
        assertThat(out.lines().toList()).as(out).containsExactly(
                "first: IllegalArgumentException sluice.waitDiscipline=herd",
                "second: opened with coalescing",
                "third: opened with coalescing");
        assertThat(child.exitValue()).isZero();
    }

    /** Runs in the child JVM. */
    public static final class BadPropertyChild {
        public static void main(String[] args) throws IOException {
            for (String attempt : List.of("first", "second", "third")) {
                try {
                    Pipe p = Pipe.open();
                    System.out.println(attempt + ": opened with " + p.options().waitDiscipline());
                } catch (IllegalArgumentException e) {
                    String m = e.getMessage();
                    System.out.println(attempt + ": IllegalArgumentException " + m.substring(0, m.indexOf(' ')));
                }
            }
        }
    }
}
