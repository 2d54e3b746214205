package dev.sluice.internal;

import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.Objects;
import java.util.Set;

/**
 * The argument checks every pipe implementation makes before it touches a pipe, with one wording: bad input
 * gets a standard exception and leaves the pipe, its counters and its pool as they were. Shared by the
 * in-process engine and the kernel module (exported to {@code dev.sluice.kernel} only).
 */
public final class Checks {
    /** Bytes in a page slot, the unit of capacity (Linux {@code PAGE_SIZE}). */
    public static final int PAGE_SIZE = 4096;
    /** Ranges up to this length are checked for repeated buffers pairwise, which allocates nothing. */
    private static final int SMALL_RANGE = 16;

    private Checks() {
    }

    /** A {@code byte[]} range: the array is not null and the range lies inside it. */
    public static void checkArray(byte[] b, int off, int len) {
        Objects.requireNonNull(b, "byte array is null");
        Objects.checkFromIndexSize(off, len, b.length);
    }

    /** @return {@code dst}, which a read may fill: not null, not read-only */
    public static ByteBuffer checkReadTarget(ByteBuffer dst) {
        Objects.requireNonNull(dst, "destination buffer is null");
        if (dst.isReadOnly()) {
            throw new IllegalArgumentException("cannot read into a read-only buffer");
        }
        return dst;
    }

    /** @return {@code src}, which a write may drain: not null */
    public static ByteBuffer checkWriteSource(ByteBuffer src) {
        return Objects.requireNonNull(src, "source buffer is null");
    }

    /**
     * A range of a scatter/gather array.
     *
     * @return the bytes the range of buffers can take or give. A buffer that appears more than once in the
     *         range counts once: buffers carry their own position, so its second appearance sees only what
     *         the first left, as if the two were read or written one after the other.
     */
    public static long checkBuffers(ByteBuffer[] bs, int offset, int length, boolean forRead) {
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

    private static boolean firstAppearance(ByteBuffer[] bs, int offset, int i) {
        for (int j = offset; j < i; j++) {
            if (bs[j] == bs[i]) {
                return false;
            }
        }
        return true;
    }

    /** A byte count such as {@code maxBytes}: not negative. */
    public static long checkMaxBytes(long maxBytes) {
        if (maxBytes < 0) {
            throw new IllegalArgumentException("maxBytes must not be negative, was " + maxBytes);
        }
        return maxBytes;
    }

    /**
     * A handle's timeout in nanoseconds: rejects negatives and null, saturates at {@code Long.MAX_VALUE}, and
     * keeps a positive timeout shorter than a nanosecond from reading as "no timeout" (0).
     */
    public static long timeoutNanos(Duration timeout) {
        Objects.requireNonNull(timeout, "timeout is null (use Duration.ZERO for no timeout)");
        if (timeout.isNegative()) {
            throw new IllegalArgumentException("timeout must not be negative, was " + timeout);
        }
        long n;
        try {
            n = timeout.toNanos();
        } catch (ArithmeticException tooLong) {
            n = Long.MAX_VALUE;
        }
        return n == 0 && !timeout.isZero() ? 1 : n;
    }

    /**
     * Linux's {@code round_pipe_size}: below one page gives one page, else the next power of two.
     *
     * @param bytes the size asked for
     * @param max   the largest size allowed
     * @param what  the parameter's name, for the message
     * @return the size a pipe gets
     * @throws IllegalArgumentException if {@code bytes} is negative or above {@code max}
     */
    public static int roundCapacity(long bytes, int max, String what) {
        if (bytes < 0) {
            throw new IllegalArgumentException(what + " must not be negative, was " + bytes);
        }
        if (bytes > max) {
            throw new IllegalArgumentException(what + " " + bytes + " exceeds the largest pipe of " + max + " bytes");
        }
        int b = (int) bytes;
        if (b <= PAGE_SIZE) {
            return PAGE_SIZE;
        }
        int p = Integer.highestOneBit(b);
        return p == b ? b : p << 1;
    }
}
