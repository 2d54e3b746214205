package dev.sluice.shm;

/**
 * The ring's two operations, each one pass, never waiting, returning what it did; the ends
 * ({@link ShmReadEnd}, {@link ShmWriteEnd}) wait between passes. A pass holds its side's lock
 * ({@code READ_LOCK} or {@code WRITE_LOCK}) throughout, as {@code pipe_read()} and {@code pipe_write()} hold
 * {@code pipe->mutex}, so readers take turns and so do writers; the shared {@code LOCK}, which a reader and a
 * writer both take, it holds only to look at the ring, to publish and to give slots back. A pass of more than
 * one page copies without {@code LOCK}, so a reader and a writer copy beside each other; a pass of one page or
 * less (a message, a token) copies under it, which saves a second visit, and when no one holds its side's lock
 * it takes {@code LOCK} alone: whoever takes the side's lock later takes {@code LOCK} before touching the ring.
 *
 * <p>Only the reader holding {@code READ_LOCK} moves the tail or a slot's offset, and only the writer holding
 * {@code WRITE_LOCK} moves the head, fills free slots past it or adds bytes to the newest slot: so the slots a
 * reader saw stay put while it copies them (only the newest can grow), and the free slots a writer saw stay free.
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
     * Pages a pass copies between two visits to {@code LOCK} (16 KiB): a writer publishes, and a reader gives
     * back, this often, so the other side works on the ring while this one copies. A side that spins sees each
     * such store at once; one that sleeps is woken once, when the pass ends, as {@code pipe_read()} and
     * {@code pipe_write()} wake the other side once per call: a wake-up per chunk would cost the sleeper a
     * sleep per chunk when the machine is busy.
     */
    static final int CHUNK = 4;
    /** A pass that must be done holding its side's lock: it copies more than a page, or someone holds that lock. */
    private static final long LONGER = Long.MIN_VALUE;
    /** What a change under {@code LOCK} calls for once it is released. */
    private static final int WAKE_WRITERS = 1;
    private static final int WAKE_READERS = 2;
    private static final int LEFT_DATA = 4;
    private static final int ROOM_LEFT = 8;

    private final Region r;
    private final Control c;

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
        // A glance without the lock: at most one slot queued is worth a try under LOCK alone (rechecked there).
        long n = r.occupancyUnchecked(r.headTail()) <= 1 ? readPass(dst, false) : LONGER;
        if (n != LONGER) {
            return n;
        }
        c.lock(Layout.READ_LOCK);
        try {
            return readPass(dst, true);
        } finally {
            c.unlock(Layout.READ_LOCK);
        }
    }

    /**
     * One read: sees what is queued under {@code LOCK}; one slot it copies there and then; more it copies out
     * without {@code LOCK}, giving slots back under {@code LOCK} every {@link #CHUNK} pages (so a writer can
     * refill them while it copies on) and at the end. Without {@code READ_LOCK} ({@code sideHeld} false) it
     * does only what it can under {@code LOCK} alone, and only while no reader holds {@code READ_LOCK} (one in
     * a longer pass copies without {@code LOCK}); else it returns {@link #LONGER} having done nothing.
     */
    private long readPass(Span dst, boolean sideHeld) throws ShmPipeFormatException {
        int tail;
        int used;
        long n = -1;
        int todo = 0;
        c.lock();
        try {
            long ht = r.headTail();
            tail = Region.tail(ht);
            used = r.occupancy(ht);
            if (used == 0) {
                return Region.writers(r.getLong(Layout.HANDLES)) == 0 ? EOF : 0;
            }
            if (!sideHeld && (used > 1 || r.getInt(Layout.READ_LOCK) != 0)) {
                return LONGER;
            }
            if (used == 1) {
                int w = r.slotWord(tail);
                int k = (int) Math.min(r.slotLength(tail, w), dst.remaining());
                dst.fill(r.seg, r.pageOffset(tail) + (w & Layout.OFF_MASK), k);
                n = k;
                todo = giveBackLocked(tail, 1, k);
            }
        } finally {
            c.unlock();
        }
        if (n >= 0) {
            afterRead(todo);
            return n;
        }
        n = 0;
        int touched = 0;
        int freed = 0;
        int lastTaken = 0;
        int wake = 0;
        while (touched < used && dst.remaining() > 0) {
            int w = r.slotWord(tail + touched); // published with a release store: its bytes are there
            int k = (int) Math.min(r.slotLength(tail + touched, w), dst.remaining());
            dst.fill(r.seg, r.pageOffset(tail + touched) + (w & Layout.OFF_MASK), k);
            n += k;
            touched++;
            lastTaken = k;
            if ((w & Layout.PACKET) != 0) {
                break; // one packet per read; what did not fit is dropped, as Linux does
            }
            if (touched - freed == CHUNK && touched < used && dst.remaining() > 0) {
                wake |= giveBack(tail + freed, CHUNK, k) & WAKE_WRITERS; // whole pages: only the newest can grow
                freed = touched;
            }
        }
        afterRead(wake | giveBack(tail + freed, touched - freed, lastTaken));
        return n;
    }

    private int giveBack(int from, int count, int lastTaken) throws ShmPipeFormatException {
        c.lock();
        try {
            return giveBackLocked(from, count, lastTaken);
        } finally {
            c.unlock();
        }
    }

    /**
     * Gives back the slots {@code [from, from + count)} that this reader copied, the last of them only if it
     * took all its bytes (a writer may have added some since), by one store of the tail. {@code LOCK} held.
     *
     * @param lastTaken bytes taken from the last of them
     * @return {@link #WAKE_WRITERS} if the ring was full (pipe_read(): a writer sleeps only on a full ring, and
     *         no one but this reader can have freed a slot since), {@link #LEFT_DATA} if data is left
     */
    private int giveBackLocked(int from, int count, int lastTaken) throws ShmPipeFormatException {
        long ht = r.headTail();
        int usedNow = r.occupancy(ht);
        int last = from + count - 1;
        int w = r.slotWord(last);
        int len = r.slotLength(last, w);
        boolean whole = lastTaken == len || (w & Layout.PACKET) != 0;
        int freed = whole ? count : count - 1;
        if (freed > 0) {
            r.setLong(Layout.HEAD_TAIL, Region.headTail(Region.head(ht), from + freed)); // publishes the freed slots
        }
        if (!whole) {
            r.setSlotWord(last, Region.slotWord((w & Layout.OFF_MASK) + lastTaken, len - lastTaken, w & FLAGS));
        }
        return (usedNow == r.layout.slots && freed > 0 ? WAKE_WRITERS : 0) | (usedNow > freed ? LEFT_DATA : 0);
    }

    private void afterRead(int todo) {
        if ((todo & WAKE_WRITERS) != 0) {
            c.wakeWriters(false);
        }
        if ((todo & LEFT_DATA) != 0 && r.getInt(Layout.DATA_WAITERS) > 0) {
            c.wakeReaders(false); // pass the baton: a reader woken for this data may have been someone else
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
        long n = src.remaining() <= Layout.PAGE ? writePass(src, packet, mayMerge, false) : LONGER;
        if (n != LONGER) {
            return n;
        }
        c.lock(Layout.WRITE_LOCK);
        try {
            return writePass(src, packet, mayMerge, true);
        } finally {
            c.unlock(Layout.WRITE_LOCK);
        }
    }

    /**
     * One write: under {@code LOCK}, the broken-pipe check, the merge (less than a page), the free slots, and a
     * remainder of one page copied and published there and then; a longer one is copied without {@code LOCK}
     * into the free slots past the head and published under {@code LOCK} every {@link #CHUNK} pages (so a reader
     * can copy them out while this writer copies on) and at the end. Without {@code WRITE_LOCK} ({@code sideHeld}
     * false, only for at most a page) it runs only while no writer holds {@code WRITE_LOCK} (one in a longer pass
     * copies without {@code LOCK}); else it returns {@link #LONGER} having done nothing.
     */
    private long writePass(Span src, boolean packet, boolean mayMerge, boolean sideHeld)
            throws ShmPipeFormatException {
        long n = 0;
        int head;
        int free;
        int todo = -1;
        c.lock();
        try {
            if (Region.readers(r.getLong(Layout.HANDLES)) == 0) {
                return BROKEN;
            }
            if (!sideHeld && r.getInt(Layout.WRITE_LOCK) != 0) {
                return LONGER;
            }
            long ht = r.headTail();
            head = Region.head(ht);
            int used = r.occupancy(ht);
            int chars = (int) (src.remaining() & (Layout.PAGE - 1));
            if (mayMerge && chars != 0 && used > 0) {
                int last = head - 1;
                int w = r.slotWord(last);
                int len = r.slotLength(last, w);
                int off = w & Layout.OFF_MASK;
                if ((w & Layout.CAN_MERGE) != 0 && off + len + chars <= Layout.PAGE) {
                    src.drain(r.seg, r.pageOffset(last) + off + len, chars); // copy first, then publish the length
                    r.setSlotWord(last, Region.slotWord(off, len + chars, w & FLAGS));
                    n += chars;
                }
            }
            free = r.layout.slots - used;
            if (src.remaining() == 0 || free == 0) {
                todo = free > 0 ? ROOM_LEFT : 0;
            } else if (src.remaining() <= Layout.PAGE) {
                n += fill(src, head, packet);
                todo = publishLocked(head, head + 1);
            }
        } finally {
            c.unlock();
        }
        if (todo < 0) {
            int k = 0;
            int wake = 0;
            while (src.remaining() > 0 && k < free) {
                n += fill(src, head + k, packet);
                k++;
                if (k % CHUNK == 0 || src.remaining() == 0 || k == free) {
                    todo = publish(head + (k - 1) / CHUNK * CHUNK, head + k);
                    wake |= todo & WAKE_READERS;
                }
            }
            todo |= wake;
        }
        if ((todo & WAKE_READERS) != 0) {
            c.wakeReaders(false); // pipe_write(): readers sleep only on an empty pipe
        }
        if ((todo & ROOM_LEFT) != 0 && r.getInt(Layout.ROOM_WAITERS) > 0) {
            c.wakeWriters(false); // pass the baton to the next writer
        }
        return n;
    }

    /** Copies up to a page of {@code src} into the free slot {@code slot} and sets its word (not yet published). */
    private int fill(Span src, int slot, boolean packet) {
        int m = (int) Math.min(Layout.PAGE, src.remaining());
        src.drain(r.seg, r.pageOffset(slot), m);
        r.setSlotWord(slot, Region.slotWord(0, m, packet ? Layout.PACKET : Layout.CAN_MERGE));
        return m;
    }

    private int publish(int from, int to) throws ShmPipeFormatException {
        c.lock();
        try {
            return publishLocked(from, to);
        } finally {
            c.unlock();
        }
    }

    /**
     * Moves the head from {@code from} to {@code to}: the one store that publishes the pages between (a writer
     * killed before it published none of them). {@code LOCK} held.
     *
     * @return {@link #WAKE_READERS} if the ring was empty, {@link #ROOM_LEFT} if room is left
     */
    private int publishLocked(int from, int to) throws ShmPipeFormatException {
        long ht = r.headTail();
        int used = r.occupancy(ht); // readers only free slots, and only this writer adds (WRITE_LOCK)
        if (Region.head(ht) != from) {
            throw r.corrupt("the head moved from " + from + " to " + Region.head(ht) + " under a writer");
        }
        r.setLong(Layout.HEAD_TAIL, Region.headTail(to, Region.tail(ht)));
        return (used == 0 ? WAKE_READERS : 0) | (used + (to - from) < r.layout.slots ? ROOM_LEFT : 0);
    }

    /** @return bytes queued ({@code FIONREAD}), summed under the lock */
    long queued() throws ShmPipeFormatException {
        c.lock();
        try {
            long ht = r.headTail();
            int tail = Region.tail(ht);
            int used = r.occupancy(ht);
            long sum = 0;
            for (int i = 0; i < used; i++) {
                sum += r.slotLength(tail + i, r.slotWord(tail + i));
            }
            return sum;
        } finally {
            c.unlock();
        }
    }
}
