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

    private static RecordedEvent only(List<RecordedEvent> events, String name) {
        List<RecordedEvent> found = events.stream().filter(e -> e.getEventType().getName().equals(name)).toList();
        assertThat(found).as(name).hasSize(1);
        return found.get(0);
    }
}
