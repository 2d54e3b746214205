package dev.sluice;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.internal.engine.EngineProbe;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Readiness futures a caller gives up on leave the pipe: one that is cancelled, or that completes
 * exceptionally (an {@code orTimeout} that expired), is dropped at once, and registering many costs the same
 * for each, whatever is pending. Before, 200,000 abandoned futures cost 10.7 MB and 172 s, growing
 * quadratically, and the pipe's next write completed them all.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class ReadinessFuturesTest {
    private static final int MANY = 200_000;

    @Test
    void cancelledFuturesLeaveTheIdlePipe() throws Exception {
        Pipe p = Pipe.open();
        for (int i = 0; i < MANY; i++) {
            CompletableFuture<Readiness> f = p.reader().whenReady();
            assertThat(f).isNotDone();
            f.cancel(false);
        }
        assertThat(EngineProbe.pendingReadiness(p.reader())).isZero();
        p.writer().write(new byte[1]);
        assertThat(EngineProbe.pendingReadiness(p.reader())).isZero();
    }

    @Test
    void futuresCompletedByTheirHoldersLeaveToo() throws Exception {
        Pipe p = Pipe.open();
        List<CompletableFuture<Readiness>> timedOut = new ArrayList<>();
        for (int i = 0; i < 1000; i++) {
            timedOut.add(p.reader().whenReady().orTimeout(1, TimeUnit.NANOSECONDS));
        }
        CompletableFuture<Readiness> byHand = p.reader().whenReady();
        byHand.completeExceptionally(new IllegalStateException("given up"));
        CompletableFuture<Readiness> kept = p.reader().whenReady();
        CompletableFuture.allOf(timedOut.toArray(CompletableFuture[]::new)).handle((v, e) -> null).get();
        ConformanceSupport.awaitCondition("only the kept future is pending",
                () -> EngineProbe.pendingReadiness(p.reader()) == 1);
        p.writer().write(new byte[1]);
        assertThat(kept.get(10, TimeUnit.SECONDS).readable()).isTrue();
        assertThat(EngineProbe.pendingReadiness(p.reader())).isZero();
    }

    /** Pending futures are all completed by the change that makes their end ready, each once. */
    @Test
    void pendingFuturesStillCompleteOnTheChange() throws Exception {
        Pipe p = Pipe.open();
        List<CompletableFuture<Readiness>> all = new ArrayList<>();
        for (int i = 0; i < 10_000; i++) {
            all.add(p.reader().whenReady());
        }
        assertThat(EngineProbe.pendingReadiness(p.reader())).isEqualTo(all.size());
        p.writer().write(new byte[1]);
        for (CompletableFuture<Readiness> f : all) {
            assertThat(f.getNow(null)).isNotNull().matches(Readiness::readable);
        }
        assertThat(EngineProbe.pendingReadiness(p.reader())).isZero();
    }
}
