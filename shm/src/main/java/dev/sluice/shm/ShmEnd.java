package dev.sluice.shm;

import dev.sluice.Readiness;
import dev.sluice.internal.Deadline;
import dev.sluice.internal.Description;
import dev.sluice.internal.EndBase;
import java.io.IOException;
import java.nio.channels.ClosedChannelException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;

/**
 * What the two handles of a shared pipe share: the pipe, this handle's open state, its open file description
 * (mode, shared with its {@code dup()}s within this JVM) and timeout ({@link EndBase}),
 * the count of this JVM's threads blocked in a call on it (so that closing it wakes them), and readiness.
 */
abstract sealed class ShmEnd extends EndBase permits ShmReadEnd, ShmWriteEnd {
    static final Readiness INVALID = Readiness.ofLinuxPollMask(0x20); // POLLNVAL

    final ShmPipe pipe;
    private final AtomicBoolean closed;
    /** Threads of this JVM waiting in a call on this handle. */
    final AtomicInteger blocked = new AtomicInteger();

    ShmEnd(ShmPipe pipe, boolean open, Description description, long timeoutNanos) {
        super(description, timeoutNanos);
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
     * <p>A change made by this JVM, through any of its attachments of the pipe, completes the future before the
     * call that made it returns; for a change made by another process, a virtual thread waits (parked, through
     * the pipe's watcher) and completes it once it sees the handle ready. It looks after the change, so if a
     * reader took the bytes first (or a writer the room), the future waits on for the next change, as an epoll
     * item that is no longer ready when {@code epoll_wait} polls it is not reported.
     */
    @Override
    public final CompletableFuture<Readiness> whenReady() {
        CompletableFuture<Readiness> f = new CompletableFuture<>();
        Readiness now = poll();
        if (isReady(isRead(), now)) {
            f.complete(now);
            return f;
        }
        Thread waiter = Thread.ofVirtual().name("sluice-shm-ready").unstarted(() -> awaitReady(f));
        pipe.addPending(new ShmPipe.Pending(this, f, waiter));
        if (!f.isDone()) {
            waiter.start();
        }
        return f;
    }

    /**
     * The waiting thread of one future: sleeps (parked, through the watcher) until the pipe changes, and settles
     * the pipe's futures, until this one is done; {@link ShmPipe#settle()} unparks it when another call did.
     */
    private void awaitReady(CompletableFuture<Readiness> f) {
        Region r = pipe.region;
        if (!r.acquire()) {
            f.complete(INVALID);
            return;
        }
        long word = isRead() ? Layout.DATA_SEQ : Layout.ROOM_SEQ;
        long waiters = isRead() ? Layout.DATA_WAITERS : Layout.ROOM_WAITERS;
        Watcher w = pipe.watcher(isRead());
        r.getAndAddInt(waiters, 1); // counted, so that a peer's change wakes the watcher at once
        try {
            while (!f.isDone()) {
                int seq = r.getInt(word);
                pipe.settle();
                Watcher.Waiter me = w.register(seq, false); // a future: it takes nothing
                try {
                    if (r.getInt(word) == seq && !f.isDone()) {
                        LockSupport.parkNanos(this, Watcher.SAFETY_NANOS); // bound: as ShmPipe.park's
                    }
                } finally {
                    w.deregister(me);
                }
            }
        } finally {
            r.getAndAddInt(waiters, -1);
            r.release();
        }
    }

    @Override
    public String toString() {
        return (isRead() ? "read end of " : "write end of ") + pipe.region.name + (isOpen() ? "" : " (closed)");
    }
}
