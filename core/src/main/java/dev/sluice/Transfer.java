package dev.sluice;

import java.nio.ByteBuffer;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.Objects;
import java.util.Set;

/**
 * Copies between pages and the caller's memory, whatever shape it has, without allocating.
 *
 * <p>A caller's bytes come as a {@code byte[]} range, one {@link ByteBuffer}, or a range of a
 * {@code ByteBuffer[]} (scatter/gather). The pipe's read and write loops are written once over an
 * {@code Object} that is one of those three, so that no wrapper is allocated per call: the loop passes
 * along how many bytes it has already moved ({@code done}), which is all the position an array needs;
 * buffers keep their own position.
 */
final class Transfer {
    private Transfer() {
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

    // ---- argument checks: bad input is refused before the pipe is touched ---------------------------

    static void checkArray(byte[] b, int off, int len) {
        Objects.requireNonNull(b, "byte array is null");
        Objects.checkFromIndexSize(off, len, b.length);
    }

    static ByteBuffer checkReadTarget(ByteBuffer dst) {
        Objects.requireNonNull(dst, "destination buffer is null");
        if (dst.isReadOnly()) {
            throw new IllegalArgumentException("cannot read into a read-only buffer");
        }
        return dst;
    }

    static ByteBuffer checkWriteSource(ByteBuffer src) {
        return Objects.requireNonNull(src, "source buffer is null");
    }

    /**
     * @return the bytes the range of buffers can take or give. A buffer that appears more than once in the
     *         range counts once: buffers carry their own position, so its second appearance sees only what
     *         the first left, as if the two were read or written one after the other.
     */
    static long checkBuffers(ByteBuffer[] bs, int offset, int length, boolean forRead) {
        Objects.requireNonNull(bs, "buffer array is null");
        Objects.checkFromIndexSize(offset, length, bs.length);
        long total = 0;
        int end = offset + length;
        Set<ByteBuffer> seen = length > SMALL_RANGE ? Collections.newSetFromMap(new IdentityHashMap<>()) : null;
        for (int i = offset; i < end; i++) {
            ByteBuffer b = bs[i];
            if (b == null) {
                throw new NullPointerException("buffer [" + i + "] is null");
            }
            if (forRead && b.isReadOnly()) {
                throw new IllegalArgumentException("cannot read into buffer [" + i + "]: it is read-only");
            }
            if (seen != null ? seen.add(b) : firstAppearance(bs, offset, i)) {
                total += b.remaining();
            }
        }
        return total;
    }

    /** Ranges up to this length are checked for repeats pairwise, which allocates nothing. */
    private static final int SMALL_RANGE = 16;

    private static boolean firstAppearance(ByteBuffer[] bs, int offset, int i) {
        for (int j = offset; j < i; j++) {
            if (bs[j] == bs[i]) {
                return false;
            }
        }
        return true;
    }
}
