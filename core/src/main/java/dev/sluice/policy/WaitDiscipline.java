package dev.sluice.policy;

/**
 * How many waiters one wake-up reaches, and when a wake-up is not worth sending.
 */
public enum WaitDiscipline implements Aliased {
    /**
     * A blocked reader or writer is woken alone, and passes the wake-up on when it leaves data or room
     * behind ({@code wake_next_reader} / {@code wake_next_writer}): Linux since 0ddad21d3e99 ("pipe: use
     * exclusive waits when reading or writing", December 2019). Linus' 64-process token test went from
     * 11,250,961 to 1,212,233 context switches.
     */
    EXCLUSIVE {
        @Override
        public int wakes(boolean inFlight) {
            return 1;
        }

        @Override
        public int passes(boolean inFlight) {
            return 1;
        }
    },

    /**
     * Every waiter of the side is woken and all but one find nothing to do: the thundering herd of the make
     * jobserver before 2019, kept so the lab can show the difference.
     */
    BROADCAST {
        @Override
        public int wakes(boolean inFlight) {
            return ALL;
        }

        @Override
        public int passes(boolean inFlight) {
            return 0; // everybody was woken: there is no baton
        }
    },

    /**
     * Sluice's own: {@link #EXCLUSIVE}, and no wake-up is sent to a side while one sent to it earlier is still
     * in flight, that is while a thread woken before has not yet run and looked.
     *
     * <p>Why: on a pipe shared by many readers (the make jobserver), a writer that makes the empty pipe
     * non-empty wakes a sleeper, and often reads its own token back before the sleeper gets a CPU (waking a
     * parked thread on another core costs tens of microseconds). The sleeper finds nothing and parks again,
     * and every token pass pays a futex wake and two context switches: Linus' ~1 context switch per token,
     * which the kernel's exclusive waits still pay. Broadcast avoids it only by keeping a herd runnable.
     * Here the second, third, ... wake-ups, sent while the first woken thread is still on its way, are
     * skipped: that thread will look at the pipe after the writes that would have sent them, and take the
     * data or pass the baton. On the lab's jobserver (64 threads, one pipe) it leaves almost no wake-up that
     * finds nothing to do ({@code docs/performance.md}, "The wait discipline").
     *
     * <p>Why it loses no wake-up: a thread's wake-up counts as in flight until its wait returns, and it then
     * takes the pipe's lock and looks at the ring (or, if it leaves without looking because its handle was
     * closed, wakes another). A waker that changed the ring, released the lock and then sees a wake-up in
     * flight therefore knows that a woken thread will take the lock after the change and see it. The
     * argument in full is on {@link dev.sluice.internal.sync.WaitQueue#wakeOneUnlessInFlight()}.
     *
     * <p>The trade-off: the data waits for the thread already woken, even if another sleeper could run
     * sooner on an idle core (a woken thread that is slow to get a CPU delays everybody of its side). The
     * default ({@link dev.sluice.PipeOptions#DEFAULT_WAIT_DISCIPLINE}).
     */
    COALESCING {
        @Override
        public int wakes(boolean inFlight) {
            return inFlight ? 0 : 1;
        }

        @Override
        public int passes(boolean inFlight) {
            return inFlight ? 0 : 1;
        }
    };

    /** "Every waiter of the side", as a count returned by {@link #wakes}. */
    public static final int ALL = Integer.MAX_VALUE;

    /**
     * The rule for a wake-up: after a change that gives one side of a pipe something (data for its readers,
     * room for its writers), how many of that side's waiters to wake. Evaluated by the thread that made the
     * change, after it let go of the pipe's lock.
     *
     * @param inFlight whether a thread this side's queue woke earlier has yet to return from its wait and look
     * @return 0, 1, or {@link #ALL}
     */
    public abstract int wakes(boolean inFlight);

    /**
     * The baton rule ({@code wake_next_reader} / {@code wake_next_writer}): how many waiters a thread that was
     * woken wakes in turn when it is done with the pipe for now and leaves data or room behind, so that one
     * exclusive wake-up is never swallowed by a thread that could not use all of it.
     *
     * @param inFlight whether a thread this side's queue woke has yet to return from its wait and look
     * @return 0 or 1
     */
    public abstract int passes(boolean inFlight);



    @Override
    public String toString() {
        return alias();
    }
}
