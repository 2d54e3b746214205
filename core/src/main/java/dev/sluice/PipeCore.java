package dev.sluice;

import dev.sluice.ring.Page;
import dev.sluice.ring.PagePool;
import dev.sluice.ring.PageRing;
import dev.sluice.ring.PipeBuffer;
import dev.sluice.sync.WaitQueue;
import dev.sluice.policy.ReaderWakePolicy;
import dev.sluice.policy.WaitDiscipline;
import dev.sluice.policy.WakePolicy;
import dev.sluice.sync.PipeLock;
import dev.sluice.sync.SpinBudget;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.nio.channels.AsynchronousCloseException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The engine of one pipe, shared by all of its ends: the analogue of {@code struct pipe_inode_info} and of
 * {@code pipe_read} / {@code pipe_write} in fs/pipe.c.
 *
 * <p>One lock guards the ring, the reader and writer counts, the counters and the times. Small reads and
 * writes copy while holding it, as the kernel copies under {@code pipe->mutex}; on platform threads a read or
 * write of 16 KiB or more claims its slots under the lock and copies after letting go of it
 * ({@link SlotClaim}), so a reader and a writer copy side by side. Waiting happens outside the lock on
 * two {@link WaitQueue}s, and every wake-up is sent after the lock is released, so the woken thread does
 * not run straight into it. The wake-up rules are Linux's:
 * <ul>
 *   <li>a write wakes one blocked reader if it made an empty pipe non-empty ({@code was_empty}), or on
 *       every write once somebody has polled the pipe ({@code poll_usage}, for edge-triggered users)
 *       ({@link ReaderWakePolicy});</li>
 *   <li>a read wakes one blocked writer as the {@link WakePolicy} says (by default: it freed a slot of a
 *       ring that was full just before);</li>
 *   <li>a woken reader that leaves data behind wakes the next reader, a woken writer that leaves room
 *       wakes the next writer ({@code wake_next_reader} / {@code wake_next_writer});</li>
 *   <li>the last reader or writer to close wakes everybody on both sides.</li>
 * </ul>
 * With {@link WaitDiscipline#BROADCAST} every "wakes one" above wakes all, and there is no baton to pass.
 */
final class PipeCore extends PipePadAfter {
    static final int PAGE = PageRing.PAGE_SIZE;
    private static final AtomicLong IDS = new AtomicLong();

    /** A stable order among pipes, so that splice and tee take two pipes' locks in one order ({@link Splicer}). */
    final long id = IDS.incrementAndGet();

    final PipeOptions options;
    final PipeLock lock;
    final PageRing ring;
    final PagePool pool;
    final WaitQueue rdWait;
    final WaitQueue wrWait;
    final WakePolicy wakePolicy;
    final ReaderWakePolicy readerWakePolicy;
    /** One waiter per wake-up, with the baton passed on (EXCLUSIVE and COALESCING). */
    final boolean exclusive;
    /** No wake-up to a side while one to it is in flight (COALESCING). */
    final boolean coalescing;
    final long spinNanos;
    private final PipeAccounting accounting;
    final boolean timestamps;

    private int accountedPages;

    // Counters, under the lock. Kept in the engine rather than in the ring so the ring stays a pure
    // data structure; contention on them is the lock's, which the operation holds anyway.
    long bytesIn;
    long bytesOut;
    long writeCalls;
    long readCalls;
    private long emptyWakeups;
    private long spunWaits;
    /**
     * The {@link SlotClaim} for the next bulk read, made by the first: taken under the lock, put back without
     * it (hence volatile). Two reads that race for it make one allocate, and one of two put back at once is
     * dropped.
     */
    private volatile SlotClaim spareReadClaim;
    /** The {@link SlotClaim} for the next bulk write, made by the first; under the lock. */
    private SlotClaim spareWriteClaim;

    // Times in epoch milliseconds, under the lock.
    private final long created;
    long atime;
    long mtime;
    long ctime;

    // Readiness futures (the fasync analogue); rarely used, so they have their own lock and a volatile
    // count that lets every read and write skip them with one load.
    private final ReentrantLock readyLock = new ReentrantLock();
    private final ArrayList<PendingReady> pendingReady = new ArrayList<>();
    private volatile int pendingReadyCount;

    private record PendingReady(InProcessEnd end, CompletableFuture<Readiness> future) {
    }

    PipeCore(PipeOptions options) {
        this.options = options;
        this.accounting = options.accounting();
        this.timestamps = options.timestamps();
        this.lock = PipeLock.of(options.lockStrategy(), options.spinBeforeParkNanos());
        this.wakePolicy = options.wakePolicy();
        this.readerWakePolicy = options.readerWakePolicy();
        this.exclusive = options.waitDiscipline() != WaitDiscipline.BROADCAST;
        this.coalescing = options.waitDiscipline() == WaitDiscipline.COALESCING;
        this.spinNanos = options.spinBeforeParkNanos();
        this.rdWait = new WaitQueue(options.spinPolicy());
        this.wrWait = new WaitQueue(options.spinPolicy());
        int slots = options.capacity() / PAGE;
        if (accounting != null) {
            slots = accounting.chargeOpen(slots);
        }
        this.accountedPages = slots;
        this.pool = new PagePool(options.poolPages() < 0 ? defaultPoolPages(slots) : options.poolPages(),
                options.pageMemory() == PageMemory.DIRECT);
        this.ring = new PageRing(slots, pool);
        this.readers = 1;
        this.writers = 1;
        this.created = System.currentTimeMillis();
        this.atime = created;
        this.mtime = created;
        this.ctime = created;
    }

    /**
     * The default pool: two pages for every slot. While a reader copies out the slots it claimed
     * ({@link SlotClaim}), the writer already fills them again with other pages, so a stream that keeps the
     * ring full cycles through up to twice the ring's pages; a smaller pool would drop and reallocate them.
     */
    static int defaultPoolPages(int slots) {
        return 2 * slots;
    }

    void lock() {
        lock.lock();
    }

    /** Publishes the ring's indices to lock-free waiters, then releases the lock: every unlock goes here. */
    void unlock() {
        ring.publish();
        lock.unlock();
    }

    /**
     * Wakes one waiter of {@code q}, all of them under {@link WaitDiscipline#BROADCAST}, or, under
     * {@link WaitDiscipline#COALESCING}, one unless a thread woken earlier has yet to look. Called after the
     * state change it announces has been published (the pipe's lock released).
     */
    void wake(WaitQueue q) {
        if (exclusive) {
            wakeNext(q); // one waiter, or none while one is in flight (coalescing)
        } else {
            q.wakeAll();
        }
    }

    /**
     * Passes the baton ({@code wake_next_reader} / {@code wake_next_writer}): a woken thread that leaves data
     * or room behind wakes the next waiter of its side, unless, coalescing, a wake-up is already in flight.
     */
    void wakeNext(WaitQueue q) {
        if (coalescing) {
            q.wakeOneUnlessInFlight();
        } else {
            q.wakeOne();
        }
    }

    // ---- lock-free predicates (the kernel's pipe_readable / pipe_writable) ---------------------------

    boolean readable(InProcessReadEnd end) {
        return !readHeld && (PageRing.occupancyOf(ring.index()) != 0 || writers == 0) || end.closed;
    }

    /**
     * For a reader whose spins keep running into the lock held by a writer of small chunks
     * ({@link SpinBudget#batching()}): spins, without taking the lock, until a page or more is queued (one
     * slot and the start of another: the lock-free index counts slots, not bytes), for at most the pipe's
     * spin, looking at the index's cache line only every eighth pause so the writer keeps it. Without this
     * the reader takes each write's bytes as they land and the two trade the lock and the cache lines write
     * by write, or the reader parks and the writer pays an unpark for nearly every one of its sleeps.
     * Measured (CounterProbe, JMH, idle 2-core VM, 100-byte writes, adaptive 20 µs): 0.7-1.0 GB/s became
     * 1.4-1.6 GB/s, reader parks 650k to 1.5k per 2 GB; 4 KiB, 64 KiB and ping-pong within the noise. A spin
     * that runs out (the writer is slow, so latency matters more than batching) ends the batching, and the
     * reader takes what is there: it never waits longer than one spin for a page that does not come.
     *
     * @return whether there is something to read now (a page, less when the spin ran out, or end-of-stream)
     */
    private boolean spinForPage(InProcessReadEnd end, long deadline) {
        if (spinNanos <= 0 || Thread.currentThread().isVirtual()) {
            return false;
        }
        // The index's cache line is looked at every eighth pause, not on every one, so the writer keeps it.
        if (!WaitQueue.spinUntil(end.pageCheck, spinNanos, deadline, 7)) {
            rdWait.spinBudget().batchRanOut(); // the writer is slow: latency matters more now
        }
        return readable(end);
    }

    /** Whether a page or more is queued, or waiting for it is pointless: the reader's spin in batching. */
    boolean pageQueued(InProcessReadEnd end) {
        return PageRing.occupancyOf(ring.index()) >= 2 || writers == 0 || end.closed || readHeld;
    }

    boolean writable(InProcessWriteEnd end) {
        return PageRing.occupancyOf(ring.index()) < ring.maxUsage() || readers == 0 || end.closed;
    }

    // ---- write (pipe_write) -------------------------------------------------------------------------

    /**
     * Writes {@code total} bytes from {@code src} (see {@link Transfer}). Blocking: returns only when all
     * are in the pipe. Nonblocking: stores what fits without waiting, where a write of at most
     * {@link Pipe#PIPE_BUF} bytes stores all or nothing.
     */
    long write(InProcessWriteEnd end, Object src, int base, int count, long total) throws IOException {
        end.ensureOpen();
        if (total == 0) {
            return 0; // Linux: a zero-length write returns 0 before looking at readers (no EPIPE)
        }
        final boolean nonBlocking = end.nonBlocking;
        final int flags = end.packetMode ? PipeBuffer.FLAG_PACKET : PipeBuffer.FLAG_CAN_MERGE;
        final long timeout = end.timeoutNanos;
        long deadline = 0;
        long done = 0;
        long storedBeforeSleep = 0; // bytes stored before the last sleep: their readers were woken then
        boolean wasEmpty = false;
        boolean wakeNextWriter = false;
        IOException failure = null;

        lock();
        try {
            if (end.closed) {
                // Closed by another thread since ensureOpen: the close came first, so nothing may be stored
                // (were it the last writer, readers may already have seen end-of-stream).
                throw new AsynchronousCloseException();
            }
            if (readers == 0) {
                failure = broken(0);
            } else {
                wasEmpty = ring.isEmpty();
                // Merge the sub-page remainder into the newest page if it fits, so that small writes share
                // pages and the rest of a large write lands page-aligned. Only tried on entry: after a sleep
                // the data goes to a fresh slot, which keeps a write of <= PIPE_BUF bytes contiguous.
                // As in Linux's pipe_write, only the newest page's flag decides, not this writer's mode: a
                // packet-mode write may append to a page that a normal write left mergeable (packet pages
                // never are), so its bytes join that page instead of forming a packet.
                int chars = (int) (total & (PAGE - 1));
                if (chars != 0) {
                    PipeBuffer last = ring.mergeTarget(chars);
                    if (last != null) {
                        Transfer.copyIn(src, base, count, 0, last.ref(), last.offset() + last.length(), chars);
                        ring.merged(last, chars);
                        done = chars;
                    }
                }
                while (done < total) {
                    if (readers == 0) {
                        failure = broken(done);
                        break;
                    }
                    int free = ring.maxUsage() - ring.occupancy();
                    int k = SlotClaim.writable(free, total - done);
                    if (k > 0) {
                        // Reserve the slots, copy into fresh pages without the lock (SlotClaim).
                        // Readers that may be asleep on what this write stored so far are woken first.
                        boolean wakeReaders = done > storedBeforeSleep && wasEmpty
                                && readerWakePolicy.wakeReader(true, pollUsed);
                        if (wakeReaders) {
                            wasEmpty = false;
                            storedBeforeSleep = done;
                        }
                        long stored = writeClaimed(end, src, base, count, done, total - done, k, flags, wakeReaders);
                        if (stored > 0) {
                            done += stored;
                            wasEmpty |= claimFoundEmpty;
                        }
                        if (readers == 0) {
                            failure = broken(done);
                            break;
                        }
                        if (end.closed) {
                            // Closed by another thread during the copy. If it was the last write end, readers
                            // may have seen end-of-stream and nothing may follow it: the bytes were dropped.
                            if (done == 0) {
                                failure = new AsynchronousCloseException();
                            }
                            break;
                        }
                        continue;
                    }
                    if (!ring.isFull()) {
                        Page page = ring.takePage();
                        int n = (int) Math.min(PAGE, total - done);
                        // Copy first, publish after: no reader ever sees a slot that is not filled.
                        Transfer.copyIn(src, base, count, done, page, 0, n);
                        ring.push(page, n, flags);
                        done += n;
                        continue;
                    }
                    if (nonBlocking) {
                        break; // partial count, or 0 for EAGAIN
                    }
                    if (Thread.currentThread().isInterrupted()) {
                        failure = interrupted("write to a full pipe", done);
                        break;
                    }
                    if (timeout > 0) {
                        if (deadline == 0) {
                            deadline = deadlineAfter(timeout);
                        } else if (System.nanoTime() - deadline >= 0) {
                            failure = new PipeTimeoutException("write timed out on a full pipe", clamp(done));
                            break;
                        }
                    }
                    WaitQueue.Outcome outcome;
                    // What this writer needs to make progress, for a policy that wakes writers by need.
                    int need = wakePolicy.usesWriterNeed()
                            ? WakePolicy.writerNeed(total - done, ring.maxUsage(), PAGE) : 0;
                    boolean wakeReaders = done > storedBeforeSleep && readerWakePolicy.wakeReader(wasEmpty, pollUsed);
                    unlock();
                    try {
                        if (wakeReaders) {
                            wake(rdWait); // what we stored so far must not wait for our return
                        }
                        fireReadiness();
                        outcome = wrWait.await(end.writableCheck, deadline, need, spinNanos);
                    } finally {
                        lock();
                    }
                    countWait(wrWait, outcome, ring.isFull() && readers != 0 && !end.closed);
                    // Set before the closed check: a woken writer that gives up still passes on the room it
                    // was woken for (under COALESCING a waker may have counted on it to look).
                    wakeNextWriter = exclusive && outcome != WaitQueue.Outcome.SPUN;
                    if (end.closed) {
                        // The close of this handle came first, whatever happened to the readers since.
                        if (done == 0) {
                            failure = new AsynchronousCloseException();
                        }
                        break; // a partial count is returned; the next call sees the closed end
                    }
                    wasEmpty = ring.isEmpty();
                    storedBeforeSleep = done;
                }
                if (ring.isFull()) {
                    wakeNextWriter = false;
                }
                writeCalls++;
                if (done > 0) {
                    bytesIn += done;
                    if (timestamps) {
                        mtime = ctime = System.currentTimeMillis();
                    }
                }
            }
        } finally {
            unlock();
        }
        if (done > 0 && readerWakePolicy.wakeReader(wasEmpty, pollUsed)) {
            wake(rdWait);
        }
        if (wakeNextWriter) {
            wakeNext(wrWait);
        }
        fireReadiness();
        if (failure != null) {
            throw failure;
        }
        return done;
    }

    // ---- read (pipe_read) ---------------------------------------------------------------------------

    /**
     * Reads up to {@code total} bytes into {@code dst}. Returns -1 at end-of-stream (empty, no writers),
     * 0 if nonblocking and empty; otherwise waits for at least one byte and returns what is there, never
     * waiting to fill the buffer.
     */
    long read(InProcessReadEnd end, Object dst, int base, int count, long total) throws IOException {
        end.ensureOpen();
        if (total == 0) {
            return 0;
        }
        final boolean nonBlocking = end.nonBlocking;
        final long timeout = end.timeoutNanos;
        long deadline = 0;
        long done = 0;
        boolean eof = false;
        boolean wakeWriter = false;
        boolean wakeNextReader = false;
        IOException failure = null;
        SlotClaim claim = null;
        long claimAt = 0;

        lock();
        try {
            if (end.closed) {
                throw new AsynchronousCloseException(); // closed by another thread since ensureOpen
            }
            // FULL_AT_START (Linux 5.5-6.13) samples "full" when the read starts and after every sleep.
            boolean fullAtStart = ring.isFull();
            int writerNeed = -1; // fetched once, on the first freed slot, by a policy that wakes by need
            for (;;) {
                if (!ring.isEmpty() && !readHeld) {
                    int claimable = SlotClaim.claimable(ring, total - done);
                    if (claimable > 0) {
                        // Whole slots, and maybe the start of one more: take them off the ring now, copy
                        // them after letting go of the lock (SlotClaim). They are all this read takes.
                        claim = takeReadClaim();
                        claimAt = done;
                        wakeWriter |= claimForRead(claim, claimable, total - done,
                                writerNeed < 0 ? writerNeed() : writerNeed);
                        done += claim.bytes();
                        break;
                    }
                    PipeBuffer buf = ring.tailBuffer();
                    int chars = (int) Math.min(buf.length(), total - done);
                    boolean packet = buf.isPacket();
                    if (buf.isGift()) {
                        // A writer's gift: maybe direct memory, and the giver may have broken the rule.
                        if (buf.ref().giftReused()) {
                            if (done > 0) {
                                break; // deliver what this read has; the next read reports the broken gift
                            }
                            failure = Gifts.reused(buf);
                            chars = buf.length(); // the bytes cannot be trusted: drop the slot, loudly
                            packet = true; // and stop this read after dropping it
                        } else {
                            Gifts.copyOut(buf, dst, base, count, done, chars);
                            done += chars;
                        }
                    } else {
                        Transfer.copyOut(buf, dst, base, count, done, chars);
                        done += chars;
                    }
                    ring.consumed(buf, chars);
                    if (packet) {
                        ring.discardRest(buf); // one packet per read; what did not fit is gone, as on Linux
                    }
                    if (buf.length() == 0) {
                        if (writerNeed < 0) {
                            writerNeed = writerNeed();
                        }
                        wakeWriter |= wakePolicy.wakeOnFree(ring.occupancy(), ring.maxUsage(), writerNeed);
                        ring.releaseTail();
                    }
                    if (packet || done == total) {
                        break;
                    }
                    continue;
                }
                if (writers == 0 && !readHeld) {
                    eof = done == 0;
                    break;
                }
                if (done > 0 || nonBlocking) {
                    break; // never wait once we have data; EAGAIN as 0 when nonblocking
                }
                if (Thread.currentThread().isInterrupted()) {
                    failure = interrupted("read from an empty pipe", 0);
                    break;
                }
                if (timeout > 0) {
                    if (deadline == 0) {
                        deadline = deadlineAfter(timeout);
                    } else if (System.nanoTime() - deadline >= 0) {
                        failure = new PipeTimeoutException("read timed out on an empty pipe", 0);
                        break;
                    }
                }
                WaitQueue.Outcome outcome;
                unlock();
                try {
                    fireReadiness();
                    // A reader that keeps trading the lock with a writer of small chunks first waits, spinning,
                    // for a page: the writer then runs on alone and the reader takes a batch (spinForPage).
                    outcome = rdWait.spinBudget().batching() && spinForPage(end, deadline)
                            ? WaitQueue.Outcome.SPUN
                            : rdWait.await(end.readableCheck, deadline, 0, spinNanos);
                } finally {
                    lock();
                }
                countWait(rdWait, outcome, ring.isEmpty() && writers != 0 && !end.closed);
                // Before the closed check, as in write: a reader that gives up passes on the data it was
                // woken for.
                wakeNextReader = exclusive && outcome != WaitQueue.Outcome.SPUN;
                if (end.closed) {
                    failure = new AsynchronousCloseException();
                    break;
                }
                fullAtStart = ring.isFull();
            }
            if (ring.isEmpty()) {
                wakeNextReader = false;
            }
            if (fullAtStart && wakePolicy.wakeIfFullAtStart()) {
                wakeWriter = true;
            }
            readCalls++;
            if (done > 0) {
                bytesOut += done;
                if (timestamps) {
                    atime = System.currentTimeMillis();
                }
            }
        } finally {
            unlock();
        }
        if (wakeWriter) {
            wake(wrWait); // before the claim's copy: the writer fills the freed room meanwhile
        }
        if (wakeNextReader) {
            wakeNext(rdWait);
        }
        fireReadiness();
        if (claim != null) {
            copyClaimed(claim, dst, base, count, claimAt);
        }
        if (failure != null) {
            throw failure;
        }
        return eof ? -1 : done;
    }

    // ---- copies without the lock (SlotClaim), kept out of line so the small calls' paths stay compact ----

    /** Whether the ring was empty when {@link #writeClaimed} published (a reader may be asleep); under the lock. */
    private boolean claimFoundEmpty;

    /**
     * With the lock held, and held again on return: reserves {@code slots} slots for the next bytes of a
     * write ({@code left} to go, {@code done} in), copies them into fresh pages without the lock and
     * publishes them, unless every read end closed meanwhile, or this end did and it was the last write
     * end (readers may have seen end-of-stream): then the pages are dropped, as nobody can ever read them.
     *
     * @return the bytes published, 0 if dropped; {@link #claimFoundEmpty} says whether the ring was empty then
     */
    private long writeClaimed(InProcessWriteEnd end, Object src, int base, int count, long done, long left,
                              int slots, int flags, boolean wakeReaders) {
        SlotClaim claim = spareWriteClaim != null ? spareWriteClaim : new SlotClaim();
        spareWriteClaim = null;
        ring.reserve(slots);
        claim.fill(ring, slots, left);
        boolean copied = false;
        unlock();
        try {
            if (wakeReaders) {
                wake(rdWait);
            }
            claim.copyFrom(src, base, count, done);
            copied = true;
        } finally {
            lock();
            ring.unreserve(slots);
            spareWriteClaim = claim;
        }
        long stored = 0;
        if (!copied || readers == 0 || (end.closed && writers == 0)) {
            claim.drop(ring);
        } else {
            claimFoundEmpty = ring.isEmpty();
            stored = claim.bytes();
            claim.push(ring, flags);
        }
        return stored;
    }

    /**
     * With the lock held: moves {@code slots} whole slots from the tail into {@code claim}, and the start of
     * the next one if the read ({@code max} bytes) ends inside it.
     *
     * @return whether a freed slot calls for waking a writer ({@link WakePolicy#wakeOnFree})
     */
    private boolean claimForRead(SlotClaim claim, int slots, long max, int writerNeed) {
        boolean wakeWriter = false;
        for (int i = 0; i < slots; i++) {
            wakeWriter |= wakePolicy.wakeOnFree(ring.occupancy(), ring.maxUsage(), writerNeed);
            claim.take(ring);
        }
        long left = max - claim.bytes();
        if (left > 0 && !ring.isEmpty()) {
            claim.takePart(ring, (int) left); // less than the tail slot holds (claimable)
        }
        return wakeWriter;
    }

    /** Without the lock: copies a read's claim to the caller, then lets go of its pages and of the claim. */
    private void copyClaimed(SlotClaim claim, Object dst, int base, int count, long at) {
        try {
            claim.copyTo(dst, base, count, at);
        } finally {
            claim.recycleUnlocked(ring);
            spareReadClaim = claim;
        }
    }

    /** Under the lock: the spare read claim, or a new one while another read is still copying with it. */
    private SlotClaim takeReadClaim() {
        SlotClaim c = spareReadClaim;
        if (c == null) {
            return new SlotClaim();
        }
        spareReadClaim = null;
        return c;
    }

    /** Under the lock: what the longest-waiting writer needs, for a policy that wakes writers by need; else 0. */
    private int writerNeed() {
        return wakePolicy.usesWriterNeed() ? wrWait.firstTag() : 0;
    }

    /** Counts, under the lock, what a wait ended with; {@code stillBlocked}: the woken thread must wait again. */
    void countWait(WaitQueue q, WaitQueue.Outcome outcome, boolean stillBlocked) {
        if (outcome == WaitQueue.Outcome.SPUN) {
            spunWaits++;
            // A reader whose spin saw data but then had to wait for the lock, to find less than a page, is
            // trading the lock with a writer of small chunks write by write: parking would have let the
            // writer batch (100-byte streaming). With a page or more waiting, the spin did its job: counting
            // those as failures made 4 KiB and 64 KiB streams park a third of their waits (measured ×1.5-1.6
            // slower, CounterProbe, idle 2-core VM). A writer's spin always finds at least a page of room.
            boolean sliver = q == rdWait && ring.queuedBytes() < PAGE;
            q.spinBudget().spunIntoLock(lock.lastContended() && sliver);
        } else if (outcome == WaitQueue.Outcome.WOKEN && stillBlocked) {
            emptyWakeups++;
        }
    }

    static long deadlineAfter(long timeoutNanos) {
        long d = System.nanoTime() + timeoutNanos;
        return d == 0 ? 1 : d; // 0 means "no deadline" to the wait queue
    }

    static int clamp(long n) {
        return (int) Math.min(n, Integer.MAX_VALUE);
    }

    static BrokenPipeException broken(long done) {
        return new BrokenPipeException(done == 0 ? "broken pipe: every read end is closed"
                : "broken pipe: every read end closed after " + done + " bytes of this write", done);
    }

    static InterruptedIOException interrupted(String what, long done) {
        InterruptedIOException e = new InterruptedIOException("interrupted: " + what
                + (done > 0 ? " after " + done + " bytes" : "") + " (the thread's interrupt status is still set)");
        e.bytesTransferred = clamp(done);
        return e;
    }

    // ---- handles ------------------------------------------------------------------------------------

    InProcessReadEnd dupReader(InProcessReadEnd from) throws IOException {
        lock();
        try {
            from.ensureOpen();
            readers++;
        } finally {
            unlock();
        }
        return new InProcessReadEnd(this, from);
    }

    InProcessWriteEnd dupWriter(InProcessWriteEnd from) throws IOException {
        lock();
        try {
            from.ensureOpen();
            writers++;
        } finally {
            unlock();
        }
        return new InProcessWriteEnd(this, from);
    }

    /** Closes one handle; the last of a side wakes everybody on both sides (Linux 6551d5c56eb0). */
    void close(InProcessEnd end) {
        boolean lastOfSide;
        lock();
        try {
            if (end.closed) {
                return; // closing twice is a no-op
            }
            end.closed = true;
            if (end instanceof InProcessReadEnd) {
                lastOfSide = --readers == 0;
            } else {
                lastOfSide = --writers == 0;
            }
            if (readers == 0 && writers == 0) {
                ring.drainAll();
                if (accounting != null) {
                    accounting.release(accountedPages);
                    accountedPages = 0;
                }
            }
        } finally {
            unlock();
        }
        // Threads blocked on this very handle must see it closed, so wake its side even when other
        // handles remain; a close is rare, and a woken thread that still has to wait just waits again.
        if (lastOfSide || end instanceof InProcessReadEnd) {
            rdWait.wakeAll();
        }
        if (lastOfSide || end instanceof InProcessWriteEnd) {
            wrWait.wakeAll();
        }
        fireReadiness();
    }

    // ---- capacity (F_GETPIPE_SZ / F_SETPIPE_SZ) and FIONREAD ----------------------------------------

    int capacity() {
        return ring.capacity() * PAGE;
    }

    int setCapacity(int bytes) {
        int size = InProcessPipe.roundCapacity(bytes, PipeOptions.ABSOLUTE_MAX_CAPACITY, "capacity");
        int slots = size / PAGE;
        lock();
        try {
            if (readers == 0 && writers == 0) {
                throw new IllegalStateException("pipe is closed on both sides");
            }
            int current = ring.capacity();
            if (slots > current && size > options.maxCapacity()) {
                throw new IllegalArgumentException("capacity " + bytes + " (rounded to " + size
                        + ") exceeds this pipe's maxCapacity of " + options.maxCapacity()
                        + " bytes (Linux: EPERM over pipe-max-size); raise PipeOptions.maxCapacity");
            }
            if (slots < ring.occupancy() + ring.reserved()) {
                throw new IllegalStateException("pipe holds " + ring.occupancy() + " pages of data; cannot shrink to "
                        + slots + " pages (" + size + " bytes) until it is read (Linux: EBUSY)");
            }
            if (accounting != null) {
                accounting.recharge(accountedPages, slots);
                accountedPages = slots;
            }
            ring.resize(slots);
            if (options.poolPages() < 0) {
                pool.setLimit(defaultPoolPages(slots));
            }
        } finally {
            unlock();
        }
        wake(wrWait); // more room may exist now (pipe_resize_ring); the baton carries it further
        fireReadiness();
        return slots * PAGE;
    }

    int available() {
        lock();
        try {
            return clamp(ring.queuedBytes());
        } finally {
            unlock();
        }
    }

    // ---- readiness (poll and the fasync analogue) ---------------------------------------------------

    Readiness poll(InProcessEnd end) {
        pollUsed = true;
        return readinessOf(end);
    }

    private Readiness readinessOf(InProcessEnd end) {
        if (end.closed) {
            return Readiness.of(Readiness.NVAL);
        }
        int occ = PageRing.occupancyOf(ring.index());
        int bits = 0;
        if (end instanceof InProcessReadEnd) {
            boolean heldData = occ != 0 && readHeld;
            if (occ != 0 && !heldData) {
                bits |= Readiness.IN;
            }
            // Held by a transfer, with data still in the pipe, it is not at end-of-stream yet either: a poller
            // that saw HUP without IN would take it for EOF and miss what the channel leaves behind. Both come
            // back when the transfer lets go (ChannelTransfer.consume fires readiness).
            if (writers == 0 && !heldData) {
                bits |= Readiness.HUP;
            }
        } else {
            if (occ < ring.maxUsage()) {
                bits |= Readiness.OUT;
            }
            if (readers == 0) {
                bits |= Readiness.ERR;
            }
        }
        return Readiness.of(bits);
    }

    private static boolean ready(InProcessEnd end, Readiness r) {
        return r.invalid() || (end instanceof InProcessReadEnd ? r.readable() || r.hungUp() : r.writable() || r.error());
    }

    CompletableFuture<Readiness> whenReady(InProcessEnd end) {
        pollUsed = true;
        CompletableFuture<Readiness> f = new CompletableFuture<>();
        readyLock.lock();
        try {
            pendingReady.add(new PendingReady(end, f));
            pendingReadyCount = pendingReady.size(); // volatile write before the state is (re)checked
        } finally {
            readyLock.unlock();
        }
        fireReadiness();
        return f;
    }

    /** Completes the readiness futures whose end is ready now; called after every state change. */
    void fireReadiness() {
        if (pendingReadyCount == 0) {
            return;
        }
        ArrayList<PendingReady> due = null;
        ArrayList<Readiness> values = null;
        readyLock.lock();
        try {
            for (int i = pendingReady.size() - 1; i >= 0; i--) {
                PendingReady p = pendingReady.get(i);
                Readiness r = readinessOf(p.end);
                if (p.future.isDone() || ready(p.end, r)) {
                    if (due == null) {
                        due = new ArrayList<>();
                        values = new ArrayList<>();
                    }
                    due.add(p);
                    values.add(r);
                    pendingReady.remove(i);
                }
            }
            pendingReadyCount = pendingReady.size();
        } finally {
            readyLock.unlock();
        }
        if (due != null) {
            // Completed outside every lock: callbacks run on this thread and may call into the pipe.
            // Each future gets the readiness that was found ready, not a fresh look: an earlier future's
            // callback may already have drained or filled the pipe.
            for (int i = 0; i < due.size(); i++) {
                due.get(i).future.complete(values.get(i));
            }
        }
    }

    // ---- stat and counters --------------------------------------------------------------------------

    PipeStat stat() {
        lock();
        try {
            return new PipeStat(ring.capacity() * PAGE, ring.size(), ring.occupancy(), ring.queuedBytes(),
                    readers, writers, Instant.ofEpochMilli(atime), Instant.ofEpochMilli(mtime),
                    Instant.ofEpochMilli(ctime));
        } finally {
            unlock();
        }
    }

    PipeCounters counters() {
        lock();
        try {
            return new PipeCounters(bytesIn, bytesOut, writeCalls, readCalls, rdWait.waits(), wrWait.waits(),
                    rdWait.wakeups(), wrWait.wakeups(), emptyWakeups, spunWaits, lock.contended(), pool.hits(),
                    pool.allocations(), ring.peakOccupancy());
        } finally {
            unlock();
        }
    }

    void resetCounters() {
        lock();
        try {
            bytesIn = bytesOut = writeCalls = readCalls = emptyWakeups = spunWaits = 0;
            lock.resetContended();
            pool.resetCounters();
            ring.resetPeak();
        } finally {
            unlock();
        }
        // Outside the pipe's lock: nothing that can block may run inside it (with a spin lock, a holder
        // parked on another lock would leave every other thread spinning).
        rdWait.resetCounters();
        wrWait.resetCounters();
    }
}
