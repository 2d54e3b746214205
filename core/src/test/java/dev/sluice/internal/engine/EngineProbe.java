package dev.sluice.internal.engine;

import dev.sluice.Pipe;
import dev.sluice.PipeEnd;
import dev.sluice.internal.sync.SpinBudget;

/**
 * White-box access to an in-process pipe's engine for tests of what only the engine can show (a spin budget's
 * state, the pending readiness futures, the lock). Test code only.
 */
public final class EngineProbe {
    private EngineProbe() {
    }

    private static PipeCore core(Pipe p) {
        return ((InProcessEnd) p.reader()).core();
    }

    /** @return the spin budget of the pipe's readers' queue */
    public static SpinBudget readerBudget(Pipe p) {
        return core(p).readerQueue().spinBudget();
    }

    /** @return readiness futures the pipe of {@code end} still holds */
    public static int pendingReadiness(PipeEnd end) {
        return ((InProcessEnd) end).core().pendingReadiness();
    }

    /**
     * Marks the pipe's readers as napping for a batch, as a batching platform reader's wait does for its
     * length; set on an ordinary waiter, it shows the writers' half of the nap without the nap's clock.
     */
    public static void napping(Pipe p, boolean napping) {
        core(p).setNapping(napping);
    }

    /** Takes the pipe's lock, as a call would (for tests of contention). */
    public static void lock(Pipe p) {
        core(p).lock();
    }

    /**
     * Lengthens (or shortens) the nap of the pipe's batching platform readers, which is otherwise five times the
     * pipe's spin (at most 5 ms): so that a test can act during a nap without racing its end. Call it before
     * any reader uses the pipe.
     */
    public static void napFor(Pipe p, java.time.Duration nap) {
        core(p).napNanos(nap.toNanos());
    }

    /** @return whether a thread is parked waiting for the pipe's lock (a mutex) */
    public static boolean lockHasWaiters(Pipe p) {
        return core(p).lockHasWaiters();
    }

    /** Releases the pipe's lock. */
    public static void unlock(Pipe p) {
        core(p).unlock();
    }
}
