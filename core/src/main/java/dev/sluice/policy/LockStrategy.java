package dev.sluice.policy;

/**
 * What guards a pipe's ring while a reader or writer copies bytes in or out.
 *
 * <p>Either way, threads that must <em>wait</em> (for data or for room) park, after an optional bounded
 * spin ({@code PipeOptions.Builder#spinBeforePark}); the strategy only decides how threads wait for the
 * short critical section of another thread.
 */
public enum LockStrategy {
    /**
     * A {@link java.util.concurrent.locks.ReentrantLock}: a thread that finds the lock held keeps trying
     * for up to the pipe's {@code spinBeforePark} and then parks, like Linux's {@code pipe->mutex} (an
     * optimistic-spinning mutex). Safe under any load, including more runnable threads than cores. The
     * default.
     */
    MUTEX("mutex"),

    /**
     * A spin lock: a thread that finds the lock held spins, yielding the CPU between rounds, and only after
     * a long fruitless spin naps for microseconds at a time (so virtual threads cannot starve the holder of
     * a carrier). Cheaper hand-over when critical sections are short and threads few (the 2023 spinlock-versus-
     * mutex thread measured about 3 % on UnixBench's pipe test); wasteful when the holder is descheduled,
     * which on a 2-core machine with many threads is often.
     */
    SPIN("spin");

    private final String alias;

    LockStrategy(String alias) {
        this.alias = alias;
    }

    /** @return the name used in configuration and reports */
    public String alias() {
        return alias;
    }

    @Override
    public String toString() {
        return alias;
    }
}
