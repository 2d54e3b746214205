package dev.sluice;

import dev.sluice.ring.Page;
import dev.sluice.ring.PipeBuffer;

/**
 * Reading slots whose bytes a writer gifted ({@link PipeBuffer#FLAG_GIFT}): the slow path of a read, kept
 * out of {@link PipeCore} so that the common path stays one flag test. A heap gift is an array like a heap
 * page, a direct gift direct memory like a direct page; both are read with absolute bulk gets, which neither
 * use nor move the giver's position.
 */
final class Gifts {
    private Gifts() {
    }

    /**
     * Copies {@code n} bytes of a gift slot to the caller, {@code done} bytes in: a heap gift like a heap page, a
     * direct gift like a direct page ({@link Transfer#copyOut(PipeBuffer, Object, int, int, long, int)}).
     */
    static void copyOut(PipeBuffer buf, Object dst, int base, int count, long done, int n) {
        Transfer.copyOut(buf, dst, base, count, done, n);
    }

    static GiftReusedException reused(PipeBuffer buf) {
        Page p = buf.ref();
        return new GiftReusedException("a gifted buffer was reused by its writer before the pipe's reader got to"
                + " it (its position or limit moved back before the end of the gift); " + buf.length()
                + " bytes were dropped because they can no longer be trusted. A gift belongs to the pipe until"
                + " it has been read: give a fresh buffer each time, or use write() to have the bytes copied"
                + (p.direct() != null ? " (direct gift)" : " (heap gift)"));
    }
}
