package dev.sluice.internal.engine;

import dev.sluice.internal.ring.Page;
import dev.sluice.internal.ring.PipeBuffer;
import java.nio.ByteBuffer;

/**
 * Copies between pages and the caller's memory, whatever shape it has, without allocating.
 *
 * <p>A caller's bytes come as a {@code byte[]} range, one {@link ByteBuffer}, or a range of a
 * {@code ByteBuffer[]} (scatter/gather). The pipe's read and write loops are written once over an
 * {@code Object} that is one of those three, so that no wrapper is allocated per call: the loop passes
 * along how many bytes it has already moved ({@code done}), which is all the position an array needs;
 * buffers keep their own position.
 *
 * <p>A page is a heap array or direct memory ({@code PageMemory}, or a direct gift). Direct memory is
 * reached with the absolute bulk gets and puts of {@link ByteBuffer}, which neither use nor move the page
 * buffer's position (other threads may be reading the same page) and allocate nothing.
 */
final class Transfer {
    private Transfer() {
    }

    /** Copies {@code n} caller bytes, starting {@code done} bytes in, into {@code page} from {@code pageOff}. */
    static void copyIn(Object src, int base, int count, long done, Page page, int pageOff, int n) {
        byte[] a = page.bytes();
        if (a != null) {
            copyIn(src, base, count, done, a, pageOff, n);
        } else {
            copyIn(src, base, count, done, page.direct(), pageOff, n);
        }
    }

    /** Copies {@code n} unread bytes of {@code buf}'s slot to the caller, {@code done} bytes in. */
    static void copyOut(PipeBuffer buf, Object dst, int base, int count, long done, int n) {
        byte[] a = buf.page();
        if (a != null) {
            copyOut(a, buf.offset(), dst, base, count, done, n);
        } else {
            copyOut(buf.ref().direct(), buf.offset(), dst, base, count, done, n);
        }
    }

    /** Copies {@code n} bytes of {@code page} from {@code pageOff} to the caller, {@code done} bytes in. */
    static void copyOut(Page page, int pageOff, Object dst, int base, int count, long done, int n) {
        byte[] a = page.bytes();
        if (a != null) {
            copyOut(a, pageOff, dst, base, count, done, n);
        } else {
            copyOut(page.direct(), pageOff, dst, base, count, done, n);
        }
    }

    /** Copies {@code n} caller bytes, starting {@code done} bytes in, into {@code page[pageOff..]}. */
    static void copyIn(Object src, int base, int count, long done, byte[] page, int pageOff, int n) {
        if (src instanceof byte[] a) {
            System.arraycopy(a, base + (int) done, page, pageOff, n);
        } else if (src instanceof ByteBuffer b) {
            b.get(page, pageOff, n);
        } else {
            ByteBuffer[] bs = (ByteBuffer[]) src;
            for (int i = base; n > 0 && i < base + count; i++) {
                ByteBuffer b = bs[i];
                int k = Math.min(b.remaining(), n);
                b.get(page, pageOff, k);
                pageOff += k;
                n -= k;
            }
        }
    }

    /** Copies {@code n} bytes from {@code page[pageOff..]} to the caller, {@code done} bytes in. */
    static void copyOut(byte[] page, int pageOff, Object dst, int base, int count, long done, int n) {
        if (dst instanceof byte[] a) {
            System.arraycopy(page, pageOff, a, base + (int) done, n);
        } else if (dst instanceof ByteBuffer b) {
            b.put(page, pageOff, n);
        } else {
            ByteBuffer[] bs = (ByteBuffer[]) dst;
            for (int i = base; n > 0 && i < base + count; i++) {
                ByteBuffer b = bs[i];
                int k = Math.min(b.remaining(), n);
                b.put(page, pageOff, k);
                pageOff += k;
                n -= k;
            }
        }
    }

    /** As {@link #copyIn(Object, int, int, long, byte[], int, int)}, into direct memory from {@code pageOff}. */
    private static void copyIn(Object src, int base, int count, long done, ByteBuffer page, int pageOff, int n) {
        if (src instanceof byte[] a) {
            page.put(pageOff, a, base + (int) done, n);
        } else if (src instanceof ByteBuffer b) {
            take(b, page, pageOff, n);
        } else {
            ByteBuffer[] bs = (ByteBuffer[]) src;
            for (int i = base; n > 0 && i < base + count; i++) {
                int k = Math.min(bs[i].remaining(), n);
                take(bs[i], page, pageOff, k);
                pageOff += k;
                n -= k;
            }
        }
    }

    /** As {@link #copyOut(byte[], int, Object, int, int, long, int)}, from direct memory at {@code pageOff}. */
    private static void copyOut(ByteBuffer page, int pageOff, Object dst, int base, int count, long done, int n) {
        if (dst instanceof byte[] a) {
            page.get(pageOff, a, base + (int) done, n);
        } else if (dst instanceof ByteBuffer b) {
            give(page, pageOff, b, n);
        } else {
            ByteBuffer[] bs = (ByteBuffer[]) dst;
            for (int i = base; n > 0 && i < base + count; i++) {
                int k = Math.min(bs[i].remaining(), n);
                give(page, pageOff, bs[i], k);
                pageOff += k;
                n -= k;
            }
        }
    }

    /** Moves {@code n} bytes from {@code from}'s position into {@code page} at {@code at}: absolute, no slice. */
    private static void take(ByteBuffer from, ByteBuffer page, int at, int n) {
        int p = from.position();
        page.put(at, from, p, n);
        from.position(p + n);
    }

    /** Moves {@code n} bytes of {@code page} from {@code at} to {@code to}'s position: absolute, no slice. */
    private static void give(ByteBuffer page, int at, ByteBuffer to, int n) {
        int p = to.position();
        to.put(p, page, at, n);
        to.position(p + n);
    }
}
