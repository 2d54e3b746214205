package dev.sluice.kernel;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;
import java.util.IdentityHashMap;

/**
 * The memory plumbing between Java buffers and system calls (argument checks are core's, {@code Checks}).
 *
 * <p>A heap {@code byte[]} or heap {@link ByteBuffer} goes to {@code read(2)}/{@code write(2)} as a heap
 * segment without a copy (those handles are critical, see {@link LibC}). {@code readv}/{@code writev}
 * take an array of addresses, which heap memory cannot provide, so scatter/gather over direct buffers
 * builds an {@code iovec}, and a range with any heap buffer (or a buffer listed twice) goes through one
 * native bounce buffer instead: still one system call, so a gather of at most {@code PIPE_BUF} bytes stays
 * atomic and a packet still lands whole.
 */
final class Buffers {
    /** Linux {@code IOV_MAX}. */
    static final int IOV_MAX = 1024;
    /** The largest bounce buffer: a pipe cannot hold more than pipe-max-size (1 MiB by default) anyway. */
    static final int MAX_BOUNCE = 1 << 20;

    private Buffers() {
    }

    /** @return whether the range can go to readv/writev directly: all direct, none repeated, not too many */
    static boolean iovecable(ByteBuffer[] bs, int offset, int length) {
        if (length > IOV_MAX) {
            return false;
        }
        for (int i = offset; i < offset + length; i++) {
            if (!bs[i].isDirect()) {
                return false;
            }
            for (int j = offset; j < i; j++) {
                if (bs[j] == bs[i]) {
                    return false;
                }
            }
        }
        return true;
    }

    /** Fills {@code iov} with the buffers' remaining ranges; @return the number of entries */
    static int fillIovec(MemorySegment iov, ByteBuffer[] bs, int offset, int length) {
        int n = 0;
        for (int i = offset; i < offset + length; i++) {
            ByteBuffer b = bs[i];
            if (!b.hasRemaining()) {
                continue;
            }
            MemorySegment s = MemorySegment.ofBuffer(b);
            iov.set(ADDRESS, (long) n * LibC.IOVEC_SIZE, s);
            iov.set(JAVA_LONG, (long) n * LibC.IOVEC_SIZE + 8, s.byteSize());
            n++;
        }
        return n;
    }

    /** Moves the positions of the buffers on by {@code n} bytes in order (after readv/writev). */
    static void advance(ByteBuffer[] bs, int offset, int length, long n) {
        for (int i = offset; i < offset + length && n > 0; i++) {
            ByteBuffer b = bs[i];
            int k = (int) Math.min(b.remaining(), n);
            b.position(b.position() + k);
            n -= k;
        }
    }

    /** Copies {@code n} bytes of {@code src} into the buffers in order, moving their positions. */
    static void scatter(MemorySegment src, long n, ByteBuffer[] bs, int offset, int length) {
        long at = 0;
        for (int i = offset; i < offset + length && at < n; i++) {
            ByteBuffer b = bs[i];
            int k = (int) Math.min(b.remaining(), n - at);
            MemorySegment.copy(src, at, MemorySegment.ofBuffer(b), 0, k);
            b.position(b.position() + k);
            at += k;
        }
    }

    /**
     * Copies up to {@code max} bytes from the buffers into {@code dst} without moving their positions,
     * respecting repeats (a repeated buffer continues where its earlier appearance stopped).
     *
     * @return bytes copied
     */
    static long gather(ByteBuffer[] bs, int offset, int length, MemorySegment dst, long max) {
        IdentityHashMap<ByteBuffer, Integer> used = new IdentityHashMap<>();
        long at = 0;
        for (int i = offset; i < offset + length && at < max; i++) {
            ByteBuffer b = bs[i];
            int skip = used.getOrDefault(b, 0);
            int k = (int) Math.min(b.remaining() - skip, max - at);
            if (k <= 0) {
                continue;
            }
            MemorySegment.copy(MemorySegment.ofBuffer(b), skip, dst, at, k);
            used.put(b, skip + k);
            at += k;
        }
        return at;
    }

    /** A native bounce buffer for {@code total} bytes, capped. */
    static MemorySegment bounce(Arena arena, long total) {
        return arena.allocate(Math.max(1, Math.min(total, MAX_BOUNCE)), 4096);
    }
}
