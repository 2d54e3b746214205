package dev.sluice;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.internal.ring.PageRing;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.openjdk.jol.info.ClassLayout;
import org.openjdk.jol.info.FieldLayout;

/**
 * The fields waiting threads read without the lock sit at least a cache line (64 bytes) away from the
 * fields the lock holder writes on every call, and from the object's header, so a spinning waiter does not
 * slow down the thread it waits for (false sharing). Checked on the layout this JVM really uses.
 */
class RingLayoutTest {
    private static final int LINE = 64;

    private static long offset(ClassLayout layout, String field) {
        return layout.fields().stream().filter(f -> f.name().equals(field)).mapToLong(FieldLayout::offset)
                .findFirst().orElseThrow(() -> new AssertionError("no field " + field + " in\n"
                        + layout.toPrintable()));
    }

    private static void assertIsolated(Class<?> type, List<String> shared, List<String> hot) {
        ClassLayout layout = ClassLayout.parseClass(type);
        long size = layout.instanceSize();
        for (String s : shared) {
            long at = offset(layout, s);
            assertThat(at).as("%s.%s is a line away from the object header%n%s", type.getSimpleName(), s,
                    layout.toPrintable()).isGreaterThanOrEqualTo(LINE);
            for (String h : hot) {
                assertThat(Math.abs(offset(layout, h) - at)).as("%s.%s vs %s%n%s", type.getSimpleName(), s, h,
                        layout.toPrintable()).isGreaterThanOrEqualTo(LINE);
            }
        }
    }

    @Test
    void ringIndexIsOffTheLinesTheLockHolderWrites() {
        assertIsolated(PageRing.class, List.of("index", "maxUsage"),
                List.of("head", "tail", "queuedBytes", "peakOccupancy", "published"));
    }

    @Test
    void handleCountsAreOffTheCounterLines() {
        assertIsolated(dev.sluice.internal.engine.PipeCore.class,
                List.of("readers", "writers", "pollUsed", "readHeld", "napping"),
                List.of("bytesIn", "bytesOut", "writeCalls", "readCalls", "emptyWakeups", "spunWaits", "atime",
                        "mtime", "ctime"));
    }
}
