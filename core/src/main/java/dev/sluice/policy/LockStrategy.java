package dev.sluice.policy;

import dev.sluice.internal.sync.SpinLock;
import dev.sluice.internal.sync.SpinningMutex;
import java.time.Duration;
import java.util.concurrent.locks.Lock;

/**
 * What guards a pipe's ring while a reader or writer copies bytes in or out.
 *
 * <p>Either way, threads that must <em>wait</em> (for data or for room) park, after an optional bounded
 * spin ({@code PipeOptions.Builder#spinBeforePark}); the strategy only decides how threads wait for the
 * short critical section of another thread.
 */
public enum LockStrategy implements Aliased {
    /**
     * A {@link java.util.concurrent.locks.ReentrantLock}: a thread that finds the lock held keeps trying
     * for up to the pipe's {@code spinBeforePark} and then parks, like Linux's {@code pipe->mutex} (an
     * optimistic-spinning mutex). Safe under any load, including more runnable threads than cores. The
     * default.
     */
    MUTEX {
        @Override
        public Lock newLock(Duration spinBeforePark) {
            return new SpinningMutex(spinBeforePark.toNanos());
        }
    },

    /**
     * A spin lock: a thread that finds the lock held spins, yielding the CPU between rounds, and only after
     * a long fruitless spin naps for microseconds at a time (so virtual threads cannot starve the holder of
     * a carrier). Cheaper hand-over when critical sections are short and threads few (the 2023 spinlock-versus-
     * mutex thread measured about 3 % on UnixBench's pipe test); wasteful when the holder is descheduled,
     * which on a 2-core machine with many threads is often.
     */
    SPIN {
        @Override
        public Lock newLock(Duration spinBeforePark) {
            return new SpinLock();
        }
    };

    /**
     * Makes the lock that guards one pipe's ring.
     *
     * @param spinBeforePark how long a thread that finds a {@link #MUTEX} held tries before it parks (the
     *                       pipe's {@code spinBeforePark}); a {@link #SPIN} lock always spins
     * @return a new, unlocked lock: non-fair, and for {@link #SPIN} not reentrant and without conditions
     */
    public abstract Lock newLock(Duration spinBeforePark);



    @Override
    public String toString() {
        return alias();
    }
}
