package dev.sluice.internal.sync;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.Lock;
import java.util.concurrent.locks.LockSupport;

/**
 * {@link dev.sluice.policy.LockStrategy#SPIN}: test-and-test-and-set, spinning with
 * {@link Thread#onSpinWait()} and yielding between rounds so that a descheduled holder gets the CPU back;
 * after many fruitless rounds it naps for microseconds at a time. Yielding alone is not enough for virtual
 * threads, whose yield can put the spinner straight back on its carrier and starve the holder of one.
 *
 * <p>The nap works for an interrupted thread too: {@link LockSupport#parkNanos} returns at once while the
 * interrupt status is set, so an interrupted spinner that only "napped" would never let go of its carrier
 * (found with six interrupted virtual splicers on two carriers: nothing moved for good). The status is put
 * aside for the nap and restored. A spin-lock holder must never wait for anything else while it holds the
 * lock; the pipe takes a second pipe's lock only with {@link #tryLock()} ({@code Call.lockBoth}).
 *
 * <p>Not reentrant, no owner, no conditions: the pipe only ever locks, tries and unlocks.
 */
public final class SpinLock implements Lock {
    private static final int SPINS_PER_YIELD = 128;
    private static final int YIELDS_BEFORE_NAPPING = 64;
    private static final long FIRST_NAP_NANOS = 1_000;
    private static final long MAX_NAP_NANOS = 50_000;

    private final AtomicInteger state = new AtomicInteger();

    @Override
    public boolean tryLock() {
        return state.get() == 0 && state.compareAndSet(0, 1);
    }

    @Override
    public void lock() {
        if (!tryLock()) {
            spin(0, false);
        }
    }

    @Override
    public void lockInterruptibly() throws InterruptedException {
        if (Thread.interrupted()) {
            throw new InterruptedException();
        }
        if (!tryLock() && !spin(0, true)) {
            throw new InterruptedException();
        }
    }

    @Override
    public boolean tryLock(long time, TimeUnit unit) throws InterruptedException {
        if (Thread.interrupted()) {
            throw new InterruptedException();
        }
        if (tryLock()) {
            return true;
        }
        long deadline = System.nanoTime() + Math.max(1, unit.toNanos(time));
        return spin(deadline == 0 ? 1 : deadline, true);
    }

    /**
     * @param deadline     {@link System#nanoTime()} to give up at, or 0 for never
     * @param interruptible whether an interrupt ends the wait (its status is then cleared, as a caller of
     *                      an interruptible lock expects an {@link InterruptedException} instead)
     * @return whether the lock was taken
     */
    private boolean spin(long deadline, boolean interruptible) {
        int spins = 0;
        int yields = 0;
        long nap = FIRST_NAP_NANOS;
        while (!tryLock()) {
            if (interruptible && Thread.interrupted()) {
                return false;
            }
            if (deadline != 0 && System.nanoTime() - deadline >= 0) {
                return false;
            }
            if (++spins % SPINS_PER_YIELD != 0) {
                Thread.onSpinWait();
            } else if (++yields < YIELDS_BEFORE_NAPPING) {
                Thread.yield();
            } else {
                napEvenIfInterrupted(nap);
                nap = Math.min(nap * 2, MAX_NAP_NANOS);
            }
        }
        return true;
    }

    private void napEvenIfInterrupted(long nanos) {
        boolean interrupted = Thread.interrupted();
        LockSupport.parkNanos(this, nanos);
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
    }

    @Override
    public void unlock() {
        state.set(0); // volatile store: releases everything written under the lock
    }

    /** @throws UnsupportedOperationException always: waiting happens on the pipe's wait queues */
    @Override
    public Condition newCondition() {
        throw new UnsupportedOperationException("a pipe's spin lock has no conditions: waiters use WaitQueue");
    }
}
