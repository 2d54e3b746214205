package dev.sluice;

import dev.sluice.ring.Page;
import dev.sluice.ring.PipeBuffer;
import java.nio.ByteBuffer;

/**
 * Reading slots whose bytes a writer gifted ({@link PipeBuffer#FLAG_GIFT}): the slow path of a read, kept
 * out of {@link PipeCore} so that the common path stays one flag test. A heap gift is an array like a pool
 * page; a direct gift is read with absolute bulk gets, which neither use nor move the giver's position.
 */
final class Gifts {
    private Gifts() {
    }

    /** Copies {@code n} bytes of a gift slot to the caller, {@code done} bytes in (as {@link Transfer#copyOut}). */
    static void copyOut(PipeBuffer buf, Object dst, int base, int count, long done, int n) {
        byte[] page = buf.page();
        if (page != null) {
            Transfer.copyOut(page, buf.offset(), dst, base, count, done, n);
            return;
        }
        ByteBuffer src = buf.ref().direct();
        int from = buf.offset();
        if (dst instanceof byte[] a) {
            src.get(from, a, base + (int) done, n);
        } else if (dst instanceof ByteBuffer b) {
            put(b, src, from, n);
        } else {
            ByteBuffer[] bs = (ByteBuffer[]) dst;
            for (int i = base; n > 0 && i < base + count; i++) {
                int k = Math.min(bs[i].remaining(), n);
                put(bs[i], src, from, k);
                from += k;
                n -= k;
            }
        }
    }

    private static void put(ByteBuffer to, ByteBuffer src, int from, int n) {
        int at = to.position();
        to.put(at, src, from, n); // absolute: allocates no slice
        to.position(at + n);
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
