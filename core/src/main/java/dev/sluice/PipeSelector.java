package dev.sluice;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.ClosedSelectorException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.locks.LockSupport;

/**
 * Waits on many pipe ends at once: the {@code poll(2)} / {@code epoll} analogue for Sluice's ends, in-process
 * and kernel pipes mixed, which a {@link java.nio.channels.Selector} cannot take.
 *
 * <pre>{@code
 * try (PipeSelector selector = PipeSelector.open()) {
 *     for (Pipe p : pipes) {
 *         selector.register(p.reader(), p);                 // readable (or hung up)
 *     }
 *     for (;;) {
 *         for (PipeSelector.Key key : selector.select(Duration.ofSeconds(1))) {
 *             Pipe p = (Pipe) key.attachment();
 *             int n = p.reader().read(buf);                  // will not block: it is readable
 *             ...
 *         }
 *     }
 * }
 * }</pre>
 *
 * <p>A read end is selected when it is readable or hung up (a read would not block), a write end when it is
 * writable or every reader is gone (a write of a page would not block), either when it is closed: what
 * {@link PipeEnd#whenReady()} waits for, reported by {@link Key#readiness()}. Selection is level-triggered,
 * as {@code poll(2)} is: an end that stays ready is selected again by every {@link #select} until it is not.
 *
 * <p><b>Cost.</b> A select looks only at the ends that became ready since the last one, and at those it
 * returned last time, never at the others: each registered end that is not ready waits on its own readiness
 * future ({@link PipeEnd#whenReady()}), which the pipe completes on the change that makes it ready (kernel
 * pipes: the kernel module's epoll thread). With 10,000 ends registered and one ready, a select examines one
 * ({@link #lastExamined()}).
 *
 * <p><b>Threads.</b> One thread at a time selects; any thread may register, cancel, {@link #wakeup()} or
 * {@link #close()}. A selecting thread parks, never holding a monitor, so a virtual thread does not pin its
 * carrier; an interrupt ends its wait with {@link InterruptedIOException} (the status stays set).
 */
public final class PipeSelector implements AutoCloseable {
    private final ConcurrentHashMap<PipeEnd, Key> keys = new ConcurrentHashMap<>();
    /** Keys whose end may be ready: notified by their future, or ready at the last select. */
    private final ConcurrentLinkedQueue<Key> candidates = new ConcurrentLinkedQueue<>();
    private final AtomicBoolean closed = new AtomicBoolean();
    private volatile Thread selecting;
    private volatile boolean wakeup;
    private int examined;

    private PipeSelector() {
    }

    /** {@return a new selector with no end registered} */
    public static PipeSelector open() {
        return new PipeSelector();
    }

    /**
     * Registers an end; it may be selected from the next {@link #select} on.
     *
     * @param end        a read or write end, open
     * @param attachment anything the caller wants back with the key, or null
     * @return the end's key in this selector
     * @throws ClosedChannelException   if {@code end} is closed
     * @throws IllegalArgumentException if {@code end} is already registered with this selector, or is neither a
     *                                  {@link ReadEnd} nor a {@link WriteEnd}
     * @throws ClosedSelectorException  if this selector is closed
     */
    public Key register(PipeEnd end, Object attachment) throws ClosedChannelException {
        Objects.requireNonNull(end, "end is null");
        ensureOpen();
        if (!(end instanceof ReadEnd) && !(end instanceof WriteEnd)) {
            throw new IllegalArgumentException(end.getClass().getName() + " is neither a ReadEnd nor a WriteEnd:"
                    + " a selector waits for a read end to be readable or a write end to be writable");
        }
        if (!end.isOpen()) {
            throw new ClosedChannelException();
        }
        Key k = new Key(end, attachment);
        if (keys.putIfAbsent(end, k) != null) {
            throw new IllegalArgumentException(end + " is already registered with this selector");
        }
        notified(k); // looked at by the next select, which arms it if it is not ready
        return k;
    }

    /**
     * Waits until at least one registered end is ready, {@code timeout} passes, {@link #wakeup()} is called, or
     * the selector is closed, and returns the ready ones (empty on a timeout, a wake-up or a close).
     *
     * @param timeout the longest wait; {@link Duration#ZERO} waits as long as it takes
     * @return the keys of the ready ends, in no particular order
     * @throws InterruptedIOException  if the thread is interrupted while it waits (its status stays set)
     * @throws ClosedSelectorException if this selector is closed
     */
    public Set<Key> select(Duration timeout) throws InterruptedIOException {
        long nanos = dev.sluice.internal.Checks.timeoutNanos(timeout);
        long deadline = nanos == 0 ? 0 : System.nanoTime() + nanos;
        ensureOpen();
        selecting = Thread.currentThread();
        try {
            for (;;) {
                Set<Key> ready = collect();
                if (!ready.isEmpty() || consumeWakeup() || closed.get()) {
                    return ready;
                }
                if (Thread.currentThread().isInterrupted()) {
                    throw new InterruptedIOException("interrupted: select"
                            + " (the thread's interrupt status is still set)");
                }
                if (candidates.isEmpty()) { // recheck after publishing `selecting`: notifiers unpark us
                    if (deadline == 0) {
                        LockSupport.park(this);
                    } else {
                        long left = deadline - System.nanoTime();
                        if (left <= 0) {
                            return Collections.emptySet();
                        }
                        LockSupport.parkNanos(this, left);
                    }
                }
            }
        } finally {
            selecting = null;
        }
    }

    /**
     * {@return the ready ends' keys, without waiting}
     *
     * @throws ClosedSelectorException if this selector is closed
     */
    public Set<Key> selectNow() {
        ensureOpen();
        return collect();
    }

    /** Makes the current (or, if none, the next) {@link #select} return at once. */
    public void wakeup() {
        wakeup = true;
        LockSupport.unpark(selecting);
    }

    /** {@return the registered keys, a snapshot} */
    public Set<Key> keys() {
        return Set.copyOf(keys.values());
    }

    /** {@return how many keys the last select looked at: those notified or ready since the one before} */
    public int lastExamined() {
        return examined;
    }

    /** Cancels every key and ends a select in progress (it returns what it has). Closing twice does nothing. */
    @Override
    public void close() {
        if (closed.compareAndSet(false, true)) {
            for (Key k : keys.values()) {
                k.cancel();
            }
            LockSupport.unpark(selecting);
        }
    }

    /** Looks at each candidate: ready ones are returned and stay candidates (level-triggered), others re-armed. */
    private Set<Key> collect() {
        List<Key> batch = new ArrayList<>();
        for (Key k; (k = candidates.poll()) != null; ) {
            k.queued.set(false);
            batch.add(k);
        }
        examined = batch.size();
        Set<Key> ready = new LinkedHashSet<>();
        for (Key k : batch) {
            if (!k.valid()) {
                continue;
            }
            Readiness r = k.end.poll();
            if (k.readyFor(r)) {
                k.readiness = r;
                ready.add(k);
                if (r.invalid()) {
                    k.cancel(); // a closed end is reported once
                } else {
                    notified(k); // still ready next time unless it changes: look again then
                }
            } else {
                k.arm();
            }
        }
        return ready;
    }

    private void notified(Key k) {
        if (k.queued.compareAndSet(false, true)) {
            candidates.add(k);
            LockSupport.unpark(selecting);
        }
    }

    private boolean consumeWakeup() {
        if (wakeup) {
            wakeup = false;
            return true;
        }
        return false;
    }

    private void ensureOpen() {
        if (closed.get()) {
            throw new ClosedSelectorException();
        }
    }

    /** One end's registration with a selector. */
    public final class Key {
        private final PipeEnd end;
        private final Object attachment;
        private final AtomicBoolean queued = new AtomicBoolean();
        private volatile boolean cancelled;
        private volatile CompletableFuture<Readiness> armed;
        private volatile Readiness readiness = Readiness.ofLinuxPollMask(0);

        private Key(PipeEnd end, Object attachment) {
            this.end = end;
            this.attachment = attachment;
        }

        /** {@return the registered end} */
        public PipeEnd end() {
            return end;
        }

        /** {@return what was registered with the end, or null} */
        public Object attachment() {
            return attachment;
        }

        /** {@return the end's readiness when it was last selected} */
        public Readiness readiness() {
            return readiness;
        }

        /** {@return whether the key is still registered (not cancelled, selector open)} */
        public boolean valid() {
            return !cancelled && !closed.get();
        }

        /** Takes the end out of the selector; its pending readiness future is cancelled and leaves the pipe. */
        public void cancel() {
            cancelled = true;
            keys.remove(end, this);
            CompletableFuture<Readiness> f = armed;
            if (f != null) {
                f.cancel(false);
            }
        }

        private boolean readyFor(Readiness r) {
            return r.invalid() || (end instanceof ReadEnd ? r.readable() || r.hungUp() : r.writable() || r.error());
        }

        /** Waits for the end's next change through its readiness future, which makes the key a candidate. */
        private void arm() {
            CompletableFuture<Readiness> f = end.whenReady();
            armed = f;
            f.thenRun(() -> notified(this));
            if (cancelled) {
                f.cancel(false);
            }
        }

        @Override
        public String toString() {
            return "PipeSelector.Key[" + end + (valid() ? "" : ", cancelled") + "]";
        }
    }
}
