package dev.sluice.kernel;

import java.nio.channels.ClosedChannelException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Function;

/**
 * One descriptor this module owns, and the two things every use of it needs: protection against
 * descriptor-number reuse, and a way to wait for readiness without a blocking system call.
 *
 * <p><b>Use count (fd-reuse safety).</b> {@code state} holds a CLOSED bit and the number of calls now
 * using {@link #fd}. Every system call on the descriptor runs between {@link #acquire()} and
 * {@link #release()}; {@link #close()} only sets the CLOSED bit (so no new call can start) and wakes the
 * waiters, and the real {@code close(2)} runs when the last use ends: in {@code close()} itself if no call
 * is running, else in the {@code release()} of the last call. So a descriptor number is never passed to
 * the kernel after it was closed, when another thread's {@code open} may already have reused it. The
 * waiters hold their use while they are parked, which is safe because {@code close()} wakes them and they
 * leave at once.
 *
 * <p><b>Waiting.</b> The descriptor is always {@code O_NONBLOCK}, so no system call on it blocks. A
 * caller that got {@code EAGAIN} enqueues itself, then either arms a one-shot registration of the
 * descriptor in the JVM-wide {@link Poller}'s epoll set (the poller thread unparks every waiter when
 * epoll reports it ready; arming after enqueueing closes the lost-wake-up window, because epoll reports a
 * descriptor that is already ready at arming time) or, for a pipe no other process holds, runs the
 * caller's recheck instead (this JVM's own changes unpark the waiters, see {@code KernelPipe}); then it
 * re-checks CLOSED and parks with {@link LockSupport}. Woken waiters retry their call and wait again if
 * another thread took the data or room first. Because the
 * caller parks rather than sitting in {@code read(2)}, interrupts and timeouts work as for any parked
 * thread, {@code close()} can wake it, and a virtual thread unmounts instead of pinning its carrier.
 */
final class FdCell {
    private static final int CLOSED = 1 << 30;
    private static final AtomicLong IDS = new AtomicLong();

    final int fd;
    final long id = IDS.incrementAndGet();
    /** EPOLLIN for descriptors waited on to read, EPOLLOUT to write. */
    final int waitEvents;
    private final AtomicInteger state = new AtomicInteger();
    /** Parked threads. */
    private final ConcurrentLinkedQueue<Thread> threads = new ConcurrentLinkedQueue<>();
    /**
     * Readiness futures, oldest first. A future completed by someone else (cancelled, timed out) is
     * abandoned: it stays queued until {@link #purge()} drops every abandoned one, which runs once they
     * are half the queue, so each registration costs O(1) amortised and abandoned futures never hold
     * more than the live ones do (plus a constant).
     */
    private final ConcurrentLinkedQueue<ReadyWaiter<?>> futures = new ConcurrentLinkedQueue<>();
    /** Futures queued, less those taken off (approximate between purges, exact after one). */
    private final AtomicInteger queuedFutures = new AtomicInteger();
    /** Futures abandoned since the last purge. */
    private final AtomicInteger abandoned = new AtomicInteger();
    private static final int PURGE_MIN = 32;
    /** Events the parked threads wait for, OR-ed since the last fire. */
    private final AtomicInteger wanted = new AtomicInteger();
    /** Whether the descriptor is in the poller's epoll set; written by the poller's arm and forget. */
    volatile boolean registered;

    /**
     * A readiness future waiting on this descriptor; {@code check} returns null while not ready. The
     * check must not hold on to the handle that owns the cell (a pending future must not keep a dropped
     * pipe reachable; see {@code KernelPipe}'s cleaner).
     */
    static final class ReadyWaiter<T> {
        final CompletableFuture<T> future;
        final Function<FdCell, T> check;
        final T whenClosed;
        /** Set by whoever takes the waiter off the queue to complete it; an abandoned one is never taken. */
        private final AtomicBoolean taken = new AtomicBoolean();

        ReadyWaiter(CompletableFuture<T> future, Function<FdCell, T> check, T whenClosed) {
            this.future = future;
            this.check = check;
            this.whenClosed = whenClosed;
        }

        boolean take() {
            return !future.isDone() && taken.compareAndSet(false, true);
        }

        boolean abandoned() {
            return future.isDone() && !taken.get();
        }
    }

    /** Runs after {@code close(2)}: the other side of a pipe may have to wake its waiters. */
    private final Runnable afterClose;

    FdCell(int fd, int waitEvents) {
        this(fd, waitEvents, null);
    }

    FdCell(int fd, int waitEvents, Runnable afterClose) {
        this.fd = fd;
        this.waitEvents = waitEvents;
        this.afterClose = afterClose;
    }

    /** Starts a use of {@link #fd}. @throws ClosedChannelException if {@link #close()} was called */
    void acquire() throws ClosedChannelException {
        if (!tryAcquire()) {
            throw new ClosedChannelException();
        }
    }

    /** @return whether a use started; false if closed */
    boolean tryAcquire() {
        for (;;) {
            int s = state.get();
            if ((s & CLOSED) != 0) {
                return false;
            }
            if (state.compareAndSet(s, s + 1)) {
                return true;
            }
        }
    }

    /** Ends a use; the last use after {@link #close()} closes the descriptor. */
    void release() {
        if (state.decrementAndGet() == CLOSED) {
            destroy();
        }
    }

    boolean isClosed() {
        return (state.get() & CLOSED) != 0;
    }

    /**
     * Marks the cell closed and wakes its waiters; closes the descriptor now if nothing uses it.
     *
     * @return whether this call closed it (false if it was closed before)
     */
    boolean close() {
        int s;
        do {
            s = state.get();
            if ((s & CLOSED) != 0) {
                return false;
            }
        } while (!state.compareAndSet(s, s | CLOSED));
        wakeAll(true);
        if (s == 0) {
            destroy();
        }
        return true;
    }

    /** Runs exactly once, when CLOSED is set and no use is left. */
    private void destroy() {
        if (registered) {
            Poller.get().forget(this); // DEL before close: the epoll entry must not outlive the number
        }
        LibC.close(fd);
        if (afterClose != null) {
            afterClose.run();
        }
    }

    // ---- waiting ------------------------------------------------------------------------------------

    /**
     * Parks the calling thread until the descriptor may be ready, {@code deadline} (a nanoTime, 0 for
     * none) passes, the thread is interrupted, or the cell is closed. The caller holds a use and re-checks
     * everything afterwards; returning does not mean the descriptor is ready.
     */
    void park(long deadline) {
        park(deadline, waitEvents);
    }

    /** As {@link #park(long)}, waiting for {@code events} (a socket may wait for either direction). */
    void park(long deadline, int events) {
        park(deadline, events, null);
    }

    /**
     * As {@link #park(long, int)}; with a {@code recheck}, the poller is not involved: the caller promises
     * that every change of readiness comes from this JVM, whose code unparks the waiters itself, and the
     * recheck (run after this thread is queued, so a change made before it was queued is seen) says
     * whether the descriptor is ready already, in which case the thread does not park.
     */
    void park(long deadline, int events, java.util.function.BooleanSupplier recheck) {
        Thread me = Thread.currentThread();
        threads.add(me);
        try {
            if (recheck == null) {
                // Arm for every event queued since the last fire: a one-shot registration has one mask.
                Poller.get().arm(this, wanted.accumulateAndGet(events, (a, b) -> a | b));
            }
            // With a recheck the thread parks again after a return that finds nothing changed (a permit left by
            // an unpark meant for an earlier wait, or a spurious return), so that one wait stays one wait.
            do {
                if (recheck != null && recheck.getAsBoolean()) {
                    return;
                }
                if (isClosed()) {
                    return; // close() may have run before we were queued, so it could not wake us
                }
                if (deadline == 0) {
                    LockSupport.park(this);
                } else {
                    long left = deadline - System.nanoTime();
                    if (left <= 0) {
                        return;
                    }
                    LockSupport.parkNanos(this, left);
                }
            } while (recheck != null && !me.isInterrupted());
        } finally {
            threads.remove(me);
        }
    }

    /** Queues a readiness future; the caller holds a use and has checked that it is not ready yet. */
    <T> void addReadyWaiter(ReadyWaiter<T> w) {
        futures.add(w);
        queuedFutures.incrementAndGet();
        // Runs at once if the future is completed already, else when anyone completes it: if that is not
        // this cell (a cancel, orTimeout), the waiter is abandoned and counts towards a purge.
        w.future.whenComplete((v, t) -> {
            if (!w.taken.get()) {
                abandonedOne();
            }
        });
        if (isClosed()) {
            completeAll(); // close() ran its wake-up before we were queued
            return;
        }
        Poller.get().arm(this, wanted.accumulateAndGet(waitEvents, (a, b) -> a | b));
    }

    private void abandonedOne() {
        int a = abandoned.incrementAndGet();
        if (a > PURGE_MIN && 2L * a > queuedFutures.get()) {
            purge();
        }
    }

    /** Drops every abandoned future: O(queue), run once they are half of it. */
    private void purge() {
        abandoned.set(0);
        futures.removeIf(ReadyWaiter::abandoned);
        queuedFutures.set(futures.size());
    }

    /** Called by the poller thread when epoll reports the descriptor ready. */
    void fire() {
        wanted.set(0); // before the waiters are woken: each re-arms with its own events
        for (Thread t : threads) {
            LockSupport.unpark(t);
        }
        if (!futures.isEmpty() && !fireFutures() && tryAcquire()) {
            try {
                // Still not ready (another thread was first): wait for the next event.
                Poller.get().arm(this, wanted.accumulateAndGet(waitEvents, (a, b) -> a | b));
            } finally {
                release();
            }
        }
    }

    /** Unparks the threads parked on this descriptor (they retry; a needless wake-up costs one retry). */
    void unparkThreads() {
        for (Thread t : threads) {
            LockSupport.unpark(t);
        }
    }

    /** Unparks the first queued thread, if any. @return whether there was one */
    boolean unparkOne() {
        Thread t = threads.peek();
        if (t != null) {
            LockSupport.unpark(t);
            return true;
        }
        return false;
    }

    /** @return whether readiness futures are queued (a racy hint) */
    boolean hasFutures() {
        return !futures.isEmpty();
    }

    /** @return the readiness futures this cell holds, abandoned ones not yet purged included (for tests) */
    int readyWaiters() {
        return futures.size();
    }

    /**
     * Completes the queued readiness futures if the descriptor is ready, all with the one readiness found,
     * as the in-process pipe does: a callback of an earlier future may drain the pipe, and the later
     * futures must still see the state that made them due. Called by the poller, and by this JVM's
     * reads, writes and closes of the same pipe, so that a change made here completes the futures on the
     * thread that made it.
     *
     * @return whether none is left waiting
     */
    boolean fireFutures() {
        ReadyWaiter<?> first = futures.peek();
        if (first == null) {
            return true;
        }
        if (!tryAcquire()) {
            wakeAll(true);
            return true;
        }
        Object value;
        try {
            value = first.check.apply(this); // every waiter of a cell has the same check
        } finally {
            release();
        }
        if (value == null) {
            return false;
        }
        java.util.ArrayList<ReadyWaiter<?>> due = new java.util.ArrayList<>();
        for (ReadyWaiter<?> w; (w = futures.poll()) != null; ) {
            queuedFutures.decrementAndGet();
            if (w.take()) {
                due.add(w);
            }
        }
        for (ReadyWaiter<?> r : due) {
            complete(r, value); // outside the queue's traversal: a callback may queue new futures
        }
        return true;
    }

    @SuppressWarnings("unchecked")
    private static <T> void complete(ReadyWaiter<T> r, Object value) {
        r.future.complete((T) value);
    }

    /** Wakes every parked thread; with {@code closing}, completes every readiness future as closed. */
    private void wakeAll(boolean closing) {
        for (Thread t : threads) {
            LockSupport.unpark(t);
        }
        if (closing) {
            completeAll();
        }
    }

    private void completeAll() {
        java.util.ArrayList<ReadyWaiter<?>> due = new java.util.ArrayList<>();
        for (ReadyWaiter<?> w; (w = futures.poll()) != null; ) {
            queuedFutures.decrementAndGet();
            if (w.take()) {
                due.add(w);
            }
        }
        for (ReadyWaiter<?> r : due) {
            completeClosed(r);
        }
    }

    private static <T> void completeClosed(ReadyWaiter<T> r) {
        r.future.complete(r.whenClosed);
    }
}
