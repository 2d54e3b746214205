package dev.sluice.internal.ring;

/**
 * One slot of the ring: a page and the window of it that holds unread bytes.
 *
 * <p>The analogue of the kernel's {@code struct pipe_buffer}. A slot is live while it sits between
 * the ring's tail and head; {@link PageRing} never publishes a slot with {@code len == 0} (Linux
 * 6.15, "pipe_write() never adds a zero-sized buffer"), so a reader never has to skip empty slots.
 * Fields are mutated only under the pipe's lock.
 *
 * <p>The memory is a {@link Page}, possibly shared with another pipe's slots (tee, a partial splice) or
 * gifted by a writer; {@link #page()} caches its array so that the read path needs no extra load.
 */
public final class PipeBuffer {
    /** Written by a packet-mode ({@code O_DIRECT}) writer: a read consumes at most this one packet. */
    public static final int FLAG_PACKET = 0x08;
    /**
     * Later small writes may append into this page. Set only for pages a normal write filled; anything
     * that shares a page (tee, splice) must leave it clear, or a write would scribble on shared data
     * (the "Dirty Pipe" bug, CVE-2022-0847).
     */
    public static final int FLAG_CAN_MERGE = 0x10;
    /**
     * The bytes are a writer's gift ({@link Page#isGift()}), maybe in a direct buffer: readers take the slow
     * path that checks for misuse and reads direct memory. Unlike Linux's {@code PIPE_BUF_FLAG_GIFT}, which
     * means "may be stolen" and is cleared on copies, it stays on every slot that shares the gift, because
     * it says where the bytes live.
     */
    public static final int FLAG_GIFT = 0x04;

    Page ref;
    byte[] page;
    int offset;
    int len;
    int flags;

    PipeBuffer() {
    }

    /**
     * @return the array holding the bytes, valid from {@link #offset()} for {@link #length()} bytes; null
     *         when they are in a direct gift (see {@link #ref()})
     */
    public byte[] page() {
        return page;
    }

    /** @return the page (memory and reference count) behind this slot */
    public Page ref() {
        return ref;
    }

    /** @return index in {@link #page()} of the first unread byte */
    public int offset() {
        return offset;
    }

    /** @return number of unread bytes */
    public int length() {
        return len;
    }

    /** @return the {@code FLAG_*} bits */
    public int flags() {
        return flags;
    }

    /** @return whether this buffer is one packet of a packet-mode writer */
    public boolean isPacket() {
        return (flags & FLAG_PACKET) != 0;
    }

    /** @return whether the bytes are a writer's gift ({@link #FLAG_GIFT}) */
    public boolean isGift() {
        return (flags & FLAG_GIFT) != 0;
    }

    void set(Page ref, int offset, int len, int flags) {
        this.ref = ref;
        this.page = ref == null ? null : ref.bytes;
        this.offset = offset;
        this.len = len;
        this.flags = flags;
    }

    void clear() {
        set(null, 0, 0, 0);
    }
}
