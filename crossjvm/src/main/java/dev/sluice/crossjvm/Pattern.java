package dev.sluice.crossjvm;

import java.util.Arrays;

/**
 * The stream a {@link Role#SINK} child checks: byte {@code p} is {@code BYTES[p % PERIOD]}, so a reader checks
 * what it got with one vectorised compare. The period is prime, so a chunk of any power-of-two size that is
 * lost, doubled or reordered shows. A writer writes {@code BYTES[offset(pos) .. offset(pos) + len)}.
 */
public final class Pattern {
    /** The period of the stream, a prime. */
    public static final int PERIOD = 251;
    /** The longest slice {@link #BYTES} holds from any offset: 1 MiB. */
    public static final int MAX_CHUNK = 1 << 20;
    /** The stream's first {@code PERIOD + MAX_CHUNK} bytes: every slice of at most {@code MAX_CHUNK} bytes. */
    private static final byte[] BYTES = new byte[PERIOD + MAX_CHUNK];

    static {
        for (int i = 0; i < BYTES.length; i++) {
            BYTES[i] = (byte) (i % PERIOD * 7 + 3);
        }
    }

    private Pattern() {
    }

    /**
     * {@return the array to write from: the stream at {@code pos} starts at {@link #offset(long)}} Callers must not
     * change it.
     */
    public static byte[] bytes() {
        return BYTES;
    }

    /**
     * {@return where in {@link #bytes()} the stream at position {@code pos} starts}
     *
     * @param pos a position in the stream, from 0
     */
    public static int offset(long pos) {
        return (int) (pos % PERIOD);
    }

    /**
     * {@return the byte the stream has at position {@code pos}}
     *
     * @param pos a position in the stream, from 0
     */
    public static byte at(long pos) {
        return BYTES[offset(pos)];
    }

    /**
     * Compares {@code b[off..off+len)} with the stream at {@code pos}.
     *
     * @param pos where in the stream {@code b[off]} belongs
     * @param b   the bytes read
     * @param off where they start
     * @param len how many (at most {@link #MAX_CHUNK})
     * @return the index (from {@code off}) of the first wrong byte, or -1 if all are right
     */
    public static int mismatch(long pos, byte[] b, int off, int len) {
        int o = offset(pos);
        return Arrays.mismatch(b, off, off + len, BYTES, o, o + len);
    }
}
