package dev.sluice.sync;

import dev.sluice.policy.LockStrategy;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The lock that guards a pipe's ring: a mutex or a spin lock ({@link LockStrategy}). Not reentrant in
 * either form; the pipe never re-acquires it.
 *
 * <p>It counts acquisitions that found the lock held, because that is the number the 2023 spinlock-versus-
 * mutex argument was about; the count is kept by the holder, under the lock, so it costs a plain increment.
 */
public abstract sealed class PipeLock permits PipeLock.Mutex, PipeLock.Spin {
    private long contended;
    private boolean lastContended;

    /**
     * @param strategy  mutex or spin lock
     * @param spinNanos for the mutex: how long a thread that finds the lock held keeps trying before it
     *                  parks (the optimistic spinning of Linux's mutex; 0 parks at once)
     * @return a lock of the given strategy
     */
    public static PipeLock of(LockStrategy strategy, long spinNanos) {
        return switch (strategy) {
            case MUTEX -> new Mutex(spinNanos);
            case SPIN -> new Spin();
        };
    }

    /** Acquires the lock, counting the acquisition if it had to wait. */
    public final void lock() {
        if (!tryLock()) {
            lockSlow();
            contended++;
            lastContended = true;
        } else {
            lastContended = false;
        }
    }

    /** @return whether the holder's own acquisition found the lock held; read with the lock held */
    public final boolean lastContended() {
        return lastContended;
    }

    /** @return whether the lock was free and is now held */
    public abstract boolean tryLock();

    abstract void lockSlow();

    /** Releases the lock. */
    public abstract void unlock();

    /** @return acquisitions that found the lock held; read with the lock held */
    public final long contended() {
        return contended;
    }

    /** Zeroes {@link #contended()}; call with the lock held. */
    public final void resetContended() {
        contended = 0;
    }

    /**
     * {@link LockStrategy#MUTEX}: a non-fair {@link ReentrantLock}, tried in a bounded spin before parking.
     * Critical sections are a copy of at most a caller's buffer, a few microseconds; parking and being woken
     * costs tens of microseconds on a virtual machine, so a holder that is running is worth waiting out.
     * Virtual threads go straight to the lock's queue: one that parks unmounts cheaply, and one that spins
     * holds a carrier the holder or others may need.
     */
    static final class Mutex extends PipeLock {
        private final ReentrantLock lock = new ReentrantLock();
        private final long spinNanos;

        Mutex(long spinNanos) {
            this.spinNanos = spinNanos;
        }

        @Override
        public boolean tryLock() {
            return lock.tryLock();
        }

        @Override
        void lockSlow() {
            // Virtual threads do not spin: a spinning one holds a carrier that others may need (SpinBudget).
            long limit = Thread.currentThread().isVirtual() ? 0 : spinNanos;
            if (limit > 0) {
                long start = System.nanoTime();
                for (int i = 1; ; i++) {
                    Thread.onSpinWait();
                    if (!lock.isLocked() && lock.tryLock()) {
                        return;
                    }
                    if ((i & 63) == 0 && System.nanoTime() - start >= limit) {
                        break;
                    }
                }
            }
            lock.lock();
        }

        @Override
        public void unlock() {
            lock.unlock();
        }
    }

    /**
     * {@link LockStrategy#SPIN}: test-and-test-and-set, spinning with {@link Thread#onSpinWait()} and yielding
     * between rounds so that a descheduled holder gets the CPU back. After many fruitless rounds it naps for
     * a few microseconds at a time: yielding alone is not enough for virtual threads, whose yield can put
     * the spinner straight back on its carrier and starve the holder of one (the policy matrix found that
     * livelock on two carriers).
     */
    static final class Spin extends PipeLock {
        private static final int SPINS_PER_YIELD = 128;
        private static final int YIELDS_BEFORE_NAPPING = 64;
        private static final long MAX_NAP_NANOS = 50_000;
        private final AtomicInteger state = new AtomicInteger();

        @Override
        public boolean tryLock() {
            return state.get() == 0 && state.compareAndSet(0, 1);
        }

        @Override
        void lockSlow() {
            int spins = 0;
            int yields = 0;
            long nap = 1_000;
            while (!tryLock()) {
                if (++spins % SPINS_PER_YIELD != 0) {
                    Thread.onSpinWait();
                } else if (++yields < YIELDS_BEFORE_NAPPING) {
                    Thread.yield();
                } else {
                    java.util.concurrent.locks.LockSupport.parkNanos(this, nap);
                    nap = Math.min(nap * 2, MAX_NAP_NANOS);
                }
            }
        }

        @Override
        public void unlock() {
            state.set(0); // volatile store: releases everything written under the lock
        }
    }
}
