package dev.sluice.internal.engine;

import dev.sluice.internal.ring.Page;
import dev.sluice.internal.ring.PageRing;
import dev.sluice.internal.ring.PipeBuffer;
import java.util.Arrays;

/**
 * Pages that a bulk read or write copies with the pipe's lock released: a read's claim is slots it took off
 * the ring's tail, a write's is fresh pages for slots it reserved.
 *
 * <p>Why: with every copy under the lock, as in the kernel, the reader and the writer of a bulk stream take
 * turns: the writer copies a batch in while the reader waits for the lock, then the reader copies it out
 * while the writer waits, so the copies never overlap, and the lock is contended on nearly every call: before
 * claims, Sluice streamed 64 KiB writes more slowly than {@code PipedInputStream}. With claims each side holds
 * the lock only to book-keep, and the two copies (and the reader's work on what it read) run side by side.
 * The figures, before and after: {@code docs/performance.md}, "Copies beside the lock".
 *
 * <p>A read ({@link #claimable}, {@link #takeForRead}):
 * <ul>
 *   <li>the slots leave the ring ({@link PageRing#detachTail}) with their page references, so nobody else can
 *       read, split, share or merge into them, and no close, which drains the ring, can recycle a page
 *       being copied; a slot of which the read takes only the start stays in the ring, and the claim holds
 *       a reference of its own to its page. The pages go back after the copy, without the lock
 *       ({@link PageRing#recycleUnlocked});</li>
 *   <li>the bytes are the read's from the moment they are claimed: nothing that happens afterwards (an
 *       interrupt, a timeout, a close) can make the read give them up, so none are lost;</li>
 *   <li>the claim is the end of the read, and takes what the read would have taken under the lock (until
 *       the buffer is full or the pipe empty), so the read returns the same bytes as Linux's
 *       {@code pipe_read}. Another reader may read what follows meanwhile, as if this read had returned
 *       and was on its way back to its caller.</li>
 * </ul>
 * A write ({@link #reserveForWrite}, {@link #publish}): the slots are reserved ({@link PageRing#reserve}),
 * so no other writer can take them, and the pages are published under the lock after the copy, in order,
 * all at once. Only writes of {@link #MIN_BYTES} or more claim, so a write of at most {@code PIPE_BUF} bytes
 * is still one copy under the lock, atomic. A larger write may interleave with other writers at page
 * boundaries, which Linux allows too.
 *
 * <p>Not thread-safe: one call uses it at a time; each read and write call keeps one, and calls are kept
 * for reuse ({@link Spares}), so that they allocate nothing. While a reader copies a claim, the writer fills
 * the freed slots with other pages, so a busy pipe cycles through up to twice its ring's pages (the default
 * pool keeps that many).
 */
final class SlotClaim {
    /**
     * The fewest bytes worth claiming: four pages. A claim costs a second trip through the lock (a write) or
     * atomic page returns (a read), and the quicker a reader lets go of the lock the less it finds on its
     * next read. With a one-page minimum, 100-byte streaming lost speed and made twice the reads; with four
     * pages it does not ({@code docs/performance.md}, "Copies beside the lock").
     */
    static final int MIN_BYTES = 4 * PageRing.PAGE_SIZE;
    /** The fewest slots a read claims (slots can be short after partial reads and splices). */
    static final int MIN_SLOTS = 2;

    private Page[] pages = new Page[16];
    private int[] offsets = new int[16];
    private int[] lengths = new int[16];
    private int n;
    private long bytes;

    /**
     * Whether the calling thread copies outside the lock: a platform thread always, a virtual one only while
     * the other side waits for what the claim frees (a writer for the room of the slots a read claims, a
     * reader for the bytes a write stores). The partner a virtual thread wakes is queued on the waker's own
     * carrier, from where an idle carrier has to steal it, so it seldom runs beside the copy, and where nobody
     * waits the claim's extra trip through the lock is all that is left (a virtual reader of 100-byte writes
     * that claimed its batches streamed slower). A 64 KiB stream, whose writer waits for room on every write,
     * otherwise takes strict turns with its reader, the two copies never overlapping ({@code
     * docs/performance.md}, "Copies beside the lock").
     *
     * @param partnerWaiting whether the other side has a thread queued
     */
    static boolean worthIt(boolean partnerWaiting) {
        return partnerWaiting || !Thread.currentThread().isVirtual();
    }

    // ---- read ----------------------------------------------------------------------------------------

    /**
     * With the lock held: how many whole slots from the tail a read of at most {@code max} bytes claims, or 0
     * if it is not worth it (fewer than {@link #MIN_SLOTS} slots or {@link #MIN_BYTES} bytes, or a virtual
     * thread with no writer waiting: {@link #worthIt}) or would change what the read returns. A read takes
     * bytes until its buffer is full or the pipe empty (as Linux's {@code pipe_read}), so what a claim leaves
     * for the read must be nothing or the start of one plain slot; a packet or a gift next in line keeps the
     * read on the path under the lock.
     */
    static int claimable(PageRing ring, long max, boolean writersWaiting) {
        int occ = ring.occupancy();
        if (occ < MIN_SLOTS || max < MIN_BYTES || ring.queuedBytes() < MIN_BYTES || !worthIt(writersWaiting)) {
            return 0;
        }
        long sum = 0;
        int k = 0;
        for (; k < occ && sum < max; k++) {
            PipeBuffer buf = ring.bufferAt(k);
            if ((buf.flags() & (PipeBuffer.FLAG_PACKET | PipeBuffer.FLAG_GIFT)) != 0) {
                return 0; // the read must take it after the claim's bytes, under the lock
            }
            if (sum + buf.length() > max) {
                break; // the rest of the read is the start of this slot: takePart
            }
            sum += buf.length();
        }
        return k >= MIN_SLOTS && sum >= MIN_BYTES ? k : 0;
    }

    /**
     * With the lock held: takes {@code slots} whole slots from the tail ({@link #claimable}), and the start of
     * the next one if the read of at most {@code max} bytes ends inside it.
     */
    void takeForRead(PageRing ring, int slots, long max) {
        for (int i = 0; i < slots; i++) {
            take(ring);
        }
        long left = max - bytes;
        if (left > 0 && !ring.isEmpty()) {
            takePart(ring, (int) left); // less than the tail slot holds (claimable)
        }
    }

    /** With the lock held: takes the ring's tail slot, page reference and all, into this claim. */
    private void take(PageRing ring) {
        PipeBuffer buf = ring.tailBuffer();
        add(buf.ref(), buf.offset(), buf.length());
        ring.detachTail();
    }

    /**
     * With the lock held: claims the first {@code len} bytes of the ring's tail slot (fewer than it holds),
     * which stays in the ring with the rest. The claim takes a reference of its own, so that the page is not
     * recycled while it copies, should another reader free the slot meanwhile; nobody writes over the claimed
     * bytes (a merge only appends after a slot's bytes).
     */
    private void takePart(PageRing ring, int len) {
        PipeBuffer buf = ring.tailBuffer();
        buf.ref().retain();
        add(buf.ref(), buf.offset(), len);
        ring.consumed(buf, len);
    }

    /** Without the lock: copies the claimed bytes to the caller's buffer(s), {@code done} bytes in. */
    void copyTo(Object dst, int base, int count, long done) {
        for (int i = 0; i < n; i++) {
            Transfer.copyOut(pages[i], offsets[i], dst, base, count, done, lengths[i]);
            done += lengths[i];
        }
    }

    /** Without the lock: lets go of a read's pages ({@link PageRing#recycleUnlocked}) and empties the claim. */
    void recycleUnlocked(PageRing ring) {
        ring.recycleUnlocked(pages, n);
        clear();
    }

    // ---- write ---------------------------------------------------------------------------------------

    /**
     * With the lock held: how many slots a write with {@code left} bytes to go claims, given {@code free}
     * free slots: as many as it can fill, if they hold at least {@link #MIN_BYTES}; else 0 (copy under the
     * lock). A write of at most {@code PIPE_BUF} bytes never claims, so it stays one atomic copy.
     */
    static int writable(int free, long left, boolean readersWaiting) {
        int k = (int) Math.min(free, (left + PageRing.PAGE_SIZE - 1) / PageRing.PAGE_SIZE);
        return Math.min(left, (long) k * PageRing.PAGE_SIZE) >= MIN_BYTES && worthIt(readersWaiting) ? k : 0;
    }

    /**
     * With the lock held: reserves {@code slots} free slots ({@link PageRing#reserve}) and takes as many fresh
     * pages for the next {@code left} bytes of a write.
     */
    void reserveForWrite(PageRing ring, int slots, long left) {
        ring.reserve(slots);
        for (int i = 0; i < slots; i++) {
            int len = (int) Math.min(PageRing.PAGE_SIZE, left);
            add(ring.takePage(), 0, len);
            left -= len;
        }
    }

    /** Without the lock: copies the caller's bytes, {@code done} bytes in, into the claimed pages. */
    void copyFrom(Object src, int base, int count, long done) {
        for (int i = 0; i < n; i++) {
            Transfer.copyIn(src, base, count, done, pages[i], 0, lengths[i]);
            done += lengths[i];
        }
    }

    /**
     * With the lock held again: gives back the reservation and, if {@code keep}, publishes the filled pages in
     * its place, in order, as slots (they take the claim's references); else gives the pages back unpublished
     * (the write was cut short). Empties the claim either way.
     *
     * @return the bytes published
     */
    long publish(PageRing ring, boolean keep, int flags) {
        ring.unreserve(n);
        long published = keep ? bytes : 0;
        for (int i = 0; i < n; i++) {
            if (keep) {
                ring.push(pages[i], lengths[i], flags);
            } else {
                ring.recycle(pages[i]);
            }
        }
        clear();
        return published;
    }

    // ---- both ----------------------------------------------------------------------------------------

    /** @return the bytes claimed */
    long bytes() {
        return bytes;
    }

    private void add(Page page, int offset, int len) {
        if (n == pages.length) {
            // Once per size a pipe's calls reach: the claim is kept for the next call.
            pages = Arrays.copyOf(pages, n * 2);
            offsets = Arrays.copyOf(offsets, n * 2);
            lengths = Arrays.copyOf(lengths, n * 2);
        }
        pages[n] = page;
        offsets[n] = offset;
        lengths[n] = len;
        bytes += len;
        n++;
    }

    private void clear() {
        Arrays.fill(pages, 0, n, null);
        n = 0;
        bytes = 0;
    }
}
