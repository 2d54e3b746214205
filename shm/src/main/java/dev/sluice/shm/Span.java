package dev.sluice.shm;

import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;

/**
 * The caller's side of one read or write: a {@code byte[]} range, one {@link ByteBuffer}, or a run of them
 * ({@code readv}/{@code writev}), copied to or from the mapping in pieces.
 *
 * <p>Buffers are advanced as each piece is copied, and a buffer's segment is taken from its position at that
 * moment, so a buffer that appears twice in a run is seen the second time with what the first left (as
 * {@code Checks.checkBuffers} counts it).
 */
final class Span {
    private final byte[] array;
    private int arrayOff;
    private final ByteBuffer[] bufs;
    private int index;
    private long left;

    private Span(byte[] array, int off, ByteBuffer[] bufs, int index, long left) {
        this.array = array;
        this.arrayOff = off;
        this.bufs = bufs;
        this.index = index;
        this.left = left;
    }

    static Span of(byte[] b, int off, int len) {
        return new Span(b, off, null, 0, len);
    }

    static Span of(ByteBuffer b) {
        return new Span(null, 0, new ByteBuffer[] {b}, 0, b.remaining());
    }

    /** @param total the bytes the buffers take or give, as {@code Checks.checkBuffers} counted them */
    static Span of(ByteBuffer[] bs, int offset, long total) {
        return new Span(null, 0, bs, offset, total);
    }

    long remaining() {
        return left;
    }

    /** Copies {@code n} bytes from {@code src} at {@code off} into this span (a read). */
    void fill(MemorySegment src, long off, int n) {
        if (array != null) {
            MemorySegment.copy(src, java.lang.foreign.ValueLayout.JAVA_BYTE, off, array, arrayOff, n);
            arrayOff += n;
            left -= n;
            return;
        }
        while (n > 0) {
            ByteBuffer b = next();
            int k = Math.min(n, b.remaining());
            MemorySegment.copy(src, off, MemorySegment.ofBuffer(b), 0, k);
            b.position(b.position() + k);
            off += k;
            n -= k;
            left -= k;
        }
    }

    /** Copies {@code n} bytes of this span into {@code dst} at {@code off} (a write). */
    void drain(MemorySegment dst, long off, int n) {
        if (array != null) {
            MemorySegment.copy(array, arrayOff, dst, java.lang.foreign.ValueLayout.JAVA_BYTE, off, n);
            arrayOff += n;
            left -= n;
            return;
        }
        while (n > 0) {
            ByteBuffer b = next();
            int k = Math.min(n, b.remaining());
            MemorySegment.copy(MemorySegment.ofBuffer(b), 0, dst, off, k);
            b.position(b.position() + k);
            off += k;
            n -= k;
            left -= k;
        }
    }

    private ByteBuffer next() {
        while (!bufs[index].hasRemaining()) {
            index++;
        }
        return bufs[index];
    }
}
