package dev.sluice.internal;

import dev.sluice.PipeEnd;
import java.time.Duration;

/**
 * What every pipe handle has, whatever the pipe: its open file description ({@link Description}: blocking
 * or not, packet mode), shared with the handles {@code dup()} made from it, and its own timeout. The
 * in-process ends and the kernel module's ends extend it (this package is exported to
 * {@code dev.sluice.kernel} only).
 *
 * <p>The timeout is read without any lock by threads about to wait, hence volatile. A blocking-mode check is
 * two loads, the final description and its volatile flag: one more than when the flag was the handle's.
 */
public abstract class EndBase implements PipeEnd {
    private final Description description;
    private volatile long timeoutNanos;

    /**
     * @param description  the handle's open file description: a new one, or the one it was duplicated from
     * @param timeoutNanos its timeout, 0 for none
     */
    protected EndBase(Description description, long timeoutNanos) {
        this.description = description;
        this.timeoutNanos = timeoutNanos;
    }

    /**
     * A handle on a description of its own, not in packet mode.
     *
     * @param nonBlocking  whether the description starts nonblocking
     * @param timeoutNanos the handle's timeout, 0 for none
     */
    protected EndBase(boolean nonBlocking, long timeoutNanos) {
        this(new Description(nonBlocking, false), timeoutNanos);
    }

    /** @return the open file description this handle refers to, shared with its duplicates */
    public final Description description() {
        return description;
    }

    @Override
    public final void setNonBlocking(boolean on) {
        if (isOpen()) { // a closed handle refers to no description any more (Linux: EBADF); nothing changes
            description.setNonBlocking(on);
        }
    }

    @Override
    public final boolean isNonBlocking() {
        return description.nonBlocking();
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
