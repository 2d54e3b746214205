package dev.sluice.policy;

/**
 * When a write wakes a reader blocked on an empty pipe.
 */
public enum ReaderWakePolicy implements Aliased {
    /**
     * Linux since December 2019 (1b6b26ae7053, "pipe: fix and clarify pipe write wakeup logic"): a blocked
     * reader can only be blocked on an empty pipe, so only the write that makes the pipe non-empty wakes
     * one; once anybody has polled the pipe, every write wakes, because edge-triggered pollers expect an
     * event per write (3b844826b6c6, {@code poll_usage}). The default.
     */
    ON_EMPTY,

    /**
     * Every write that stores data wakes a reader: the rule before 2019 ("always wakeup, even if the copy
     * fails"). Costs a wake-up attempt per write; kept so the lab can measure the difference.
     */
    EVERY_WRITE;


    /**
     * The rule, evaluated by a writer when it leaves (or is about to sleep).
     *
     * @param wasEmpty whether the pipe was empty when the write started (or last woke)
     * @param polled   whether the pipe has ever been polled
     * @return whether the write should wake a reader when it leaves
     */
    public boolean wakeReader(boolean wasEmpty, boolean polled) {
        return this == EVERY_WRITE || wasEmpty || polled;
    }


    @Override
    public String toString() {
        return alias();
    }
}
