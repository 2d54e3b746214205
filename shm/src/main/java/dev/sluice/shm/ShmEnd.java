package dev.sluice.shm;

import dev.sluice.Readiness;
import dev.sluice.internal.Deadline;
import dev.sluice.internal.EndBase;
import java.io.IOException;
import java.nio.channels.ClosedChannelException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * What the two handles of a shared pipe share: the pipe, this handle's open state and mode ({@link EndBase}),
 * the count of this JVM's threads blocked in a call on it (so that closing it wakes them), and readiness.
 */
abstract sealed class ShmEnd extends EndBase permits ShmReadEnd, ShmWriteEnd {
    static final Readiness INVALID = Readiness.ofLinuxPollMask(0x20); // POLLNVAL

    final ShmPipe pipe;
    private final AtomicBoolean closed;
    /** Threads of this JVM waiting in a call on this handle. */
    final AtomicInteger blocked = new AtomicInteger();

    ShmEnd(ShmPipe pipe, boolean open, boolean nonBlocking, long timeoutNanos) {
        super(nonBlocking, timeoutNanos);
        this.pipe = pipe;
        this.closed = new AtomicBoolean(!open);
    }

    abstract boolean isRead();

    /** @return this handle's weight in a process entry's COUNTS word */
    final long delta() {
        return isRead() ? 1 : 1L << 32;
    }

    @Override
    public final ShmPipe pipe() {
        return pipe;
    }

    @Override
    public final boolean isOpen() {
        return !closed.get();
    }

    @Override
    public final void close() {
        if (closed.compareAndSet(false, true)) {
            pipe.handleClosed(this);
        }
    }

    /** Takes a use of the mapping for one call. */
    final void enter() throws ClosedChannelException {
        if (closed.get() || !pipe.region.acquire()) {
            throw new ClosedChannelException();
        }
    }

    final void leave() {
        pipe.region.release();
    }

    /** @return a fresh deadline for one blocking call (its clock starts at the first wait) */
    final Deadline deadline() {
        return new Deadline().reset(timeoutNanos());
    }

    @Override
    public final Readiness poll() {
        if (closed.get() || !pipe.region.acquire()) {
            return INVALID;
        }
        try {
            return Readiness.ofLinuxPollMask(pipe.pollMask(isRead()));
        } finally {
            pipe.region.release();
        }
    }

    static boolean isReady(boolean read, Readiness r) {
        return read ? r.readable() || r.hungUp() || r.invalid() : r.writable() || r.error() || r.invalid();
    }

    /**
     * {@inheritDoc}
     *
     * <p>A change made by this JVM completes the future before the call that made it returns; for a change made
     * by another process, a virtual thread waits (parked, through the pipe's watcher) and completes it.
     */
    @Override
    public final CompletableFuture<Readiness> whenReady() {
        CompletableFuture<Readiness> f = new CompletableFuture<>();
        Readiness now = poll();
        if (isReady(isRead(), now)) {
            f.complete(now);
            return f;
        }
        pipe.addPending(new ShmPipe.Pending(this, f));
        if (!f.isDone()) {
            Thread.ofVirtual().name("sluice-shm-ready").start(() -> awaitReady(f));
        }
        return f;
    }

    private void awaitReady(CompletableFuture<Readiness> f) {
        try {
            while (!f.isDone()) {
                Readiness r = poll();
                if (isReady(isRead(), r)) {
                    f.complete(r);
                    break;
                }
                enter();
                try {
                    pipe.await(this, isRead(), new Deadline().reset(0), 0, "wait for readiness");
                } finally {
                    leave();
                }
            }
        } catch (IOException | RuntimeException e) {
            f.complete(poll()); // the handle was closed (INVALID) or the pipe is corrupt: say what is known
        }
        pipe.settle();
    }

    @Override
    public String toString() {
        return (isRead() ? "read end of " : "write end of ") + pipe.region.name + (isOpen() ? "" : " (closed)");
    }
}
