package dev.sluice;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.sluice.ConformanceSupport.Running;
import dev.sluice.ConformanceSupport.ThreadKind;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import jdk.jfr.Recording;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordingFile;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The engine's Flight Recorder events, recorded with {@code jdk.jfr} and read back: a wait (with its side,
 * operation and outcome), the wake-up that ended it, a capacity change and a broken pipe. All are off unless
 * a recording enables them.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class FlightRecorderEventsTest {

    @Test
    void waitsWakeUpsResizesAndBrokenPipesAreRecorded(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("sluice.jfr");
        try (Recording r = new Recording()) {
            r.enable("dev.sluice.PipeWait").withThreshold(Duration.ZERO);
            r.enable("dev.sluice.PipeWakeup");
            r.enable("dev.sluice.PipeCapacityChange");
            r.enable("dev.sluice.PipeBroken");
            r.start();
            Pipe p = Pipe.open(PipeOptions.builder().spinBeforePark(Duration.ZERO).build());
            Running<byte[]> reader = ConformanceSupport.start(ThreadKind.PLATFORM,
                    () -> ConformanceSupport.readFully(p.reader(), 3));
            ConformanceSupport.awaitBlockedReading(reader.thread(), p, 1);
            p.writer().write(new byte[] {1, 2, 3});
            assertThat(reader.join()).containsExactly(1, 2, 3);
            p.setCapacity(8192);
            p.reader().close();
            assertThatThrownBy(() -> p.writer().write(new byte[1])).isInstanceOf(BrokenPipeException.class);
            r.stop();
            r.dump(file);
        }
        List<RecordedEvent> events = RecordingFile.readAllEvents(file);
        RecordedEvent wait = only(events, "dev.sluice.PipeWait");
        assertThat(wait.getString("side")).isEqualTo("reader");
        assertThat(wait.getString("operation")).isEqualTo("read");
        assertThat(wait.getString("outcome")).isEqualTo("woken");
        assertThat(wait.getDuration().toNanos()).isPositive();
        long pipe = wait.getLong("pipe");
        assertThat(events).filteredOn(e -> e.getEventType().getName().equals("dev.sluice.PipeWakeup"))
                .anyMatch(e -> e.getLong("pipe") == pipe && e.getString("side").equals("reader")
                        && e.getInt("threads") == 1 && !e.getBoolean("foundNothing"));
        RecordedEvent resize = only(events, "dev.sluice.PipeCapacityChange");
        assertThat(resize.getInt("fromBytes")).isEqualTo(65536);
        assertThat(resize.getInt("toBytes")).isEqualTo(8192);
        RecordedEvent broken = only(events, "dev.sluice.PipeBroken");
        assertThat(broken.getString("operation")).isEqualTo("write");
        assertThat(broken.getLong("pipe")).isEqualTo(pipe);
    }

    /**
     * How a wait ended when nobody woke it: its own handle closed by another thread, an interrupt, a deadline.
     * Each outcome is named; a close is not reported as an ordinary wake-up.
     */
    @Test
    void waitsEndedByCloseInterruptAndTimeoutSaySo(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("endings.jfr");
        try (Recording r = new Recording()) {
            r.enable("dev.sluice.PipeWait").withThreshold(Duration.ZERO);
            r.start();
            PipeOptions noSpin = PipeOptions.builder().spinBeforePark(Duration.ZERO).build();
            Pipe closing = Pipe.open(noSpin);
            Running<Integer> closed = ConformanceSupport.start(ThreadKind.PLATFORM,
                    () -> closing.reader().read(new byte[1]));
            ConformanceSupport.awaitBlockedReading(closed.thread(), closing, 1);
            closing.reader().close();
            assertThat(closed.failure()).isInstanceOf(java.nio.channels.AsynchronousCloseException.class);

            Pipe interrupting = Pipe.open(noSpin);
            Running<Integer> interrupted = ConformanceSupport.start(ThreadKind.VIRTUAL,
                    () -> interrupting.reader().read(new byte[1]));
            ConformanceSupport.awaitBlockedReading(interrupted.thread(), interrupting, 1);
            interrupted.thread().interrupt();
            assertThat(interrupted.failure()).isInstanceOf(PipeInterruptedException.class);

            Pipe timing = Pipe.open(noSpin);
            timing.reader().setTimeout(Duration.ofMillis(100)); // long enough to be sure it waits
            assertThatThrownBy(() -> timing.reader().read(new byte[1])).isInstanceOf(PipeTimeoutException.class);
            r.stop();
            r.dump(file);
        }
        List<RecordedEvent> waits = RecordingFile.readAllEvents(file).stream()
                .filter(e -> e.getEventType().getName().equals("dev.sluice.PipeWait")).toList();
        assertThat(waits).extracting(e -> e.getString("outcome"))
                .containsExactlyInAnyOrder("closed", "interrupted", "timed out");
    }

    @Test
    void nothingIsRecordedUnlessEnabled(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("none.jfr");
        try (Recording r = new Recording()) {
            r.enable("jdk.ThreadStart"); // something, so the file is not empty
            r.start();
            Pipe p = Pipe.open();
            Running<byte[]> reader = ConformanceSupport.start(ThreadKind.VIRTUAL,
                    () -> ConformanceSupport.readFully(p.reader(), 1));
            ConformanceSupport.awaitBlockedReading(reader.thread(), p, 1);
            p.writer().write(new byte[] {9});
            reader.join();
            r.stop();
            r.dump(file);
        }
        assertThat(RecordingFile.readAllEvents(file))
                .noneMatch(e -> e.getEventType().getName().startsWith("dev.sluice."));
    }

    /**
     * Without a recording, a wait does not start Flight Recorder's machinery (looking up an event type did: the
     * first wait of a cold JVM took 140-300 ms longer). Checked in a JVM of its own, by the classes it loads.
     */
    @Test
    void aWaitWithoutARecordingLoadsNoEventClass() throws Exception {
        Path javaBin = Path.of(System.getProperty("java.home"), "bin", "java");
        Process child = new ProcessBuilder(javaBin.toString(), "-verbose:class", "-cp",
                System.getProperty("java.class.path"), WaitOnce.class.getName()).redirectErrorStream(true).start();
        String out = new String(child.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
        assertThat(child.waitFor(30, TimeUnit.SECONDS)).isTrue();
        assertThat(out).contains("waited and read 1").doesNotContain("dev.sluice.internal.jfr.Events")
                .doesNotContain("jdk.jfr.EventType ");
    }

    /** Runs in the child JVM: one read that waits for a writer. */
    public static final class WaitOnce {
        public static void main(String[] args) throws Exception {
            Pipe p = Pipe.open(PipeOptions.builder().spinBeforePark(Duration.ZERO).build());
            Thread w = Thread.ofPlatform().start(() -> {
                try {
                    while (p.counters().readerWaits() == 0) {
                        Thread.onSpinWait();
                    }
                    p.writer().write(new byte[] {1});
                } catch (java.io.IOException e) {
                    throw new java.io.UncheckedIOException(e);
                }
            });
            int n = p.reader().read(new byte[1]);
            w.join();
            System.out.println("waited and read " + n);
        }
    }

    private static RecordedEvent only(List<RecordedEvent> events, String name) {
        List<RecordedEvent> found = events.stream().filter(e -> e.getEventType().getName().equals(name)).toList();
        assertThat(found).as(name).hasSize(1);
        return found.get(0);
    }
}
