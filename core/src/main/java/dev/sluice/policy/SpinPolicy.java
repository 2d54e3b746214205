package dev.sluice.policy;

/**
 * How long a reader or writer that has to wait spins on its condition before it parks, given the pipe's
 * {@code spinBeforePark} (the longest spin, {@code PipeOptions.Builder#spinBeforePark}). With a
 * {@code spinBeforePark} of zero both policies park at once.
 */
public enum SpinPolicy implements Aliased {
    /**
     * Every wait spins for the full {@code spinBeforePark} before it parks. On an idle machine, best for
     * latency-bound exchanges (a 1-byte ping-pong) and for bulk writes between platform threads; but where a
     * side's spins keep failing (a writer of small chunks waiting for room) each failed spin is pure loss,
     * and on a machine with more runnable threads than cores every spin takes CPU time from the thread it
     * waits for, which can make even a ping-pong far slower than no spin ({@code docs/performance.md}, "The
     * spin before parking").
     */
    FIXED,

    /**
     * Each side of a pipe (its readers, its writers) spins only while spinning works for it. A spin that
     * runs out makes that side's next waits park at once: 1 wait after the first failure in a row, then 2,
     * 4, ... up to 64; a spin that sees its condition come true makes every wait spin again, unless a
     * reader then finds the pipe's lock held and less than a page waiting: a writer of small chunks is
     * mid-operation, the two would trade the lock and the ring's cache lines write by write, and parking
     * would have let it run on and batch, so that counts as a failure (a ping-pong's spins find the lock
     * free; a stream of page-sized writes finds a page or more and keeps spinning); after a few such trades
     * in a row the reader's waits first spin for a page of data, which lets the writer batch (for 100-byte
     * streaming, a large gain) and ends as soon as such a spin runs out. A spin lasts no
     * longer than a wake-up has been costing on that side (from the waker's unpark to the woken thread
     * running, a moving average), capped by {@code spinBeforePark}: spinning no longer than blocking would
     * cost is the classic 2-competitive rule. A spin that runs out but whose wait then ends within
     * {@code spinBeforePark} was a narrow miss, not a failure, and makes later spins last that long: two
     * threads passing a token both wait while the other wakes, and would otherwise never spin again once one
     * of them parked. Virtual threads never spin: a spinning one holds a carrier other virtual threads
     * may need, and parking one is cheap (the measurements: {@code docs/performance.md}, "The spin before
     * parking").
     *
     * <p>So a ping-pong, whose waits end within a microsecond while the partner runs, keeps its spin; a writer
     * of small chunks waiting for a reader to drain a full pipe (which is where a fixed spin loses 100-byte
     * streaming) soon spins on one wait in 64; and on a machine with more runnable threads than
     * cores, where spins fail and steal CPU from the thread being waited for, spinning all but stops. A
     * partner that is idle for long costs at most one {@code spinBeforePark} per 64 waits.
     */
    ADAPTIVE;



    @Override
    public String toString() {
        return alias();
    }
}
