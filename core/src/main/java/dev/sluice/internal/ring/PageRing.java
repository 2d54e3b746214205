package dev.sluice.internal.ring;

/**
 * The ring of page buffers at the heart of a pipe: the analogue of the {@code bufs}, {@code head},
 * {@code tail} and {@code max_usage} fields of the kernel's {@code struct pipe_inode_info}.
 *
 * <pre>
 *        tail                       head
 *         v                          v
 *   ... | slot | slot | slot | slot |  free  |  free  | ...      (slots.length is a power of two)
 *         ^^^^ read from here         ^^^^ next write lands here
 * </pre>
 *
 * <p>{@code head} and {@code tail} are free-running 32-bit counters, masked only when a slot is
 * dereferenced, so they wrap naturally and {@code head - tail} is the occupancy even across the wrap
 * (fs/pipe.c, David Howells 2019). Every change to either is published at once in one volatile
 * {@code long} ({@link #index()}), because threads that wait without the lock test "empty" and "full"
 * from it: in 2025 the kernel hung in hackbench after reading a stale tail beside a fresh head, and the
 * fix was to load both in one word. Never read the two halves from separate loads.
 *
 * <p>Capacity is counted in slots, the way Linux counts it: a slot holds one page (4096 bytes) however
 * few bytes it carries, and small writes merge into the last page ({@link #mergeTarget}) so that sixteen
 * 1-byte writes use one slot, not sixteen.
 *
 * <p><b>Reserved slots.</b> A transfer from a channel ({@code Splice.transferFrom}) reads the channel without
 * the lock, into pages it will publish afterwards; it first {@link #reserve reserves} slots for them, so that
 * the bytes it reads always have room. A reservation lowers {@link #maxUsage()}, the limit every writer and
 * every lock-free "writable" test already obeys, exactly as Linux's {@code max_usage} keeps a watch queue's
 * writers below the ring's size; {@link #capacity()} stays what the pipe was sized to.
 *
 * <p>Not thread-safe: every method except {@link #index()} and the static helpers must be called with
 * the pipe's lock held. It knows nothing of waiting, waking or closing; that lives in the pipe.
 */
public final class PageRing extends RingPadAfter {
    /** Bytes in a page, the unit of allocation and of capacity. */
    public static final int PAGE_SIZE = 4096;
    /** Slots of a new pipe by default: 16 pages, 64 KiB (Linux {@code PIPE_DEF_BUFFERS}). */
    public static final int DEFAULT_SLOTS = 16;
    /** Largest ring: 2^18 slots, 1 GiB. */
    public static final int MAX_SLOTS = 1 << 18;

    private PipeBuffer[] slots;
    private int mask;
    private int head;
    private int tail;
    private long queuedBytes;
    /** Whether the slot freed last carried half a page or more, and the thread that freed it ({@link #takePage}). */
    private boolean bulkFreed;
    private long freedBy = -1;
    private int peakOccupancy;
    /** Slots promised to transfers in flight ({@link #reserve}); {@code maxUsage + reserved == capacity}. */
    private int reserved;
    /** The capacity in slots; written on resize only, read without the lock ({@code F_GETPIPE_SZ}). */
    private volatile int capacity;
    private final PagePool pool;

    /** The last value stored to {@link #index}, kept in a plain field to skip stores that change nothing. */
    private long published;

    /**
     * @param slots number of slots, a power of two in [1, {@link #MAX_SLOTS}]
     * @param pool  where freed pages go and new pages come from
     */
    public PageRing(int slots, PagePool pool) {
        this(slots, pool, 0);
    }

    /** Starts the free-running indices at {@code start}, so tests can cross the 32-bit wrap quickly. */
    PageRing(int slots, PagePool pool, int start) {
        checkSlots(slots);
        this.slots = newSlots(slots);
        this.mask = slots - 1;
        this.maxUsage = slots;
        this.capacity = slots;
        this.pool = pool;
        this.head = start;
        this.tail = start;
        publish();
    }

    private static PipeBuffer[] newSlots(int n) {
        PipeBuffer[] s = new PipeBuffer[n];
        for (int i = 0; i < n; i++) {
            s[i] = new PipeBuffer();
        }
        return s;
    }

    private static void checkSlots(int n) {
        if (n < 1 || n > MAX_SLOTS || Integer.bitCount(n) != 1) {
            throw new IllegalArgumentException("slot count must be a power of two in [1, " + MAX_SLOTS + "], was " + n);
        }
    }

    // ---- lock-free view ---------------------------------------------------------------------------

    /** @return head and tail packed in one word: one volatile load, safe without the lock */
    public long index() {
        return index;
    }

    /** @return the head half of a packed {@link #index()} */
    public static int headOf(long index) {
        return (int) (index >>> 32);
    }

    /** @return the tail half of a packed {@link #index()} */
    public static int tailOf(long index) {
        return (int) index;
    }

    /** @return slots in use according to a packed {@link #index()} (correct across wrap-around) */
    public static int occupancyOf(long index) {
        return headOf(index) - tailOf(index);
    }

    /**
     * Makes the current head and tail visible to lock-free readers of {@link #index()}, with one volatile
     * store, and only if they changed since the last time. Call with the lock held, before releasing it.
     */
    public void publish() {
        long now = ((long) head << 32) | (tail & 0xFFFF_FFFFL);
        if (now != published) {
            published = now;
            index = now;
        }
    }

    // ---- state (lock held) ------------------------------------------------------------------------

    /** @return slots in use */
    public int occupancy() {
        return head - tail;
    }

    /** @return whether no slot is in use */
    public boolean isEmpty() {
        return head == tail;
    }

    /** @return whether a writer may not take another slot */
    public boolean isFull() {
        return head - tail >= maxUsage;
    }

    /**
     * @return how many slots writers may occupy: the capacity less any {@link #reserve reserved} slots; safe
     *         without the lock
     */
    public int maxUsage() {
        return maxUsage;
    }

    /** @return the capacity in slots, as sized ({@code F_GETPIPE_SZ}), whatever is reserved; safe without the lock */
    public int capacity() {
        return capacity;
    }

    /** @return slots reserved by transfers in flight */
    public int reserved() {
        return reserved;
    }

    /**
     * Promises {@code n} free slots to one caller: until {@link #unreserve}, writers see a ring {@code n} slots
     * smaller. The caller publishes into them after unreserving, under the same hold of the lock.
     *
     * @param n slots, at most the free ones ({@code maxUsage() - occupancy()})
     */
    public void reserve(int n) {
        if (n < 0 || n > maxUsage - occupancy()) {
            throw new IllegalArgumentException("cannot reserve " + n + " slots: " + (maxUsage - occupancy())
                    + " are free");
        }
        reserved += n;
        maxUsage -= n;
    }

    /**
     * Gives back {@code n} slots of an earlier {@link #reserve}; the ring has room for them again at once (a
     * resize meanwhile kept them free).
     *
     * @param n slots, at most those reserved
     */
    public void unreserve(int n) {
        if (n < 0 || n > reserved) {
            throw new IllegalArgumentException("cannot unreserve " + n + " slots: " + reserved + " are reserved");
        }
        reserved -= n;
        maxUsage += n;
    }

    /** @return the ring's size in slots */
    public int size() {
        return slots.length;
    }

    /** @return unread bytes in all slots (FIONREAD) */
    public long queuedBytes() {
        return queuedBytes;
    }

    /** @return the most slots in use at once since the last reset */
    public int peakOccupancy() {
        return peakOccupancy;
    }

    /** Forgets the peak: it becomes the current occupancy. */
    public void resetPeak() {
        peakOccupancy = occupancy();
    }

    /** @return the page pool feeding this ring */
    public PagePool pool() {
        return pool;
    }

    // ---- writing ----------------------------------------------------------------------------------

    /**
     * The buffer a write of {@code chars} bytes may append to, or null. Linux merges only the sub-page
     * remainder of a write, only into the newest buffer, and only if that buffer allows merging and has
     * room for all of it; the caller copies the bytes to {@code page()[offset() + length()]} and then
     * calls {@link #merged}.
     */
    public PipeBuffer mergeTarget(int chars) {
        if (head == tail) {
            return null;
        }
        PipeBuffer last = slots[(head - 1) & mask];
        if ((last.flags & PipeBuffer.FLAG_CAN_MERGE) != 0 && last.offset + last.len + chars <= PAGE_SIZE) {
            return last;
        }
        return null;
    }

    /** Accounts {@code chars} bytes appended to a buffer returned by {@link #mergeTarget}. */
    public void merged(PipeBuffer last, int chars) {
        last.len += chars;
        queuedBytes += chars;
    }

    /**
     * @return a page for the next {@link #push}, from the pool when it has one, holding one reference. The pool
     *         may grow instead ({@link PagePool#take(boolean)}) when the page freed last carried half a page or
     *         more and another thread freed it: a stream between two threads, whose pages are worth taking cold.
     *         A thread that writes and reads its own pipe, or a ping-pong of small messages, reuses hot pages.
     */
    public Page takePage() {
        return pool.take(bulkFreed && freedBy != Thread.currentThread().threadId());
    }

    /** Notes who freed a slot that carried {@code bytes}, for {@link #takePage}. */
    private void freed(int bytes) {
        bulkFreed = bytes >= PAGE_SIZE / 2;
        freedBy = Thread.currentThread().threadId();
    }

    /**
     * Publishes a filled page as the new head slot. Only call when not {@link #isFull()}; the page must
     * already hold its bytes (Linux 6.15: copy first, publish after, so no reader sees an empty slot).
     * The slot takes over the caller's reference to {@code page}.
     */
    public void push(Page page, int len, int flags) {
        link(page, 0, len, flags);
    }

    /**
     * Publishes {@code len} bytes of {@code page} from {@code offset} as the new head slot, taking over one
     * reference to the page that the caller already holds (from {@link #takePage}, {@link Page#retain}, or a
     * slot of another ring that it empties). Only call when not {@link #isFull()}.
     */
    public void link(Page page, int offset, int len, int flags) {
        assert !isFull() && len > 0 && len <= PAGE_SIZE;
        slots[head & mask].set(page, offset, len, flags);
        head++;
        queuedBytes += len;
        int occ = head - tail;
        if (occ > peakOccupancy) {
            peakOccupancy = occ;
        }
    }

    // ---- splice and tee: moving and sharing slots between rings (both pipes' locks held) ------------

    /** @return the {@code i}-th buffer from the tail; {@code i} must be below {@link #occupancy()} */
    public PipeBuffer bufferAt(int i) {
        return slots[(tail + i) & mask];
    }

    /**
     * Moves the whole tail buffer to the head of {@code to}, flags and all (Linux
     * {@code splice_pipe_to_pipe}: "simply move the whole buffer"): the reference travels with it, so the
     * page's count does not change and no byte is copied. {@code to} must not be full.
     *
     * @return the bytes moved
     */
    public int moveTailTo(PageRing to) {
        PipeBuffer buf = slots[tail & mask];
        int n = buf.len;
        to.link(buf.ref, buf.offset, n, buf.flags);
        queuedBytes -= n;
        buf.clear();
        tail++;
        return n;
    }

    /**
     * Gives {@code to} the first {@code n} bytes of the tail buffer by reference and consumes them here
     * (Linux's split in {@code splice_pipe_to_pipe}). The page is now shared, so neither slot may take merged
     * writes any more: the new slot's bytes are followed in the page by this one's, which a merge would
     * overwrite (the "Dirty Pipe" bug). {@code n} must be below the buffer's length; {@code to} not full.
     */
    public void splitTailTo(PageRing to, int n) {
        PipeBuffer buf = slots[tail & mask];
        assert n > 0 && n < buf.len;
        buf.ref.retain();
        buf.flags &= ~PipeBuffer.FLAG_CAN_MERGE;
        to.link(buf.ref, buf.offset, n, buf.flags);
        consumed(buf, n);
    }

    /**
     * Gives {@code to} the first {@code n} bytes of the {@code i}-th buffer from the tail by reference,
     * without consuming them (Linux {@code link_pipe}, for tee). Both slots lose {@code CAN_MERGE}: a later
     * small write to either pipe must not land in a page the other pipe still reads.
     */
    public void shareTo(PageRing to, int i, int n) {
        PipeBuffer buf = slots[(tail + i) & mask];
        assert n > 0 && n <= buf.len;
        buf.ref.retain();
        buf.flags &= ~PipeBuffer.FLAG_CAN_MERGE;
        to.link(buf.ref, buf.offset, n, buf.flags);
    }

    // ---- reading ----------------------------------------------------------------------------------

    /** @return the oldest buffer; only call when not {@link #isEmpty()} */
    public PipeBuffer tailBuffer() {
        return slots[tail & mask];
    }

    /** Marks {@code n} bytes of the tail buffer as read. */
    public void consumed(PipeBuffer buf, int n) {
        buf.offset += n;
        buf.len -= n;
        queuedBytes -= n;
    }

    /** Drops what is left of the tail buffer unread (packet mode discards a packet's tail). */
    public void discardRest(PipeBuffer buf) {
        queuedBytes -= buf.len;
        buf.offset += buf.len;
        buf.len = 0;
    }

    /**
     * Frees the tail slot (its buffer must be fully consumed) and lets go of its page: straight into the
     * pool if this ring held the only reference to one of its own pages, else through {@link Page#release}.
     */
    public void releaseTail() {
        PipeBuffer buf = slots[tail & mask];
        assert buf.len == 0;
        freed(buf.offset);
        recycle(buf.ref);
        buf.clear();
        tail++;
    }

    /**
     * Lets go of one reference to a page that no slot of this ring holds any more (a slot's page, or one
     * taken over by {@link #detachTail}): straight into the pool if it was the only reference to one of
     * this pipe's own pages, else through {@link Page#release}. Call with the pipe's lock held.
     */
    public void recycle(Page p) {
        if (p.exclusiveTo(pool)) {
            pool.give(p); // the common case: no atomic update, the page never left this pipe
        } else {
            p.release(pool);
        }
    }

    /**
     * Lets go of pages that no slot of this ring holds any more ({@link #detachTail}), without the pipe's
     * lock: this pipe's own pages that nobody else references go onto its pool's return stack in one push
     * ({@link PagePool#giveBack}); shared ones lose a reference ({@link Page#release}).
     */
    public void recycleUnlocked(Page[] pages, int n) {
        Page first = null;
        Page last = null;
        for (int i = 0; i < n; i++) {
            Page p = pages[i];
            if (p.exclusiveTo(pool)) {
                // Only this caller holds it, so nobody can add a reference: no atomic update needed.
                p.initRefs(0);
                p.nextReturned = first;
                first = p;
                if (last == null) {
                    last = p;
                }
            } else {
                p.release(null);
            }
        }
        if (first != null) {
            pool.giveBack(first, last);
        }
    }

    /**
     * Frees the tail slot without releasing its page: the caller takes over the slot's reference and must
     * {@link Page#release} it when done with the bytes (which it read from the slot before calling this).
     * For transfers that hand the bytes on outside the lock.
     */
    public void detachTail() {
        PipeBuffer buf = slots[tail & mask];
        freed(buf.offset + buf.len);
        queuedBytes -= buf.len;
        buf.clear();
        tail++;
    }

    // ---- resizing ---------------------------------------------------------------------------------

    /**
     * Replaces the ring by one of {@code newSlots} slots, keeping every unread byte in order
     * (Linux {@code pipe_resize_ring}) and every reserved slot free. Fails, changing nothing, if more slots
     * are in use or reserved than would fit.
     *
     * @throws IllegalArgumentException if {@code newSlots} is not a power of two in range
     * @throws IllegalStateException    if {@code newSlots} is below the occupancy plus the reserved slots
     */
    public void resize(int newSlots) {
        checkSlots(newSlots);
        int occ = occupancy();
        if (newSlots < occ + reserved) {
            throw new IllegalStateException("pipe holds " + occ + " pages of data"
                    + (reserved > 0 ? " and " + reserved + " promised to a transfer in flight" : "")
                    + "; cannot shrink to " + newSlots + " pages until it is read (Linux: EBUSY)");
        }
        capacity = newSlots;
        if (newSlots == slots.length) {
            maxUsage = newSlots - reserved;
            return;
        }
        PipeBuffer[] next = new PipeBuffer[newSlots];
        for (int i = 0; i < occ; i++) {
            next[i] = slots[(tail + i) & mask];
        }
        for (int i = occ; i < newSlots; i++) {
            next[i] = new PipeBuffer();
        }
        slots = next;
        mask = newSlots - 1;
        tail = 0;
        head = occ;
        maxUsage = newSlots - reserved;
        publish();
    }

    /**
     * Releases every page, in the slots and in the pool (the pipe is gone). Shared pages lose this pipe's
     * references, so the other pipe's last release decides their fate; pages of this pool that come back
     * later are dropped.
     */
    public void drainAll() {
        pool.close();
        while (head != tail) {
            PipeBuffer buf = slots[tail & mask];
            queuedBytes -= buf.len;
            buf.ref.release(pool);
            buf.clear();
            tail++;
        }
        pool.clear();
        publish();
    }
}
