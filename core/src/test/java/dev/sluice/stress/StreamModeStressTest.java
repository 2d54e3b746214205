package dev.sluice.stress;

import dev.sluice.testing.PipeContract;

import dev.sluice.stress.Scenarios.Shape;
import dev.sluice.stress.StressHarness.Kind;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Normal (merging) mode with one reader that parses the byte stream. Many writers write records of at
 * most PIPE_BUF bytes, which must each arrive contiguous (atomic writes), with every writer's records
 * consecutive and in order. One writer alone writes records up to 200 KiB, which the reader reassembles
 * from reads of random sizes.
 */
@Tag("stress")
class StreamModeStressTest extends PipeContract {

    static Stream<Arguments> configs() {
        return Stream.of(Kind.values()).flatMap(kind -> Stream.of(
                Arguments.of(kind, 64, Shape.SMALL, 65536),
                Arguments.of(kind, 64, Shape.SMALL, 4096),
                Arguments.of(kind, 8, Shape.SMALL, 8192),
                Arguments.of(kind, 1, Shape.LARGE, 65536),
                Arguments.of(kind, 1, Shape.LARGE, 4096)));
    }

    @ParameterizedTest(name = "{0} threads: {1} writers x 1 reader, {2} records, capacity {3}")
    @MethodSource("configs")
    @Timeout(value = 60, unit = TimeUnit.SECONDS)
    void recordsArriveWholeAndInOrder(Kind kind, int writers, Shape shape, int capacity) throws Exception {
        Scenarios.streamRun(pipes, kind, writers, shape, capacity, Scenarios.Chaos.NONE);
    }
}
