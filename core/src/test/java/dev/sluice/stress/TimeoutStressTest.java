package dev.sluice.stress;

import dev.sluice.testing.PipeContract;

import dev.sluice.stress.Scenarios.Chaos;
import dev.sluice.stress.Scenarios.Shape;
import dev.sluice.stress.StressHarness.Kind;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The stress workloads with a timeout of a few microseconds (writers up to 100, readers up to 20) on every
 * other handle, the rest waiting forever. Timed-out calls report what they moved (nothing for atomic writes and reads,
 * whole
 * pages for packet writes) and are resumed; a wake-up that a timed-out waiter swallows instead of passing
 * it on would leave a waiter without a timeout hanging.
 */
@Tag("stress")
class TimeoutStressTest extends PipeContract {

    @ParameterizedTest(name = "{0} threads")
    @EnumSource(Kind.class)
    @Timeout(value = 60, unit = TimeUnit.SECONDS)
    void packetMode8x8(Kind kind) throws Exception {
        Scenarios.packetRun(pipes, kind, 8, 8, 8192, Chaos.TIMEOUTS);
    }

    @ParameterizedTest(name = "{0} threads")
    @EnumSource(Kind.class)
    @Timeout(value = 60, unit = TimeUnit.SECONDS)
    void streamMode16x1(Kind kind) throws Exception {
        Scenarios.streamRun(pipes, kind, 16, Shape.SMALL, 4096, Chaos.TIMEOUTS);
    }

    @ParameterizedTest(name = "{0} threads")
    @EnumSource(Kind.class)
    @Timeout(value = 60, unit = TimeUnit.SECONDS)
    void largeRecords1x1(Kind kind) throws Exception {
        Scenarios.streamRun(pipes, kind, 1, Shape.LARGE, 8192, Chaos.TIMEOUTS);
    }
}
