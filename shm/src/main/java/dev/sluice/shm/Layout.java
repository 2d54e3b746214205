package dev.sluice.shm;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/**
 * Where everything lives in the shared mapping, and the check of a mapping someone else made.
 *
 * <pre>
 *  page 0          header: identity and sizes (written once by the creator, read once by each attacher),
 *                  then the hot words, each on a 128-byte line of its own
 *                    0  magic "SLUICESH"     8 version      12 page size    16 slots     20 process entries
 *                   24  total bytes         32 creator uid  36 reserved     40 pid namespace inode
 *                   48  creation time (ms since the epoch)
 *                  128  LOCK       the futex mutex: 0, or the owner's token (entry, generation) | CONTENDED
 *                  256  HEAD       free-running slot number past the newest published slot (writers move it)
 *                  384  DATA_SEQ   futex word readers sleep on;  388 DATA_WAITERS (threads asleep or about to);
 *                                  392 DATA_WOKEN_AT: when a waker last called FUTEX_WAKE on it (nanoTime)
 *                  512  ROOM_SEQ   futex word writers sleep on;  516 ROOM_WAITERS;  520 ROOM_WOKEN_AT
 *                  640  HANDLES    open read handles (low 32) and write handles (high 32), every process's
 *                  768  READ_LOCK  the readers' futex mutex, held for a whole read pass (as LOCK)
 *                  896  WRITE_LOCK the writers' futex mutex, held for a whole write pass (as LOCK)
 *                 1024  PEERS      bumped each time an entry is given to a process (not hot: a sleeper reads it
 *                                  to know whether its JVM's peer watch must look at the table again)
 *                 1152  TAIL       free-running slot number of the oldest slot not yet given back (readers move it)
 *  page 1          process table: one 64-byte entry per attached (or invited) process
 *                    0  ID (long): pid | start time &lt;&lt; 22, 0 when free     8 GEN (int): bumped per new owner
 *                   12  PENDING (int): 1 while the handles wait for their process to claim them
 *                   16  COUNTS (long): its read handles (low 32) and write handles (high 32)
 *  pages 2..       slot table: one int per slot: offset (13 bits), length (13 bits), PACKET, CAN_MERGE
 *  then            the ring: one 4096-byte page per slot
 * </pre>
 *
 * <p>Every field a peer could have written is checked before it is used as an index or a size: the sizes once
 * at attach (then kept in final fields of this object, never read again), the indices and lengths at every
 * use ({@link Region}). A peer is trusted with the bytes in the pipe, never with this process's memory.
 */
final class Layout {
    static final long MAGIC = 0x4853_4543_4955_4c53L; // "SLUICESH" in little-endian bytes
    /**
     * 4: HEAD and TAIL in words of their own, each moved by its side alone (under its side's lock), so a read
     * and a write no longer meet at {@code LOCK}; a merge into the newest slot also holds {@code READ_LOCK}.
     * 3: PEERS (a version-2 peer would join without bumping it, and a version-3 JVM asleep would not watch it).
     * 2: the side locks READ_LOCK and WRITE_LOCK, and copies outside LOCK.
     */
    static final int VERSION = 4;
    static final int PAGE = 4096;
    /** Up to 256 Ki slots (1 GiB), as {@code PipeOptions.ABSOLUTE_MAX_CAPACITY}. */
    static final int MAX_SLOTS = 1 << 18;
    /** 64 processes, one page of entries; an entry number fits in the lock token's 8 bits with room to spare. */
    static final int MAX_PROCS = 64;
    static final int ENTRY = 64;

    static final long OFF_MAGIC = 0;
    static final long OFF_VERSION = 8;
    static final long OFF_PAGE = 12;
    static final long OFF_SLOTS = 16;
    static final long OFF_PROCS = 20;
    static final long OFF_TOTAL = 24;
    static final long OFF_UID = 32;
    static final long OFF_PIDNS = 40;
    static final long OFF_CREATED = 48;

    static final long LOCK = 128;
    static final long HEAD = 256;
    static final long DATA_SEQ = 384;
    static final long DATA_WAITERS = 388;
    static final long ROOM_SEQ = 512;
    static final long ROOM_WAITERS = 516;
    /**
     * {@link System#nanoTime()} (CLOCK_MONOTONIC, one clock for every process of the machine) of the last
     * {@code FUTEX_WAKE} on the sequence word 8 bytes before: the woken thread learns what its wake-up cost.
     * A hint only, never trusted beyond that: a value from before the sleep began, or far off, is ignored.
     */
    static final long DATA_WOKEN_AT = 392;
    static final long ROOM_WOKEN_AT = 520;

    /** @return the {@code *_WOKEN_AT} word of a sequence word ({@link #DATA_SEQ} or {@link #ROOM_SEQ}) */
    static long wokenAt(long seqWord) {
        return seqWord == DATA_SEQ ? DATA_WOKEN_AT : ROOM_WOKEN_AT;
    }
    static final long HANDLES = 640;
    static final long READ_LOCK = 768;
    static final long WRITE_LOCK = 896;
    static final long PEERS = 1024;
    static final long TAIL = 1152;

    static final long TABLE = PAGE;
    static final long E_ID = 0;
    static final long E_GEN = 8;
    static final long E_PENDING = 12;
    static final long E_COUNTS = 16;

    static final long SLOT_TABLE = 2L * PAGE;

    /** Slot word: bytes already read from the page (0..4096). */
    static final int OFF_MASK = 0x1FFF;
    static final int LEN_SHIFT = 13;
    static final int PACKET = 1 << 26;
    static final int CAN_MERGE = 1 << 27;

    final int slots;
    final int procs;
    final long dataOffset;
    final long totalBytes;

    Layout(int slots, int procs) {
        this.slots = slots;
        this.procs = procs;
        this.dataOffset = SLOT_TABLE + slotTableBytes(slots);
        this.totalBytes = dataOffset + (long) slots * PAGE;
    }

    private static long slotTableBytes(int slots) {
        return ((slots * 4L + PAGE - 1) / PAGE) * PAGE;
    }

    long slotWord(int slotIndex) {
        return SLOT_TABLE + 4L * slotIndex;
    }

    long page(int slotIndex) {
        return dataOffset + (long) slotIndex * PAGE;
    }

    static long entry(int i) {
        return TABLE + (long) i * ENTRY;
    }

    /** Writes a fresh header into a zeroed mapping of {@link #totalBytes}. */
    void format(MemorySegment m, int uid, long pidNamespace) {
        m.set(ValueLayout.JAVA_INT, OFF_VERSION, VERSION);
        m.set(ValueLayout.JAVA_INT, OFF_PAGE, PAGE);
        m.set(ValueLayout.JAVA_INT, OFF_SLOTS, slots);
        m.set(ValueLayout.JAVA_INT, OFF_PROCS, procs);
        m.set(ValueLayout.JAVA_LONG, OFF_TOTAL, totalBytes);
        m.set(ValueLayout.JAVA_INT, OFF_UID, uid);
        m.set(ValueLayout.JAVA_LONG, OFF_PIDNS, pidNamespace);
        m.set(ValueLayout.JAVA_LONG, OFF_CREATED, System.currentTimeMillis());
        // The magic last, with a release store: an attacher that sees it sees every field above.
        ValueLayout.JAVA_LONG.varHandle().setRelease(m, OFF_MAGIC, MAGIC);
    }

    /**
     * Checks the header of a mapping of {@code size} bytes (the file's size, as {@code fstat} gave it, of which
     * only the first page may be mapped yet) and returns its layout.
     *
     * @param header the first page of the mapping (at least {@link #PAGE} bytes)
     * @param size   the size of the file behind the mapping
     * @param what   the path, for messages
     * @throws ShmPipeFormatException with the reason, if anything is off
     */
    static Layout check(MemorySegment header, long size, long pidNamespace, String what)
            throws ShmPipeFormatException {
        if (size < 2L * PAGE) {
            throw new ShmPipeFormatException(what + " is not a Sluice shared-memory pipe: " + size
                    + " bytes is smaller than the smallest pipe's header");
        }
        long magic = (long) ValueLayout.JAVA_LONG.varHandle().getAcquire(header, OFF_MAGIC);
        if (magic != MAGIC) {
            throw new ShmPipeFormatException(what + " is not a Sluice shared-memory pipe (wrong magic 0x"
                    + Long.toHexString(magic) + ")");
        }
        int version = header.get(ValueLayout.JAVA_INT, OFF_VERSION);
        if (version != VERSION) {
            throw new ShmPipeFormatException(what + " has layout version " + version + "; this library reads "
                    + VERSION + " only (both sides must use the same Sluice version)");
        }
        int page = header.get(ValueLayout.JAVA_INT, OFF_PAGE);
        if (page != PAGE) {
            throw new ShmPipeFormatException(what + " has page size " + page + ", expected " + PAGE);
        }
        int slots = header.get(ValueLayout.JAVA_INT, OFF_SLOTS);
        if (slots < 1 || slots > MAX_SLOTS || Integer.bitCount(slots) != 1) {
            throw new ShmPipeFormatException(what + " has " + slots + " slots; a pipe has a power of two from 1 to "
                    + MAX_SLOTS);
        }
        int procs = header.get(ValueLayout.JAVA_INT, OFF_PROCS);
        if (procs != MAX_PROCS) {
            throw new ShmPipeFormatException(what + " has " + procs + " process entries; layout version " + VERSION
                    + " has " + MAX_PROCS);
        }
        Layout l = new Layout(slots, procs);
        long total = header.get(ValueLayout.JAVA_LONG, OFF_TOTAL);
        if (total != l.totalBytes) {
            throw new ShmPipeFormatException(what + " says it is " + total + " bytes, but " + slots + " slots and "
                    + procs + " process entries make " + l.totalBytes);
        }
        if (size != l.totalBytes) {
            throw new ShmPipeFormatException(what + " is " + size + " bytes, but its header needs " + l.totalBytes
                    + " (truncated or grown)");
        }
        long ns = header.get(ValueLayout.JAVA_LONG, OFF_PIDNS);
        if (ns != pidNamespace) {
            throw new ShmPipeFormatException(what + " was made in another pid namespace (" + ns + ", this process is"
                    + " in " + pidNamespace + "): peers must see each other's process ids");
        }
        return l;
    }
}
