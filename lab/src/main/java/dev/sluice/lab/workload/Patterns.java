package dev.sluice.lab.workload;

import java.util.Arrays;

/**
 * A byte stream whose every byte depends on its position, so a reader can check what it got at the cost of
 * a vectorised compare: byte {@code p} of the stream is {@code BYTES[p % PERIOD]}. The period is prime so a
 * lost, doubled or reordered chunk of any power-of-two size shows.
 */
final class Patterns {
    static final int PERIOD = 251;
    static final int MAX_CHUNK = 1 << 20;
    static final byte[] BYTES = new byte[PERIOD + MAX_CHUNK];

    static {
        for (int i = 0; i < BYTES.length; i++) {
            BYTES[i] = (byte) (i % PERIOD * 7 + 3);
        }
    }

    private Patterns() {
    }

    /** {@return the offset in {@link #BYTES} where stream position {@code pos} starts} */
    static int offset(long pos) {
        return (int) (pos % PERIOD);
    }

    /** @throws CheckFailure if {@code b[off..off+len)} is not the stream at {@code pos} */
    static void check(String who, long pos, byte[] b, int off, int len) {
        int o = offset(pos);
        int m = Arrays.mismatch(b, off, off + len, BYTES, o, o + len);
        if (m >= 0) {
            throw new CheckFailure(who + ": wrong byte at stream offset " + (pos + m) + ": got " + (b[off + m] & 0xff)
                    + ", expected " + (BYTES[o + m] & 0xff));
        }
    }
}
