package dev.sluice;

import java.nio.channels.ClosedChannelException;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;

/**
 * What the in-process read and write handles share: the engine they talk to, and this handle's own mode.
 * The fields are read without the pipe's lock by threads deciding whether to wait, hence volatile.
 */
abstract sealed class InProcessEnd implements PipeEnd permits InProcessReadEnd, InProcessWriteEnd {
    final PipeCore core;
    /** Written under the pipe's lock; read without it by waiters. */
    volatile boolean closed;
    volatile boolean nonBlocking;
    volatile long timeoutNanos;

    InProcessEnd(PipeCore core, boolean nonBlocking, long timeoutNanos) {
        this.core = core;
        this.nonBlocking = nonBlocking;
        this.timeoutNanos = timeoutNanos;
    }

    void ensureOpen() throws ClosedChannelException {
        if (closed) {
            throw new ClosedChannelException();
        }
    }

    @Override
    public void setNonBlocking(boolean on) {
        this.nonBlocking = on;
    }

    @Override
    public boolean isNonBlocking() {
        return nonBlocking;
    }

    @Override
    public void setTimeout(Duration timeout) {
        this.timeoutNanos = PipeEnd.timeoutNanos(timeout);
    }

    @Override
    public Duration timeout() {
        return Duration.ofNanos(timeoutNanos);
    }

    @Override
    public Readiness poll() {
        return core.poll(this);
    }

    @Override
    public CompletableFuture<Readiness> whenReady() {
        return core.whenReady(this);
    }

    @Override
    public boolean isOpen() {
        return !closed;
    }

    @Override
    public void close() {
        core.close(this);
    }
}
