package dev.sluice.lab.workload;

import dev.sluice.crossjvm.Pattern;

/**
 * A byte stream whose every byte depends on its position, so a reader can check what it got at the cost of
 * a vectorised compare: the {@code crossjvm} module's {@link Pattern}, which a peer in another JVM checks too.
 * Byte {@code p} of the stream is {@code BYTES[p % PERIOD]}; the period is prime so a lost, doubled or reordered
 * chunk of any power-of-two size shows.
 */
final class Patterns {
    static final int PERIOD = Pattern.PERIOD;
    static final int MAX_CHUNK = Pattern.MAX_CHUNK;
    static final byte[] BYTES = Pattern.bytes();

    private Patterns() {
    }

    /** {@return the offset in {@link #BYTES} where stream position {@code pos} starts} */
    static int offset(long pos) {
        return Pattern.offset(pos);
    }

    /** @throws CheckFailure if {@code b[off..off+len)} is not the stream at {@code pos} */
    static void check(String who, long pos, byte[] b, int off, int len) {
        int m = Pattern.mismatch(pos, b, off, len);
        if (m >= 0) {
            int o = offset(pos);
            throw new CheckFailure(who + ": wrong byte at stream offset " + (pos + m) + ": got " + (b[off + m] & 0xff)
                    + ", expected " + (BYTES[o + m] & 0xff));
        }
    }
}
