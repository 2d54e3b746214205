package dev.sluice.internal.engine;

import dev.sluice.PageMemory;
import dev.sluice.PipeCounters;
import dev.sluice.PipeOptions;
import dev.sluice.PipeStat;
import dev.sluice.Readiness;
import dev.sluice.internal.Checks;
import dev.sluice.internal.jfr.Flight;
import dev.sluice.internal.ring.Page;
import dev.sluice.internal.ring.PagePool;
import dev.sluice.internal.ring.PageRing;
import dev.sluice.internal.ring.PipeBuffer;
import dev.sluice.internal.sync.SpinBudget;
import dev.sluice.internal.sync.WaitQueue;
import dev.sluice.policy.ReaderWakePolicy;
import dev.sluice.policy.WaitDiscipline;
import dev.sluice.policy.WakePolicy;
import java.io.IOException;
import java.nio.channels.AsynchronousCloseException;
import java.time.Instant;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.Lock;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The state of one in-process pipe, shared by all of its ends, and the operations on it: the analogue of
 * {@code struct pipe_inode_info}, and of the fast paths of {@code pipe_read} / {@code pipe_write} in
 * fs/pipe.c. Every field is private; the operations that wait ({@link Call} and its subclasses, run by
 * {@link Blocking}) reach the state through the methods below, which say whether they need the lock.
 *
 * <p>One lock guards the ring, the handle counts, the counters and the times. A read or write that can
 * finish without waiting and without copying outside the lock is one pass here ({@link #write},
 * {@link #read}): lock, copy, unlock, then a wake-up if somebody waits. Everything else (waiting, bulk copies
 * beside the other side, errors) goes to the one blocking protocol ({@link Blocking}). Wake-ups are decided
 * under the lock and sent after it is released, so the woken thread does not run straight into it. The
 * rules are Linux's:
 * <ul>
 *   <li>a write wakes one blocked reader if it made an empty pipe non-empty ({@code was_empty}), or on every
 *       write once somebody has polled the pipe ({@code poll_usage}) ({@link ReaderWakePolicy});</li>
 *   <li>a read wakes one blocked writer as the {@link WakePolicy} says (by default: it freed a slot of a ring
 *       that was full just before);</li>
 *   <li>a woken thread that leaves data or room behind passes the wake-up on ({@code wake_next_reader} /
 *       {@code wake_next_writer}), as its {@link WaitDiscipline} says;</li>
 *   <li>the last reader or writer to close wakes everybody on both sides.</li>
 * </ul>
 */
public final class PipeCore extends PipePadAfter {
    static final int PAGE = PageRing.PAGE_SIZE;
    /** The largest write the fast path takes: below {@link SlotClaim#MIN_BYTES}, writes never claim. */
    private static final long FAST_WRITE_MAX = SlotClaim.MIN_BYTES - 1;
    private static final AtomicLong IDS = new AtomicLong();
    // Linux's poll bits, as Readiness.ofLinuxPollMask reads them.
    private static final int POLLIN = 0x001;
    private static final int POLLOUT = 0x004;
    private static final int POLLERR = 0x008;
    private static final int POLLHUP = 0x010;
    private static final int POLLNVAL = 0x020;

    /** A stable order among pipes, so that two-pipe calls take both locks in one order ({@link Call#lockAll}). */
    private final long id = IDS.incrementAndGet();
    private final PipeOptions options;
    private final Lock lock;
    private final PageRing ring;
    private final PagePool pool;
    private final WaitQueue rdWait;
    private final WaitQueue wrWait;
    private final WakePolicy wakePolicy;
    private final ReaderWakePolicy readerWakePolicy;
    private final WaitDiscipline discipline;
    private final long spinNanos;
    /** A batching platform reader's nap ({@link #napForBatch}): {@value #NAP_SPINS} spins; tests lengthen it. */
    private long napNanos;
    private final boolean timestamps;
    private final PageCharging charging;
    private int chargedPages;

    // Counters, under the lock: the operation holds it anyway.
    private long bytesIn;
    private long bytesOut;
    private long writeCalls;
    private long readCalls;
    private long emptyWakeups;
    private long spunWaits;
    private long contended;
    /**
     * Under the lock: the last lock found it held. Stored only when it changes: it shares a line with the
     * engine's references, which every call of either side reads first (docs/performance.md, "A lock stores
     * nothing the other side reads").
     */
    private boolean lastContended;

    /**
     * Under the lock: a write owed the napping reader a wake-up and held it back for the batch. Stored only
     * when it changes, as the line it shares with the engine's references is read by the other side.
     */
    private boolean wakeDeferred;

    // Times in epoch milliseconds, under the lock.
    private final long created;
    private long atime;
    private long mtime;
    private long ctime;

    private final ReadyFutures ready = new ReadyFutures();
    /** Calls parked between attempts keep one of these each; steady blocking allocates nothing. */
    private final Spares<ReadCall> spareReads = new Spares<>();
    private final Spares<WriteCall> spareWrites = new Spares<>();
    private final Spares<SpliceCall> spareSplices = new Spares<>();

    /**
     * @param options  the pipe's options
     * @param charging the shared page account to charge, or null
     */
    PipeCore(PipeOptions options, PageCharging charging) {
        this.options = options;
        this.charging = charging;
        this.timestamps = options.timestamps();
        this.spinNanos = options.spinBeforePark().toNanos();
        this.napNanos = NAP_SPINS * Math.max(spinNanos, 1);
        this.lock = options.lockStrategy().newLock(options.spinBeforePark());
        this.wakePolicy = options.wakePolicy();
        this.readerWakePolicy = options.readerWakePolicy();
        this.discipline = options.waitDiscipline();
        this.rdWait = new WaitQueue(options.spinPolicy());
        this.wrWait = new WaitQueue(options.spinPolicy());
        int slots = options.capacity() / PAGE;
        if (charging != null) {
            slots = charging.chargeOpen(slots);
        }
        this.chargedPages = slots;
        this.pool = new PagePool(options.poolPages() < 0 ? defaultPoolPages(slots) : options.poolPages(),
                options.pageMemory() == PageMemory.DIRECT, options.poolRotation());
        this.ring = new PageRing(slots, pool);
        setReaders(1);
        setWriters(1);
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

    PipeOptions options() {
        return options;
    }

    long id() {
        return id;
    }

    // ---- the lock -------------------------------------------------------------------------------------

    /** Takes the lock, counting an acquisition that found it held (the 2023 spinlock-versus-mutex number). */
    void lock() {
        if (!tryLock()) {
            lock.lock();
            contended++;
            lastContended = true;
        }
    }

    /** @return whether the lock was free and is now held (the second lock of a two-pipe call) */
    boolean tryLock() {
        if (lock.tryLock()) {
            if (lastContended) {
                lastContended = false;
            }
            return true;
        }
        return false;
    }

    /** Publishes the ring's indices to lock-free waiters, then releases the lock: every unlock goes here. */
    void unlock() {
        ring.publish();
        lock.unlock();
    }

    // ---- wake-ups (after the lock is released) --------------------------------------------------------

    /** A change gave the readers data (or end-of-stream): wake them as the discipline says. */
    void wakeReaders() {
        int n = rdWait.wake(discipline);
        if (n > 0) {
            Flight.woke(id, true, n);
        }
    }

    /** A change gave the writers room: wake them as the discipline says. */
    void wakeWriters() {
        int n = wrWait.wake(discipline);
        if (n > 0) {
            Flight.woke(id, false, n);
        }
    }

    /** A woken reader leaves data behind: the baton. */
    void passToReaders() {
        int n = rdWait.passOn(discipline);
        if (n > 0) {
            Flight.woke(id, true, n);
        }
    }

    /** A woken writer leaves room behind: the baton. */
    void passToWriters() {
        int n = wrWait.passOn(discipline);
        if (n > 0) {
            Flight.woke(id, false, n);
        }
    }

    // ---- lock-free predicates (the kernel's pipe_readable / pipe_writable) ----------------------------

    /** For waiting readers, without the lock: data not held by a transfer, end-of-stream, or own close. */
    boolean readable(InProcessReadEnd end) {
        return !readHeld() && (PageRing.occupancyOf(ring.index()) != 0 || writers() == 0) || end.isClosed();
    }

    /** For waiting writers, without the lock: a free slot, no readers left, or own close. */
    boolean writable(InProcessWriteEnd end) {
        return PageRing.occupancyOf(ring.index()) < ring.maxUsage() || readers() == 0 || end.isClosed();
    }

    /**
     * Whether a batch is queued, or waiting for one is pointless: what a batching virtual reader yields for
     * ({@link #yieldForBatch}). A batch is half the ring, at least 2 slots and at most 8 (32 KiB): with 8 of the
     * default 16, 100-byte streaming between virtual threads read 2.1-2.7 GB/s where 2 slots gave 1.0 and 4
     * gave 1.4 ({@code CounterProbe 100 a20 virtual 2000000000}); a larger batch takes longer to come than the
     * reader's wait lasts.
     */
    boolean batchQueued(InProcessReadEnd end) {
        return readHeld() || batchReady(end); // held: waiting for a batch is pointless
    }

    /** For a napping reader ({@link #napForBatch}), without the lock: a batch, end-of-stream, or own close. */
    boolean batchReady(InProcessReadEnd end) {
        return end.isClosed()
                || !readHeld() && (PageRing.occupancyOf(ring.index()) >= batchSlots() || writers() == 0);
    }

    /** What a batching reader waits for: half the ring, at least 2 slots (a 1-slot ring: 1) and at most 8. */
    private int batchSlots() {
        int max = ring.maxUsage();
        return Math.min(max, Math.max(2, Math.min(8, max / 2)));
    }

    // ---- the fast paths --------------------------------------------------------------------------------

    /**
     * Writes {@code total} bytes from {@code src} (see {@link Transfer}). Blocking: returns only when all
     * are in the pipe. Nonblocking: stores what fits without waiting, where a write of at most
     * {@code PIPE_BUF} bytes stores all or nothing. The common case, a write below {@link SlotClaim#MIN_BYTES}
     * that fits, is this one pass; the rest continues in a {@link WriteCall}.
     */
    long write(InProcessWriteEnd end, Object src, int base, int count, long total) throws IOException {
        end.ensureOpen();
        if (total == 0) {
            return 0; // Linux: a zero-length write returns 0 before looking at readers (no EPIPE)
        }
        lock();
        boolean wasEmpty = ring.isEmpty();
        long done;
        try {
            done = total > FAST_WRITE_MAX || end.isClosed() || readers() == 0 ? -1
                    : storePages(end, src, base, count, mergeRemainder(src, base, count, total), total);
        } catch (RuntimeException | Error e) {
            unlock(); // a caller's buffer that changed under us, or no memory for a page
            throw e;
        }
        if (done != total) { // the lock goes with the call, which lets go of it on every path
            return WriteCall.start(this, end, src, base, count, total, done >= 0, Math.max(done, 0), wasEmpty);
        }
        countWrite(done);
        if (napping()) {
            return wroteForNapper(wasEmpty, done);
        }
        unlock();
        if (readerWakePolicy.wakeReader(wasEmpty, pollUsed())) {
            wakeReaders();
        }
        fireReadiness();
        return done;
    }

    /** The end of a fast-path write while a reader naps for a batch: out of line, to keep the hot path short. */
    private long wroteForNapper(boolean wasEmpty, long done) {
        boolean wake = readersToWake(wasEmpty);
        unlock();
        if (wake) {
            wakeReaders();
        }
        fireReadiness();
        return done;
    }

    /**
     * Reads up to {@code total} bytes into {@code dst}. Returns -1 at end-of-stream (empty, no writers), 0 if
     * nonblocking and empty; otherwise waits for at least one byte and returns what is there, never waiting
     * to fill the buffer. A read that finds data it may copy under the lock is this one pass; the rest (an
     * empty pipe, a bulk read that copies outside the lock, a broken gift, a lock found held, after which the
     * read may nap for a batch first: {@link #napBeforeTaking}) continues in a {@link ReadCall}.
     */
    long read(InProcessReadEnd end, Object dst, int base, int count, long total) throws IOException {
        end.ensureOpen();
        if (total == 0) {
            return 0;
        }
        lock();
        boolean fullAtStart = ring.isFull();
        int before = ring.occupancy();
        long done;
        try {
            boolean slow = end.isClosed() || ring.isEmpty() || readHeld() || lastContended
                    || SlotClaim.claimable(ring, total, writersWaiting()) > 0;
            done = slow ? -1 : takeBytes(dst, base, count, 0, total);
        } catch (RuntimeException | Error e) {
            unlock(); // a caller's buffer that changed under us
            throw e;
        }
        if (done < 0) { // a wait, a claim, or a broken gift first in line: the lock goes with the call
            return ReadCall.start(this, end, dst, base, count, total);
        }
        boolean wakeWriter = writersToWake(before, fullAtStart);
        countRead(done);
        unlock();
        if (wakeWriter) {
            wakeWriters();
        }
        fireReadiness();
        return done;
    }

    // ---- storing and taking bytes (lock held) ----------------------------------------------------------

    /**
     * The start of a write of {@code total} bytes: its sub-page remainder merged into the newest page if it
     * fits there whole, so that small writes share pages and the rest of a large write lands page-aligned.
     * Only on entry (Linux too): after a sleep the data goes to a fresh slot, which keeps a write of at most
     * PIPE_BUF contiguous. As in Linux's {@code pipe_write}, only the newest page's flag decides, not the
     * writer's mode: a packet-mode write may append to a page that a normal write left mergeable.
     *
     * @return the bytes merged: all of the remainder, or 0
     */
    long mergeRemainder(Object src, int base, int count, long total) {
        int chars = (int) (total & (PAGE - 1));
        if (chars == 0) {
            return 0;
        }
        PipeBuffer last = ring.mergeTarget(chars);
        if (last == null) {
            return 0;
        }
        Transfer.copyIn(src, base, count, 0, last.ref(), last.offset() + last.length(), chars);
        ring.merged(last, chars);
        return chars;
    }

    /** Stores whole pages of the write's bytes from {@code done} on while the ring has room; @return new done. */
    long storePages(InProcessWriteEnd end, Object src, int base, int count, long done, long total) {
        int flags = end.isPacketMode() ? PipeBuffer.FLAG_PACKET : PipeBuffer.FLAG_CAN_MERGE;
        while (done < total && !ring.isFull()) {
            Page page = ring.takePage();
            int n = (int) Math.min(PAGE, total - done);
            // Copy first, publish after: no reader ever sees a slot that is not filled.
            Transfer.copyIn(src, base, count, done, page, 0, n);
            ring.push(page, n, flags);
            done += n;
        }
        return done;
    }

    /** Publishes {@code n} bytes of {@code page} from {@code offset} as a new slot (a gift); not when full. */
    void link(Page page, int offset, int n, int flags) {
        ring.link(page, offset, n, flags);
    }

    /** {@link #takeBytes}' answer when the slot first in line is a gift its giver reused. */
    static final long BROKEN_GIFT = -2;

    /**
     * Takes bytes from the tail into the caller's buffer(s), {@code done} in, until {@code total}, the ring
     * is empty, or one packet was taken (a packet's rest that does not fit is discarded, as on Linux). Stops
     * before a gift its giver visibly reused.
     *
     * @return the new done, or {@link #BROKEN_GIFT} if the first slot is such a gift and nothing was taken
     */
    long takeBytes(Object dst, int base, int count, long done, long total) {
        while (done < total && !ring.isEmpty()) {
            PipeBuffer buf = ring.tailBuffer();
            if (buf.isGift() && buf.ref().giftReused()) {
                return done > 0 ? done : BROKEN_GIFT; // the next read reports it
            }
            int chars = (int) Math.min(buf.length(), total - done);
            Transfer.copyOut(buf, dst, base, count, done, chars);
            done += chars;
            ring.consumed(buf, chars);
            boolean packet = buf.isPacket();
            if (packet) {
                ring.discardRest(buf); // one packet per read; what did not fit is gone, as on Linux
            }
            if (buf.length() == 0) {
                ring.releaseTail();
            }
            if (packet) {
                break;
            }
        }
        return done;
    }

    /**
     * Moves whole slots from this pipe's tail to {@code to}'s head while they fit in {@code max} and {@code to}
     * has room (both locks held): the page changes hands, no byte is copied. If the very first slot is bigger
     * than {@code max}, its first {@code max} bytes go by reference instead, the only case where a slot is cut,
     * so a write of at most PIPE_BUF bytes, which always sits in one slot, arrives whole when
     * {@code max >= PIPE_BUF} ({@code splice_pipe_to_pipe}).
     *
     * @return the bytes moved
     */
    long moveSlotsTo(PipeCore to, long max) {
        long done = 0;
        while (done < max && !ring.isEmpty() && !to.ring.isFull()) {
            int len = ring.tailBuffer().length();
            if (len <= max - done) {
                done += ring.moveTailTo(to.ring);
            } else {
                if (done == 0) {
                    ring.splitTailTo(to.ring, (int) max); // max < len <= PAGE_SIZE here
                    done = max;
                }
                break;
            }
        }
        return done;
    }

    /**
     * Shares whole slots from this pipe's tail on into {@code to} (both locks held), consuming nothing; the
     * first may be cut to {@code max} ({@code link_pipe}, for tee).
     *
     * @return the bytes shared
     */
    long shareSlotsTo(PipeCore to, long max) {
        long done = 0;
        int occ = ring.occupancy();
        for (int i = 0; i < occ && !to.ring.isFull() && done < max; i++) {
            int len = ring.bufferAt(i).length();
            if (len > max - done) {
                if (done == 0) {
                    ring.shareTo(to.ring, i, (int) max);
                    done = max;
                }
                break;
            }
            ring.shareTo(to.ring, i, len);
            done += len;
        }
        return done;
    }

    /** Drops the reused gift first in line, loudly. @return the exception for the read */
    IOException dropBrokenGift() {
        PipeBuffer buf = ring.tailBuffer();
        IOException e = Gifts.reused(buf);
        ring.discardRest(buf);
        ring.releaseTail();
        return e;
    }

    /**
     * Whether the writers must be woken after slots were freed, {@code before} being the occupancy before:
     * the wake policy is asked slot by slot, with the occupancy before each freed slot, as a read frees them
     * ({@code fullAtStart}: the ring was full when the operation started or last woke).
     */
    boolean writersToWake(int before, boolean fullAtStart) {
        if (fullAtStart && wakePolicy.wakeIfFullAtStart()) {
            return true;
        }
        int after = ring.occupancy();
        if (after >= before) {
            return false;
        }
        int need = wakePolicy.usesWriterNeed() ? wrWait.firstTag() : 0;
        int max = ring.maxUsage();
        for (int occ = before; occ > after; occ--) {
            if (wakePolicy.wakeOnFree(occ, max, need)) {
                return true;
            }
        }
        return false;
    }

    /**
     * With the lock held: whether a write that found the ring empty (or, polled, any write) should wake a
     * reader. A reader napping for a batch ({@link #napForBatch}) is owed that wake-up all the same, but it is
     * held back until a batch is queued ({@link #batchSlots}), so that the writer runs on alone meanwhile:
     * only while that reader is the only one waiting (another could sleep through the held-back wake-up), the
     * pipe is not polled and the policy is {@link ReaderWakePolicy#ON_EMPTY}. A ring that fills holds a batch,
     * so a writer never waits for room while a wake-up is held back; a writer that stops short of a batch
     * leaves the reader to its nap's end.
     */
    boolean readersToWake(boolean wasEmpty) {
        boolean due = readerWakePolicy.wakeReader(wasEmpty, pollUsed());
        return napping() ? napperToWake(due) : due;
    }

    private boolean napperToWake(boolean due) {
        boolean owed = due || wakeDeferred;
        boolean defer = owed && readerWakePolicy == ReaderWakePolicy.ON_EMPTY && !pollUsed()
                && rdWait.waiters() <= 1 && ring.occupancy() < batchSlots();
        if (defer != wakeDeferred) {
            wakeDeferred = defer;
        }
        return owed && !defer;
    }

    // ---- state for the calls (lock held unless said) --------------------------------------------------

    boolean isEmpty() {
        return ring.isEmpty();
    }

    boolean isFull() {
        return ring.isFull();
    }

    int occupancy() {
        return ring.occupancy();
    }

    /** Whether a writer is queued for room (a racy hint: {@link WaitQueue#hasWaiters()}). */
    boolean writersWaiting() {
        return wrWait.hasWaiters();
    }

    /** Whether a reader is queued for data (a racy hint: {@link WaitQueue#hasWaiters()}). */
    boolean readersWaiting() {
        return rdWait.hasWaiters();
    }

    int freeSlots() {
        return ring.maxUsage() - ring.occupancy();
    }

    /** Whether a read could take bytes now: some queued and not held by a transfer. */
    boolean hasData() {
        return !ring.isEmpty() && !readHeld();
    }

    /** Whether a read would find end-of-stream now: nothing queued or held, and no writer left. */
    boolean atEndOfStream() {
        return writers() == 0 && ring.isEmpty() && !readHeld();
    }

    boolean hasReaders() {
        return readers() != 0;
    }

    boolean hasWriters() {
        return writers() != 0;
    }

    boolean closedBothSides() {
        return readers() == 0 && writers() == 0;
    }

    PageRing ring() {
        return ring;
    }

    PagePool pool() {
        return pool;
    }

    WakePolicy wakePolicy() {
        return wakePolicy;
    }

    Spares<ReadCall> spareReads() {
        return spareReads;
    }

    Spares<WriteCall> spareWrites() {
        return spareWrites;
    }

    Spares<SpliceCall> spareSplices() {
        return spareSplices;
    }

    /** Holds the ring's first pages for a transfer to a channel, or lets go of them ({@link TransferToCall}). */
    void hold(boolean held) {
        setReadHeld(held);
    }

    boolean isHeld() {
        return readHeld();
    }

    /**
     * Consumes from the tail the {@code written} bytes a transfer to a channel took of the slots it held. The
     * held slots are still first in line: nobody else consumed. The ring can only be shorter if every end was
     * closed meanwhile, which drained it; then there is nothing left to consume.
     */
    void consumeHeld(long written) {
        long left = written;
        while (left > 0 && !ring.isEmpty()) {
            PipeBuffer buf = ring.tailBuffer();
            int k = (int) Math.min(buf.length(), left);
            ring.consumed(buf, k);
            left -= k;
            if (buf.length() == 0) {
                ring.releaseTail();
            }
        }
    }

    /**
     * Drops a call's own references to {@code pages[from..to)}: a page of this pipe's pool goes straight back
     * to it, unless the pipe is closed on both sides (its pool is gone).
     */
    void releaseAll(Page[] pages, int from, int to) {
        PagePool mine = closedBothSides() ? null : pool;
        for (int i = from; i < to; i++) {
            pages[i].release(mine);
        }
    }

    /** What the longest-waiting writer needs, for a policy that wakes writers by need; else 0. */
    int writerNeed() {
        return wakePolicy.usesWriterNeed() ? wrWait.firstTag() : 0;
    }

    /** The need a writer with {@code remaining} bytes to go states when it waits ({@link WakePolicy#ADAPTIVE}). */
    int needFor(long remaining) {
        return wakePolicy.usesWriterNeed() ? WakePolicy.writerNeed(remaining, ring.maxUsage(), PAGE) : 0;
    }

    // ---- counters (lock held) -------------------------------------------------------------------------

    void countWrite(long bytes) {
        writeCalls++;
        if (bytes > 0) {
            bytesIn += bytes;
            if (timestamps) {
                mtime = ctime = System.currentTimeMillis();
            }
        }
    }

    void countRead(long bytes) {
        readCalls++;
        if (bytes > 0) {
            bytesOut += bytes;
            if (timestamps) {
                atime = System.currentTimeMillis();
            }
        }
    }

    // ---- waiting (the protocol's half, in Blocking) ---------------------------------------------------

    /**
     * Without the lock: waits for data as a reader. A reader that keeps trading the lock with a writer of
     * small chunks ({@code SpinBudget#batching()}) lets the writer run on alone and takes a batch: a platform
     * thread naps ({@link #napForBatch}), a virtual one, whose wake-up is cheap, yields until a batch of pages
     * is queued ({@link #yieldForBatch}). Either way a wait that ends with less than a page queued ends the
     * batching ({@link #countWait}): the writer is slow, so latency matters more.
     */
    WaitQueue.Outcome awaitData(InProcessReadEnd end, long deadline) {
        if (rdWait.spinBudget().batching()) {
            if (!Thread.currentThread().isVirtual()) {
                return napForBatch(end, deadline);
            }
            if (yieldForBatch(end, deadline)) {
                return WaitQueue.Outcome.SPUN;
            }
        }
        return rdWait.await(end.readableCheck, deadline, 0, spinNanos);
    }

    /**
     * For a platform reader that keeps trading the lock with a writer of small chunks: parks at once, without
     * its spin, until a batch is queued ({@link #batchReady}), for at most {@value #NAP_SPINS} times the pipe's
     * spin, and while it is parked writes hold back its wake-up until that batch is there
     * ({@link #readersToWake}). Woken by the first write instead, as the reader was before, it found one to
     * four kilobytes on a machine whose wake-ups are quick, and the two went on trading the lock. The nap's
     * end bounds the latency this adds when the writer stops short of a batch; then the batching ends, and
     * starts again only after more trades ({@code SpinBudget#napRanOut}). The caller's own deadline comes
     * first: a nap that ends before it is not a timeout, as the caller checks its deadline itself before it
     * waits again.
     */
    private WaitQueue.Outcome napForBatch(InProcessReadEnd end, long deadline) {
        long until = System.nanoTime() + napNanos;
        if (deadline != 0 && deadline - until < 0) {
            until = deadline;
        }
        setNapping(true);
        try {
            return rdWait.await(end.batchReadyCheck, until != 0 ? until : 1, 0, 0);
        } finally {
            setNapping(false);
        }
    }

    /**
     * With the lock held, for a blocking read that found data at once: whether it should nap for a batch
     * before it takes what is there. A platform reader that found the lock held by a writer and less than a
     * batch queued is trading the lock with a writer of small chunks without ever waiting (the two run at
     * once): that counts as a trade, as a spin into the held lock does, and once the reader is
     * {@code batching()} such a read naps first ({@link #napForBatch}). A read with a pending interrupt or on
     * a nonblocking end takes what is there (measured in docs/performance.md, "Reads that find the lock held
     * batch too").
     */
    boolean napBeforeTaking(InProcessReadEnd end) {
        if (!lastContended || Thread.currentThread().isVirtual() || end.isNonBlocking()
                || ring.occupancy() >= batchSlots() || Thread.currentThread().isInterrupted()) {
            return false;
        }
        SpinBudget b = rdWait.spinBudget();
        b.tradedWithoutSpin(true);
        if (!b.batching()) {
            return false;
        }
        // No write will find the ring empty, so none would owe this reader a wake-up: owe it one now, held
        // back until the batch is queued ({@link #readersToWake}).
        wakeDeferred = true;
        return true;
    }

    /** A batching platform reader's nap, in spins before parking ({@link #napForBatch}). */
    static final int NAP_SPINS = 5;

    /** Without the lock: waits for room as a writer that needs {@code need} slots ({@link WakePolicy#ADAPTIVE}). */
    WaitQueue.Outcome awaitRoom(InProcessWriteEnd end, long deadline, int need) {
        return wrWait.await(end.writableCheck, deadline, need, spinNanos);
    }

    /**
     * For a virtual reader that keeps trading the lock with a writer of small chunks: waits, without taking
     * the lock, until a batch is queued ({@link #batchQueued}), for at most the pipe's spin, yielding between
     * looks so that its carrier goes to any other virtual thread that needs it. Without this the reader takes
     * each write's bytes as they land and the two trade the lock write by write. A wait that runs out (the
     * writer is slow, so latency matters more than batching) ends the batching, and the reader takes what is
     * there.
     *
     * @return whether there is something to read now (a batch, less when the wait ran out, or end-of-stream)
     */
    private boolean yieldForBatch(InProcessReadEnd end, long deadline) {
        if (spinNanos <= 0) {
            return false;
        }
        if (!WaitQueue.yieldUntil(end.batchCheck, spinNanos, deadline)) {
            rdWait.spinBudget().batchRanOut();
        }
        return readable(end);
    }

    /**
     * Counts, with the lock held again, what a wait ended with: a spun wait (and, for the adaptive spin, whether
     * it ran into the lock held by a writer of small chunks), or a wake-up that found nothing.
     *
     * @param forData whether the wait was a reader's
     * @param outcome how it ended
     * @param end     the handle that waited
     * @return the outcome as the call takes it: {@code WOKEN} also for a reader that found a wake-up held back
     *         for a nap ({@link #readersToWake}), which it takes as its own, so that it passes the baton on if
     *         it leaves data behind (another reader may have slept through that wake-up)
     */
    WaitQueue.Outcome countWait(boolean forData, WaitQueue.Outcome outcome, InProcessEnd end) {
        WaitQueue q = forData ? rdWait : wrWait;
        boolean sliver = forData && ring.queuedBytes() < PAGE;
        boolean heldBack = false;
        if (forData) {
            heldBack = wakeDeferred;
            if (heldBack) {
                wakeDeferred = false;
            }
        }
        if (outcome == WaitQueue.Outcome.SPUN) {
            spunWaits++;
            // A reader whose spin saw data but then had to wait for the lock, to find less than a page, is
            // trading the lock with a writer of small chunks: parking would have let the writer batch. With a
            // page or more waiting, the spin did its job. A writer's spin always finds at least a page of room.
            q.spinBudget().spunIntoLock(lastContended && sliver);
        } else {
            if (outcome == WaitQueue.Outcome.WOKEN && stillBlocked(forData, end)) {
                emptyWakeups++;
                Flight.wokeForNothing(id, forData);
            }
            if (forData) {
                readerWaited(q.spinBudget(), outcome, sliver);
            }
        }
        return heldBack ? WaitQueue.Outcome.WOKEN : outcome;
    }

    /** What a reader's wait that was not spun tells its queue's budget about batching ({@link #awaitData}). */
    private void readerWaited(SpinBudget b, WaitQueue.Outcome outcome, boolean sliver) {
        if (Thread.currentThread().isVirtual()) {
            // A virtual reader never spins, so its trades are learnt from its wake-ups instead.
            b.tradedWithoutSpin(lastContended && sliver);
        } else if (b.batching()) { // a nap ({@link #napForBatch})
            if (outcome == WaitQueue.Outcome.TIMED_OUT) {
                b.napRanOut();
            } else if (sliver) {
                b.batchRanOut(); // woken for less than a batch: a baton, a close, a resize
            } else {
                b.napFilled();
            }
        }
    }

    private boolean stillBlocked(boolean forData, InProcessEnd end) {
        if (end.isClosed()) {
            return false;
        }
        return forData ? !hasData() && hasWriters() : ring.isFull() && hasReaders();
    }

    // ---- handles --------------------------------------------------------------------------------------

    /** Adds a handle to a side ({@code dup}). @throws IOException if {@code from} is closed */
    void addHandle(InProcessEnd from) throws IOException {
        lock();
        try {
            from.ensureOpen();
            if (from instanceof InProcessReadEnd) {
                setReaders(readers() + 1);
            } else {
                setWriters(writers() + 1);
            }
        } finally {
            unlock();
        }
    }

    /** Closes one handle; the last of a side wakes everybody on both sides (Linux 6551d5c56eb0). */
    void close(InProcessEnd end) {
        boolean reader = end instanceof InProcessReadEnd;
        boolean lastOfSide;
        lock();
        try {
            if (end.isClosed()) {
                return; // closing twice is a no-op
            }
            end.markClosed();
            if (reader) {
                setReaders(readers() - 1);
                lastOfSide = readers() == 0;
            } else {
                setWriters(writers() - 1);
                lastOfSide = writers() == 0;
            }
            if (closedBothSides()) {
                ring.drainAll();
                if (charging != null) {
                    charging.release(chargedPages);
                    chargedPages = 0;
                }
            }
        } finally {
            unlock();
        }
        // Threads blocked on this very handle must see it closed, so wake its side even when other handles
        // remain; a close is rare, and a woken thread that still has to wait just waits again.
        if (lastOfSide || reader) {
            rdWait.wakeAll();
        }
        if (lastOfSide || !reader) {
            wrWait.wakeAll();
        }
        fireReadiness();
    }

    // ---- capacity (F_GETPIPE_SZ / F_SETPIPE_SZ) and FIONREAD ------------------------------------------

    int capacity() {
        return ring.capacity() * PAGE;
    }

    /** F_SETPIPE_SZ: any {@code long}, so that the sizes an unsigned 32-bit argument has get one wording. */
    int setCapacity(long bytes) {
        int size = Checks.roundCapacity(bytes, PipeOptions.ABSOLUTE_MAX_CAPACITY, "capacity");
        int slots = size / PAGE;
        int before;
        lock();
        try {
            before = ring.capacity() * PAGE;
            if (closedBothSides()) {
                throw new IllegalStateException("pipe is closed on both sides");
            }
            if (slots > ring.capacity() && size > options.maxCapacity()) {
                throw new IllegalArgumentException("capacity " + bytes + " (rounded to " + size
                        + ") exceeds this pipe's maxCapacity of " + options.maxCapacity()
                        + " bytes (Linux: EPERM over pipe-max-size); raise PipeOptions.maxCapacity");
            }
            if (slots < ring.occupancy() + ring.reserved()) {
                throw new IllegalStateException("pipe holds " + ring.occupancy() + " pages of data; cannot shrink to "
                        + slots + " pages (" + size + " bytes) until it is read (Linux: EBUSY)");
            }
            if (charging != null) {
                charging.recharge(chargedPages, slots);
                chargedPages = slots;
            }
            ring.resize(slots);
            if (options.poolPages() < 0) {
                pool.setLimit(defaultPoolPages(slots));
            }
        } finally {
            unlock();
        }
        Flight.capacityChanged(id, before, size);
        wakeWriters(); // more room may exist now (pipe_resize_ring); the baton carries it further
        fireReadiness();
        return size;
    }

    int available() {
        lock();
        try {
            return (int) Math.min(ring.queuedBytes(), Integer.MAX_VALUE);
        } finally {
            unlock();
        }
    }

    // ---- readiness (poll and the fasync analogue) -----------------------------------------------------

    Readiness poll(InProcessEnd end) {
        markPolled();
        return readinessOf(end);
    }

    /** What a poll of {@code end} finds now; lock-free (volatile loads only). */
    Readiness readinessOf(InProcessEnd end) {
        if (end.isClosed()) {
            return Readiness.ofLinuxPollMask(POLLNVAL);
        }
        int occ = PageRing.occupancyOf(ring.index());
        int bits = 0;
        if (end instanceof InProcessReadEnd) {
            // Held by a transfer with data still queued, the pipe is neither readable nor at end-of-stream: a
            // poller that saw HUP without IN would take it for EOF and miss what the channel leaves behind.
            boolean heldData = occ != 0 && readHeld();
            if (occ != 0 && !heldData) {
                bits |= POLLIN;
            }
            if (writers() == 0 && !heldData) {
                bits |= POLLHUP;
            }
        } else {
            if (occ < ring.maxUsage()) {
                bits |= POLLOUT;
            }
            if (readers() == 0) {
                bits |= POLLERR;
            }
        }
        return Readiness.ofLinuxPollMask(bits);
    }

    CompletableFuture<Readiness> whenReady(InProcessEnd end) {
        markPolled();
        return ready.add(end, this);
    }

    /** Completes the readiness futures whose end is ready now; called after every state change, unlocked. */
    void fireReadiness() {
        if (!ready.isEmpty()) {
            ready.fire(this);
        }
    }

    /** Sets the length of a batching reader's nap, before any reader uses the pipe: for tests. */
    void napNanos(long nanos) {
        napNanos = nanos;
    }

    /** @return whether a thread is parked for the lock (a mutex; always false for a spin lock): for tests */
    boolean lockHasWaiters() {
        return lock instanceof ReentrantLock m && m.hasQueuedThreads();
    }

    /** @return the readers' wait queue (for tests and diagnostics) */
    WaitQueue readerQueue() {
        return rdWait;
    }

    /** @return readiness futures still pending (for tests) */
    int pendingReadiness() {
        return ready.size();
    }

    // ---- stat and counters ----------------------------------------------------------------------------

    PipeStat stat() {
        lock();
        try {
            return new PipeStat(ring.capacity() * PAGE, ring.size(), ring.occupancy(), ring.queuedBytes(),
                    readers(), writers(), Instant.ofEpochMilli(atime), Instant.ofEpochMilli(mtime),
                    Instant.ofEpochMilli(ctime));
        } finally {
            unlock();
        }
    }

    PipeCounters counters() {
        lock();
        try {
            return new PipeCounters(bytesIn, bytesOut, writeCalls, readCalls, rdWait.waits(), wrWait.waits(),
                    rdWait.wakeups(), wrWait.wakeups(), emptyWakeups, spunWaits, contended, pool.hits(),
                    pool.allocations(), ring.peakOccupancy());
        } finally {
            unlock();
        }
    }

    void resetCounters() {
        lock();
        try {
            bytesIn = bytesOut = writeCalls = readCalls = emptyWakeups = spunWaits = contended = 0;
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

    /** Tells Flight Recorder, if it listens, that a call found every read end closed before it stored a byte. */
    void recordBrokenPipe(String op) {
        Flight.brokenPipe(id, op, 0);
    }

    /** A closed handle's refusal: the handle was closed by another thread since the caller checked it. */
    static AsynchronousCloseException closedMeanwhile() {
        return new AsynchronousCloseException();
    }
}
