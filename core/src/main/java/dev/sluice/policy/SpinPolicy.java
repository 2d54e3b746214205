package dev.sluice.policy;

/**
 * How long a reader or writer that has to wait spins on its condition before it parks, given the pipe's
 * {@code spinBeforePark} (the longest spin, {@code PipeOptions.Builder#spinBeforePark}). With a
 * {@code spinBeforePark} of zero both policies park at once.
 */
public enum SpinPolicy {
    /**
     * Every wait spins for the full {@code spinBeforePark} before it parks. Best for latency-bound exchanges
     * (a 1-byte ping-pong) and for bulk writes between platform threads; but on a pipe where one side waits
     * and its spins keep failing (a writer of small chunks waiting for room), each failed spin is pure loss.
     */
    FIXED("fixed"),

    /**
     * Each side of a pipe (its readers, its writers) learns its own spin, like HotSpot's adaptive spinning
     * and glibc's adaptive mutex: a wait whose spin saw the condition come true doubles that side's spin, up to
     * {@code spinBeforePark}; a spin that ran out and had to park halves it, down to a floor of
     * 1/32 of {@code spinBeforePark}, which keeps probing so the spin can grow back. A side whose waits end
     * by spinning keeps the full spin; a side that spins in vain soon spins only briefly. Virtual threads spin
     * at most the floor: parking one is cheap (no kernel wake-up unless a carrier is idle), and a spinning
     * virtual thread holds a carrier that the other side may need.
     */
    ADAPTIVE("adaptive");

    private final String alias;

    SpinPolicy(String alias) {
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
