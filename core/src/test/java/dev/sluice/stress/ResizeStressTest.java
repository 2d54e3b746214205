package dev.sluice.stress;

import dev.sluice.testing.Capability;
import dev.sluice.testing.PipeContract;
import dev.sluice.testing.Requires;

import dev.sluice.stress.Scenarios.Chaos;
import dev.sluice.stress.Scenarios.Shape;
import dev.sluice.stress.StressHarness.Kind;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The stress workloads while a chaos thread changes the capacity at random between 1 and 32 pages
 * ({@code F_SETPIPE_SZ} on a pipe in use): queued bytes must keep their order, a shrink below the occupancy
 * must be refused without losing anything, and writers blocked on a full pipe must be woken when it grows.
 */
@Tag("stress")
@Requires(Capability.RESIZE)
class ResizeStressTest extends PipeContract {

    @ParameterizedTest(name = "{0} threads")
    @EnumSource(Kind.class)
    @Timeout(value = 60, unit = TimeUnit.SECONDS)
    void packetMode8x8(Kind kind) throws Exception {
        Scenarios.packetRun(pipes, kind, 8, 8, 8192, Chaos.RESIZES);
    }

    @ParameterizedTest(name = "{0} threads")
    @EnumSource(Kind.class)
    @Timeout(value = 60, unit = TimeUnit.SECONDS)
    void streamMode16x1(Kind kind) throws Exception {
        Scenarios.streamRun(pipes, kind, 16, Shape.SMALL, 4096, Chaos.RESIZES);
    }

    @ParameterizedTest(name = "{0} threads")
    @EnumSource(Kind.class)
    @Timeout(value = 60, unit = TimeUnit.SECONDS)
    void largeRecords1x1(Kind kind) throws Exception {
        Scenarios.streamRun(pipes, kind, 1, Shape.LARGE, 4096, Chaos.RESIZES);
    }
}
