package dev.sluice.internal.sync;

import java.util.concurrent.locks.ReentrantLock;

/**
 * {@link dev.sluice.policy.LockStrategy#MUTEX}: a non-fair {@link ReentrantLock} that a platform thread
 * finding it held keeps trying for a bounded time before it queues and parks, like the optimistic spinning of
 * Linux's {@code pipe->mutex}. Critical sections are a copy of at most a caller's buffer, a few microseconds;
 * parking and being woken costs tens of microseconds on a virtual machine, so a holder that is running is
 * worth waiting out. Virtual threads go straight to the queue: one that parks unmounts cheaply, and one that
 * spins holds a carrier the holder or others may need.
 */
public final class SpinningMutex extends ReentrantLock {
    private static final long serialVersionUID = 1L;

    /** The most pauses between two looks at the lock: about half a microsecond on x86 (see {@link #spinFor}). */
    private static final int MAX_PAUSES = 16;
    private final long spinNanos;

    /** @param spinNanos how long a platform thread that finds the lock held tries before it parks; 0: at once */
    public SpinningMutex(long spinNanos) {
        this.spinNanos = spinNanos;
    }

    @Override
    public void lock() {
        if (!tryLock() && !spinFor()) {
            super.lock();
        }
    }

    /**
     * Tries for the lock for up to the spin, the looks at it backing off exponentially up to
     * {@value #MAX_PAUSES} pauses apart: a thread that looks at every pause keeps pulling the lock's cache line
     * away from the holder, which must take it back to release the lock and, in a stream of small writes, to
     * take it again for the next one (measured in docs/performance.md, "The lock's spin backs off").
     *
     * @return whether the lock was taken within the spin
     */
    private boolean spinFor() {
        long limit = Thread.currentThread().isVirtual() ? 0 : spinNanos;
        if (limit <= 0) {
            return false;
        }
        long start = System.nanoTime();
        for (int pauses = 1; ; ) {
            for (int k = 0; k < pauses; k++) {
                Thread.onSpinWait();
            }
            if (!isLocked() && tryLock()) {
                return true;
            }
            if (pauses < MAX_PAUSES) {
                pauses <<= 1; // the first looks come within MAX_PAUSES * 2 pauses, too soon to read the clock
            } else if (System.nanoTime() - start >= limit) {
                return false;
            }
        }
    }
}
