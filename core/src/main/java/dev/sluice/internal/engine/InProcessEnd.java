package dev.sluice.internal.engine;

import dev.sluice.Readiness;
import dev.sluice.internal.Description;
import dev.sluice.internal.EndBase;
import java.nio.channels.ClosedChannelException;
import java.util.concurrent.CompletableFuture;

/**
 * What the in-process read and write handles share: the pipe they talk to, their open file description
 * ({@link EndBase}), and whether this handle is closed. The flag is written under the pipe's lock and read
 * without it by waiters, hence volatile.
 */
public abstract sealed class InProcessEnd extends EndBase permits InProcessReadEnd, InProcessWriteEnd {
    private final PipeCore core;
    private volatile boolean closed;

    InProcessEnd(PipeCore core, Description description, long timeoutNanos) {
        super(description, timeoutNanos);
        this.core = core;
    }

    /** @return the pipe's engine; the same object for every handle of one pipe */
    PipeCore core() {
        return core;
    }

    /** @return whether this handle and {@code other} belong to the same pipe */
    public final boolean samePipe(InProcessEnd other) {
        return core == other.core;
    }

    final boolean isClosed() {
        return closed;
    }

    /** Under the pipe's lock, by {@link PipeCore#close}. */
    final void markClosed() {
        closed = true;
    }

    final void ensureOpen() throws ClosedChannelException {
        if (closed) {
            throw new ClosedChannelException();
        }
    }

    @Override
    public final Readiness poll() {
        return core.poll(this);
    }

    @Override
    public final CompletableFuture<Readiness> whenReady() {
        return core.whenReady(this);
    }

    @Override
    public final boolean isOpen() {
        return !closed;
    }

    @Override
    public final void close() {
        core.close(this);
    }
}
