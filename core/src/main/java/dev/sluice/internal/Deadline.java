package dev.sluice.internal;

/**
 * When a blocking call gives up: the one deadline type of every wait in Sluice (Okio's {@code Timeout} plays
 * the same part). The clock starts at the call's first wait, not when the call starts, so a call that never
 * has to wait never reads the clock ({@code PipeEnd#setTimeout}: "the time counts from when the call first
 * has to wait").
 *
 * <p>Mutable and owned by one call at a time. 0 nanoseconds means "no timeout" and {@link #nanos()} is then
 * 0, which the wait queues read as "no deadline".
 */
public final class Deadline {
    private long timeoutNanos;
    /** The {@link System#nanoTime()} at which the call gives up, 0 until its first wait (never 0 after). */
    private long at;

    /** Makes this the deadline of a new call that may wait {@code timeoutNanos} (0: forever). */
    public Deadline reset(long timeoutNanos) {
        this.timeoutNanos = timeoutNanos;
        this.at = 0;
        return this;
    }

    /**
     * For a call about to wait: starts the clock on its first wait, and says whether the deadline has passed
     * since (then the call gives up instead of waiting again).
     */
    public boolean expired() {
        if (timeoutNanos <= 0) {
            return false;
        }
        if (at == 0) {
            long d = System.nanoTime() + timeoutNanos;
            at = d == 0 ? 1 : d; // 0 means "not started"
            return false;
        }
        return System.nanoTime() - at >= 0;
    }

    /** @return the deadline as a {@link System#nanoTime()} value to wait until, or 0 for none */
    public long nanos() {
        return timeoutNanos <= 0 ? 0 : at;
    }

    /** @return nanoseconds left before the deadline (at least 1 while it has not passed), or 0 for none */
    public long remaining() {
        if (timeoutNanos <= 0) {
            return 0;
        }
        long left = at == 0 ? timeoutNanos : at - System.nanoTime();
        return Math.max(left, 1);
    }
}
