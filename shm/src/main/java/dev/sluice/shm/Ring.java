package dev.sluice.shm;

/**
 * The ring's two operations, each one pass, never waiting, returning what it did; the ends
 * ({@link ShmReadEnd}, {@link ShmWriteEnd}) wait between passes. A pass holds its side's lock
 * ({@code READ_LOCK} or {@code WRITE_LOCK}) throughout, as {@code pipe_read()} and {@code pipe_write()} hold
 * {@code pipe->mutex}, so readers take turns and so do writers. A reader and a writer do not share a lock:
 *
 * <ul>
 *   <li>only the writer holding {@code WRITE_LOCK} moves {@code HEAD}, fills the free slots past it and adds
 *       to the newest slot; only the reader holding {@code READ_LOCK} moves {@code TAIL} and a slot's offset.
 *       Each side reads its own word, then the other's: the slots a reader saw stay put while it copies them,
 *       and the free slots a writer saw stay free;</li>
 *   <li>a page is handed over by one store: a writer copies, then moves {@code HEAD} (a writer killed before
 *       that published nothing of the pass since its last store); a reader copies out, then moves
 *       {@code TAIL};</li>
 *   <li>a merge, the one change to a slot a reader can see, is made holding {@code READ_LOCK} as well (taken
 *       second, and only when the newest slot has room), so no reader is copying or giving back that slot
 *       meanwhile. The locks are always taken in the order {@code WRITE_LOCK}, {@code READ_LOCK},
 *       {@code LOCK}.</li>
 * </ul>
 *
 * <p>Wake-ups follow the futex waiter's protocol ({@link ShmPipe#await}): a sleeper counts itself in
 * {@code DATA_WAITERS} (or {@code ROOM_WAITERS}), then looks at the ring; a pass stores its word, then reads
 * the count, so one of the two sees the other. A pass wakes the other side once, when it ends, as
 * {@code pipe_read()} and {@code pipe_write()} wake once per call.
 *
 * <p>Each slot of the ring is one 4 KiB page and one slot word (offset, length, flags). Small writes merge
 * into the newest page if it allows it ({@code CAN_MERGE}), so sixteen 1-byte writes take one slot; a write of
 * at most {@code PIPE_BUF} bytes either merges whole or takes one free slot whole, so it is never split. Every
 * index and length read from the mapping is checked before use ({@link Region#occupancy},
 * {@link Region#slotLength}); slot numbers are masked at every dereference.
 */
final class Ring {
    static final long EOF = -1;
    static final long BROKEN = -1;
    private static final int FLAGS = Layout.PACKET | Layout.CAN_MERGE;
    /**
     * Pages a pass copies between two stores of its word (16 KiB): a writer publishes, and a reader gives
     * back, this often, so the other side works on the ring while this one copies.
     */
    static final int CHUNK = 4;

    private final Region r;
    private final Control c;
    /**
     * {@code TAIL} as this attachment's writers last read it ({@code WRITE_LOCK} held): the real tail is at or
     * past it, so the free slots it shows are free; it is read again when it shows too few, or when
     * {@code HEAD} is not where this attachment left it (another process wrote since: it may have gone round
     * the ring so often that an old tail looks new).
     */
    private int tailSeen;
    /** {@code HEAD} as this attachment's last write pass left it ({@code WRITE_LOCK} held). */
    private int headLeft;

    Ring(Region r, Control c) {
        this.r = r;
        this.c = c;
    }

    /**
     * Reads what is queued, up to {@code dst}'s room (one packet at most from a packet slot).
     *
     * @return bytes read; 0 if the pipe is empty and a writer is open; {@link #EOF} if it is empty with none
     */
    long read(Span dst) throws ShmPipeFormatException {
        c.lock(Layout.READ_LOCK);
        try {
            return readPass(dst);
        } finally {
            c.unlock(Layout.READ_LOCK);
        }
    }

    /** One read: copies slot after slot out, giving them back every {@link #CHUNK} pages and at the end. */
    private long readPass(Span dst) throws ShmPipeFormatException {
        int tail = r.tail();
        int head = r.head();
        int used = r.occupancy(head, tail);
        if (used == 0) {
            if (Region.writers(r.getLong(Layout.HANDLES)) != 0) {
                return 0;
            }
            // The last writer moved HEAD before its handle count fell: looked at after the count, it is final.
            used = r.occupancy(r.head(), tail);
            if (used == 0) {
                return EOF;
            }
        }
        long n = 0;
        int taken = 0;
        while (taken < used && dst.remaining() > 0) {
            int slot = tail + taken;
            int w = r.slotWord(slot); // published before HEAD moved past it: its bytes are there
            int len = r.slotLength(slot, w);
            int k = (int) Math.min(len, dst.remaining());
            dst.fill(r.seg, r.pageOffset(slot) + (w & Layout.OFF_MASK), k);
            n += k;
            if (k < len && (w & Layout.PACKET) == 0) {
                r.setSlotWord(slot, Region.slotWord((w & Layout.OFF_MASK) + k, len - k, w & FLAGS));
                break;
            }
            taken++; // whole, or a packet: one per read, what did not fit dropped, as Linux does
            if ((w & Layout.PACKET) != 0) {
                break;
            }
            if (taken % CHUNK == 0 && taken < used && dst.remaining() > 0) {
                r.setIntRelease(Layout.TAIL, tail + taken); // no fence: the last store, below, has one
            }
        }
        if (taken > 0) {
            // A full fence, even if the value was stored already (a partial take can end the pass right after
            // a step's store): the waiters counted below see the room.
            r.setInt(Layout.TAIL, tail + taken);
            if (r.getInt(Layout.ROOM_WAITERS) > 0) {
                wakeWriters(tail, tail + taken);
            }
        }
        if (used > taken && r.getInt(Layout.DATA_WAITERS) > 0) {
            c.wakeReaders(false); // pass the baton: a reader woken for this data may have been someone else
        }
        return n;
    }

    /**
     * Wakes a writer if one may sleep on this pass's room: pipe_read() wakes when the ring was full. With no
     * shared lock that is read from the words as they stand once {@code TAIL} is stored: a writer asleep saw
     * {@code HEAD} a ring's length past a tail at or after {@code from}, and there is room now. (A writer
     * counted but not asleep, woken a moment ago, is not woken again for every pass: that was a system call
     * per pass while it got going.)
     *
     * @param from TAIL when the pass began
     * @param to   TAIL as it stored it last
     */
    private void wakeWriters(int from, int to) {
        long slots = r.layout.slots;
        int head = r.head();
        if (((head - from) & 0xFFFF_FFFFL) >= slots && ((head - to) & 0xFFFF_FFFFL) < slots) {
            c.wakeWriters(false);
        }
    }

    /**
     * Wakes a reader if one may sleep on this pass's bytes: pipe_write() wakes when the ring was empty. A
     * reader asleep saw {@code TAIL} at {@code from} ({@code HEAD} stood there until this pass, which holds
     * {@code WRITE_LOCK}); if readers have taken all of it since, there is nothing to wake one for, and if
     * slots older than this pass's are still queued, the pass that queued them saw to the wake-up.
     *
     * @param from HEAD when the pass began
     * @param to   HEAD as it stored it last
     */
    private void wakeReaders(int from, int to) {
        int tail = r.tail();
        if (((tail - from) & 0xFFFF_FFFFL) < ((to - from) & 0xFFFF_FFFFL)) {
            c.wakeReaders(false);
        }
    }

    /**
     * Stores what fits of {@code src}: first, if {@code mayMerge} (only on a call's first pass, as in
     * {@code pipe_write()}), the sub-page remainder into the newest page; then page after page into free slots.
     *
     * @param packet whether the new slots are packets (never merged into)
     * @return bytes stored (possibly 0: no room); {@link #BROKEN} if every read handle is closed
     */
    long write(Span src, boolean packet, boolean mayMerge) throws ShmPipeFormatException {
        c.lock(Layout.WRITE_LOCK);
        try {
            return writePass(src, packet, mayMerge);
        } finally {
            c.unlock(Layout.WRITE_LOCK);
        }
    }

    /** One write: the broken-pipe check, the merge, then free slots filled, published every {@link #CHUNK}. */
    private long writePass(Span src, boolean packet, boolean mayMerge) throws ShmPipeFormatException {
        if (Region.readers(r.getLong(Layout.HANDLES)) == 0) {
            return BROKEN;
        }
        int head = r.head();
        long n = mayMerge ? merge(src, head) : 0;
        int free = src.remaining() == 0 ? 0 : freeSlots(head, src.remaining());
        int k = 0;
        while (k < free && src.remaining() > 0) {
            n += fill(src, head + k, packet);
            k++;
            if (k % CHUNK == 0 && k < free && src.remaining() > 0) {
                r.setIntRelease(Layout.HEAD, head + k); // no fence: the last store, below, has one
            }
        }
        if (k > 0) {
            r.setInt(Layout.HEAD, head + k); // a full fence: the waiters counted below see the bytes
            headLeft += k; // freeSlots set it to head
            if (r.getInt(Layout.DATA_WAITERS) > 0) {
                wakeReaders(head, head + k);
            }
        }
        if (r.getInt(Layout.ROOM_WAITERS) > 0 && r.occupancy(head + k, r.tail()) < r.layout.slots) {
            c.wakeWriters(false); // pass the baton to the next writer
        }
        return n;
    }

    /**
     * @param bytes what is left to write
     * @return free slots past {@code head}, from {@link #tailSeen}, read again if that shows fewer than the
     *         bytes need or another attachment wrote since ({@link #headLeft})
     */
    private int freeSlots(int head, long bytes) throws ShmPipeFormatException {
        long need = Math.min(r.layout.slots, (bytes + Layout.PAGE - 1) / Layout.PAGE);
        long used = (head - tailSeen) & 0xFFFF_FFFFL;
        if (head != headLeft || used > r.layout.slots || r.layout.slots - used < need) {
            tailSeen = r.tail();
            used = r.occupancy(head, tailSeen);
        }
        headLeft = head;
        return (int) (r.layout.slots - used);
    }

    /**
     * Adds the sub-page remainder of {@code src} to the newest slot if it has room and allows it, holding
     * {@code READ_LOCK} too (the one change to a slot a reader may be looking at).
     *
     * @return bytes merged: the remainder, or 0
     */
    private int merge(Span src, int head) throws ShmPipeFormatException {
        int chars = (int) (src.remaining() & (Layout.PAGE - 1));
        if (chars == 0 || !mergeable(head, r.slotWord(head - 1), chars)) {
            return 0; // final: a reader can turn a yes into a no (it takes the slot), never a no into a yes
        }
        c.lock(Layout.READ_LOCK);
        try {
            int last = head - 1;
            int w = r.slotWord(last);
            if (!mergeable(head, w, chars)) {
                return 0; // a reader took it meanwhile
            }
            int off = w & Layout.OFF_MASK;
            int len = r.slotLength(last, w);
            src.drain(r.seg, r.pageOffset(last) + off + len, chars); // copy first, then publish the length
            r.setSlotWord(last, Region.slotWord(off, len + chars, w & FLAGS));
            return chars;
        } finally {
            c.unlock(Layout.READ_LOCK);
        }
    }

    /** @return whether the newest slot, of word {@code w}, is queued and takes {@code chars} more bytes */
    private boolean mergeable(int head, int w, int chars) throws ShmPipeFormatException {
        if ((w & Layout.CAN_MERGE) == 0) {
            return false;
        }
        int len = r.slotLength(head - 1, w);
        return (w & Layout.OFF_MASK) + len + chars <= Layout.PAGE && r.occupancy(head, r.tail()) > 0;
    }

    /**
     * Copies up to a page of {@code src} into the free slot {@code slot} and sets its word (not yet published).
     * A full page is not marked {@code CAN_MERGE}: nothing fits after it. A word that already says the same
     * (a stream of whole pages leaves every word alike) is not stored again: the store would take the line
     * from the reader who read it, a trip between the CPUs on every write.
     */
    private int fill(Span src, int slot, boolean packet) {
        int m = (int) Math.min(Layout.PAGE, src.remaining());
        src.drain(r.seg, r.pageOffset(slot), m);
        int word = Region.slotWord(0, m, packet ? Layout.PACKET : m < Layout.PAGE ? Layout.CAN_MERGE : 0);
        if (r.slotWord(slot) != word) {
            r.setSlotWord(slot, word);
        }
        return m;
    }

    /** @return bytes queued ({@code FIONREAD}), summed holding {@code READ_LOCK} (no reader moves them meanwhile) */
    long queued() throws ShmPipeFormatException {
        c.lock(Layout.READ_LOCK);
        try {
            int tail = r.tail();
            int used = r.occupancy(r.head(), tail);
            long sum = 0;
            for (int i = 0; i < used; i++) {
                sum += r.slotLength(tail + i, r.slotWord(tail + i));
            }
            return sum;
        } finally {
            c.unlock(Layout.READ_LOCK);
        }
    }
}
