package dev.sluice.policy;

/**
 * How many waiters one wake-up reaches.
 */
public enum WaitDiscipline {
    /**
     * A blocked reader or writer is woken alone, and passes the wake-up on when it leaves data or room
     * behind ({@code wake_next_reader} / {@code wake_next_writer}): Linux since 0ddad21d3e99 ("pipe: use
     * exclusive waits when reading or writing", December 2019). Linus' 64-process token test went from
     * 11,250,961 to 1,212,233 context switches. The default.
     */
    EXCLUSIVE("exclusive"),

    /**
     * Every waiter of the side is woken and all but one find nothing to do: the thundering herd of the make
     * jobserver before 2019, kept so the lab can show the difference.
     */
    BROADCAST("broadcast");

    private final String alias;

    WaitDiscipline(String alias) {
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
