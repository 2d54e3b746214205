package dev.sluice.stress;

import dev.sluice.testing.PipeContract;

import dev.sluice.stress.StressHarness.Kind;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Many writers, many readers, packet mode: each read returns exactly one record, every record arrives
 * exactly once across the readers and in its writer's order within each reader. Writes of up to 64 KiB
 * (whole-page records) interleave with other writers at page boundaries. Small capacities maximise
 * blocking on both sides.
 */
@Tag("stress")
class PacketModeStressTest extends PipeContract {

    static Stream<Arguments> configs() {
        return Stream.of(Kind.values()).flatMap(kind -> Stream.of(
                Arguments.of(kind, 8, 8, 65536),
                Arguments.of(kind, 8, 8, 4096),
                Arguments.of(kind, 16, 4, 8192)));
    }

    @ParameterizedTest(name = "{0} threads: {1} writers x {2} readers, capacity {3}")
    @MethodSource("configs")
    @Timeout(value = 60, unit = TimeUnit.SECONDS)
    void everyRecordArrivesExactlyOnce(Kind kind, int writers, int readers, int capacity) throws Exception {
        Scenarios.packetRun(pipes, kind, writers, readers, capacity, Scenarios.Chaos.NONE);
    }
}
