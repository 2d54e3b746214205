package dev.sluice.stress;

import dev.sluice.testing.PipeContract;

import dev.sluice.stress.Scenarios.Shape;
import dev.sluice.stress.StressHarness.Kind;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The stress workloads while a chaos thread interrupts random writers and readers every few dozen
 * microseconds. Each interrupted call must report exactly what it moved (nothing for an atomic write or a
 * read, whole pages for a packet write) and keep the interrupt status set; the worker clears it and
 * resumes, and the records must still all arrive exactly once, whole and in order.
 */
@Tag("stress")
class InterruptStressTest extends PipeContract {

    @ParameterizedTest(name = "{0} threads")
    @EnumSource(Kind.class)
    @Timeout(value = 60, unit = TimeUnit.SECONDS)
    void packetMode8x8(Kind kind) throws Exception {
        Scenarios.packetRun(pipes, kind, 8, 8, 8192, Scenarios.Chaos.INTERRUPTS);
    }

    @ParameterizedTest(name = "{0} threads")
    @EnumSource(Kind.class)
    @Timeout(value = 60, unit = TimeUnit.SECONDS)
    void streamMode16x1(Kind kind) throws Exception {
        Scenarios.streamRun(pipes, kind, 16, Shape.SMALL, 4096, Scenarios.Chaos.INTERRUPTS);
    }

    @ParameterizedTest(name = "{0} threads")
    @EnumSource(Kind.class)
    @Timeout(value = 60, unit = TimeUnit.SECONDS)
    void largeRecords1x1(Kind kind) throws Exception {
        Scenarios.streamRun(pipes, kind, 1, Shape.LARGE, 8192, Scenarios.Chaos.INTERRUPTS);
    }
}
