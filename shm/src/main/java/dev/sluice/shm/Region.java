package dev.sluice.shm;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.VarHandle;
import java.util.concurrent.atomic.AtomicLong;

/**
 * This process's mapping of a shared pipe: the segment, its layout (checked once), the shared words' accessors,
 * and the use count that decides when the mapping may be unmapped.
 *
 * <p><b>Memory order.</b> Every shared word is read and written through {@link VarHandle}s in volatile or
 * acquire/release mode; the pages' bytes are copied plainly, and are ordered by the store that hands them over
 * (a writer's copy happens before its store of {@code HEAD}, which a reader reads before it copies out; a
 * reader's copy before its store of {@code TAIL}, which a writer reads before it reuses the page), or by a lock
 * (a merge's copy before the release that unlocks {@code READ_LOCK}). Processes on one machine
 * share the CPU's memory model, so the JMM's volatile and acquire/release rules hold between them as between
 * threads.
 *
 * <p><b>Unmapping.</b> A call holds a use of the region from start to end ({@link #acquire()} /
 * {@link #release()}); closing marks the region and the last use out unmaps it (closes the arena), so no
 * thread of this JVM touches an unmapped page. The futex system calls get raw addresses, not segments, so a
 * wait in progress does not hold the arena open (a waiter always holds a use instead).
 */
final class Region {
    private static final VarHandle INT = ValueLayout.JAVA_INT.varHandle();
    private static final VarHandle LONG = ValueLayout.JAVA_LONG.varHandle();
    private static final long CLOSED = 1L << 62;

    final MemorySegment seg;
    final long base;
    final Layout layout;
    final int mask;
    final String name;
    /** Which memory this maps, the same for every mapping of it while any exists. */
    final Id id;
    private final Arena arena;
    /** The memfd this process created the pipe with, kept open so that peers can open its /proc path; or -1. */
    private final int fd;
    private final AtomicLong uses = new AtomicLong();

    /**
     * The identity of the memory behind a mapping: the device and inode of the memfd or file. A mapping holds
     * its file, so two live mappings with the same identity map the same memory.
     */
    record Id(long dev, long ino) {
    }

    Region(Arena arena, MemorySegment seg, Layout layout, int fd, String name, Id id) {
        this.arena = arena;
        this.id = id;
        this.seg = seg;
        this.base = seg.address();
        this.layout = layout;
        this.mask = layout.slots - 1;
        this.fd = fd;
        this.name = name;
    }

    // ---- uses ---------------------------------------------------------------------------------------

    /** @return whether a use was taken (false once closing has begun) */
    boolean acquire() {
        for (;;) {
            long u = uses.get();
            if ((u & CLOSED) != 0) {
                return false;
            }
            if (uses.compareAndSet(u, u + 1)) {
                return true;
            }
        }
    }

    void release() {
        if (uses.decrementAndGet() == CLOSED) {
            unmap();
        }
    }

    /** Unmaps once the last use is released (now, if none is held). */
    void close() {
        long u = uses.getAndUpdate(x -> x | CLOSED);
        if ((u & CLOSED) == 0 && u == 0) {
            unmap();
        }
    }

    boolean isClosed() {
        return (uses.get() & CLOSED) != 0;
    }

    private void unmap() {
        arena.close();
        if (fd >= 0) {
            Native.close(fd);
        }
    }

    // ---- shared words -------------------------------------------------------------------------------

    int getInt(long off) {
        return (int) INT.getVolatile(seg, off);
    }

    void setInt(long off, int v) {
        INT.setVolatile(seg, off, v);
    }

    void setIntRelease(long off, int v) {
        INT.setRelease(seg, off, v);
    }

    boolean casInt(long off, int expect, int v) {
        return INT.compareAndSet(seg, off, expect, v);
    }

    int getAndAddInt(long off, int d) {
        return (int) INT.getAndAdd(seg, off, d);
    }

    int getAndSetInt(long off, int v) {
        return (int) INT.getAndSet(seg, off, v);
    }

    long getLong(long off) {
        return (long) LONG.getVolatile(seg, off);
    }

    void setLong(long off, long v) {
        LONG.setVolatile(seg, off, v);
    }

    // ---- the ring's words, checked --------------------------------------------------------------------

    /** @return the head: only a writer holding {@code WRITE_LOCK} moves it (a release of the slots before it) */
    int head() {
        return getInt(Layout.HEAD);
    }

    /** @return the tail: only a reader holding {@code READ_LOCK} moves it (a release of the slots before it) */
    int tail() {
        return getInt(Layout.TAIL);
    }

    /**
     * @return slots in use, checked: a peer that wrote a head and tail further apart than the ring is long
     *         would otherwise send a reader round the ring reading stale pages. Each side reads its own word
     *         first and the other's second, so in a sound pipe the pair is never more than the ring apart.
     */
    int occupancy(int head, int tail) throws ShmPipeFormatException {
        long used = (head - tail) & 0xFFFF_FFFFL;
        if (used > layout.slots) {
            throw corrupt("head " + head + " and tail " + tail + " are " + used + " slots apart in a ring of "
                    + layout.slots);
        }
        return (int) used;
    }

    /**
     * @return occupancy without the check, for readiness tests: the tail read first, so a head that moves on
     *         meanwhile can only add; above the ring's length only in a corrupt pipe
     */
    long occupancyRaw() {
        int tail = tail();
        return (head() - tail) & 0xFFFF_FFFFL;
    }

    /** @return {@link #occupancyRaw()}, an impossible value reading as "full" */
    int occupancyUnchecked() {
        long used = occupancyRaw();
        return used > layout.slots ? layout.slots : (int) used;
    }

    /** @return the slot word of ring position {@code slot} (masked here, so always inside the slot table) */
    int slotWord(int slot) {
        return getInt(layout.slotWord(slot & mask));
    }

    void setSlotWord(int slot, int word) {
        setIntRelease(layout.slotWord(slot & mask), word);
    }

    /** @return the offset into the mapping of ring position {@code slot}'s page (masked) */
    long pageOffset(int slot) {
        return layout.page(slot & mask);
    }

    /**
     * @return the checked bytes a slot holds; its offset is {@code word & OFF_MASK}
     * @throws ShmPipeFormatException if offset + length leaves the page or the slot is empty
     */
    int slotLength(int slot, int word) throws ShmPipeFormatException {
        int off = word & Layout.OFF_MASK;
        int len = (word >>> Layout.LEN_SHIFT) & Layout.OFF_MASK;
        if (len == 0 || off + len > Layout.PAGE) {
            throw corrupt("slot " + slot + " says " + len + " bytes at offset " + off + " of a " + Layout.PAGE
                    + "-byte page");
        }
        return len;
    }

    static int slotWord(int off, int len, int flags) {
        return off | (len << Layout.LEN_SHIFT) | flags;
    }

    /** @return read handles (low 32 bits of HANDLES), every process's */
    static int readers(long handles) {
        return (int) handles;
    }

    static int writers(long handles) {
        return (int) (handles >>> 32);
    }

    ShmPipeFormatException corrupt(String what) {
        return new ShmPipeFormatException("shared state of " + name + " is corrupt: " + what
                + " (a peer wrote outside the protocol; nothing was read or written outside the mapping)");
    }

    @Override
    public String toString() {
        return name;
    }
}
