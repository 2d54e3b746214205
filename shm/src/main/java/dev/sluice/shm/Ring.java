package dev.sluice.shm;

/**
 * The ring's two operations, each one pass under the shared lock, as {@code pipe_read()} and
 * {@code pipe_write()} do their work under {@code pipe->mutex}: never waiting, returning what they did; the
 * ends ({@link ShmReadEnd}, {@link ShmWriteEnd}) wait between passes.
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
        long n = 0;
        boolean wakeWriters;
        boolean leftData;
        c.lock();
        try {
            long ht = r.headTail();
            int head = Region.head(ht);
            int tail = Region.tail(ht);
            int used = r.occupancy(ht);
            if (used == 0) {
                return Region.writers(r.getLong(Layout.HANDLES)) == 0 ? EOF : 0;
            }
            boolean wasFull = used == r.layout.slots;
            while (used > 0 && dst.remaining() > 0) {
                int w = r.slotWord(tail);
                int len = r.slotLength(tail, w);
                int off = w & Layout.OFF_MASK;
                int k = (int) Math.min(len, dst.remaining());
                dst.fill(r.seg, r.pageOffset(tail) + off, k); // copy out first: the slot is given back after
                n += k;
                boolean packet = (w & Layout.PACKET) != 0;
                if (k == len || packet) {
                    tail++;
                    used--;
                    r.setLong(Layout.HEAD_TAIL, Region.headTail(head, tail)); // publishes the freed slot
                } else {
                    r.setSlotWord(tail, Region.slotWord(off + k, len - k, w & FLAGS));
                }
                if (packet) {
                    break; // one packet per read; what did not fit is dropped, as Linux does
                }
            }
            leftData = used > 0;
            // pipe_read(): wake a writer only if the ring was full when the read began.
            wakeWriters = wasFull && used < r.layout.slots;
        } finally {
            c.unlock();
        }
        if (wakeWriters) {
            c.wakeWriters(false);
        }
        if (leftData && r.getInt(Layout.DATA_WAITERS) > 0) {
            c.wakeReaders(false); // pass the baton: a reader woken for this data may have been someone else
        }
        return n;
    }

    /**
     * Stores what fits of {@code src}: first, if {@code mayMerge} (only on a call's first pass, as in
     * {@code pipe_write()}), the sub-page remainder into the newest page; then page after page into free slots.
     *
     * @param packet whether the new slots are packets (never merged into)
     * @return bytes stored (possibly 0: no room); {@link #BROKEN} if every read handle is closed
     */
    long write(Span src, boolean packet, boolean mayMerge) throws ShmPipeFormatException {
        long n = 0;
        boolean wasEmpty;
        boolean roomLeft;
        c.lock();
        try {
            if (Region.readers(r.getLong(Layout.HANDLES)) == 0) {
                return BROKEN;
            }
            long ht = r.headTail();
            int head = Region.head(ht);
            int tail = Region.tail(ht);
            int used = r.occupancy(ht);
            wasEmpty = used == 0;
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
            while (src.remaining() > 0 && used < r.layout.slots) {
                int k = (int) Math.min(Layout.PAGE, src.remaining());
                src.drain(r.seg, r.pageOffset(head), k);
                r.setSlotWord(head, Region.slotWord(0, k, packet ? Layout.PACKET : Layout.CAN_MERGE));
                head++;
                used++;
                // The one store that publishes the page: a writer killed before it published nothing of it.
                r.setLong(Layout.HEAD_TAIL, Region.headTail(head, tail));
                n += k;
            }
            roomLeft = used < r.layout.slots;
        } finally {
            c.unlock();
        }
        if (wasEmpty && n > 0) {
            c.wakeReaders(false); // pipe_write(): readers sleep only on an empty pipe
        }
        if (roomLeft && r.getInt(Layout.ROOM_WAITERS) > 0) {
            c.wakeWriters(false); // pass the baton to the next writer
        }
        return n;
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
