package dev.sluice.internal;

import dev.sluice.PipeEnd;
import java.time.Duration;

/**
 * The mode every pipe handle has, whatever the pipe: blocking or not ({@code O_NONBLOCK}), and the timeout
 * of its blocking calls. The in-process ends and the kernel module's ends extend it (this package is
 * exported to {@code dev.sluice.kernel} only).
 *
 * <p>Both are read without any lock by threads deciding whether to wait, hence volatile. Each handle has its
 * own; a duplicate starts with a copy.
 */
public abstract class EndBase implements PipeEnd {
    private volatile boolean nonBlocking;
    private volatile long timeoutNanos;

    /**
     * @param nonBlocking  whether the handle starts nonblocking
     * @param timeoutNanos its timeout, 0 for none
     */
    protected EndBase(boolean nonBlocking, long timeoutNanos) {
        this.nonBlocking = nonBlocking;
        this.timeoutNanos = timeoutNanos;
    }

    @Override
    public final void setNonBlocking(boolean on) {
        this.nonBlocking = on;
    }

    @Override
    public final boolean isNonBlocking() {
        return nonBlocking;
    }

    @Override
    public final void setTimeout(Duration timeout) {
        this.timeoutNanos = Checks.timeoutNanos(timeout);
    }

    @Override
    public final Duration timeout() {
        return Duration.ofNanos(timeoutNanos);
    }

    /** @return the timeout in nanoseconds, 0 for none */
    public final long timeoutNanos() {
        return timeoutNanos;
    }
}
