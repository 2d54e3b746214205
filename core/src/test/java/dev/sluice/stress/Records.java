package dev.sluice.stress;

import dev.sluice.Pipe;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.util.SplittableRandom;
import java.util.zip.CRC32;

/**
 * The self-checking records the stress tests push through a pipe.
 *
 * <pre>
 *   0        4          8     12       16     20
 *   | magic | writerId | seq | length | crc32 | payload (length - 20 bytes) |
 * </pre>
 * {@code length} counts the whole record, header included; {@code crc32} covers the payload. A record
 * that arrives torn, shifted or interleaved with another writer's bytes fails the magic, the length
 * bounds or the checksum.
 */
final class Records {
    static final int MAGIC = 0x5A1C_E0F5;
    static final int HEADER = 20;
    static final int PIPE_BUF = Pipe.PIPE_BUF;

    private static final VarHandle INT = MethodHandles.byteArrayViewVarHandle(int[].class, ByteOrder.BIG_ENDIAN);

    private Records() {
    }

    /** A decoded header. */
    record Header(int writerId, int seq, int length, int crc) {
        long id() {
            return id(writerId, seq);
        }

        static long id(int writerId, int seq) {
            return ((long) writerId << 32) | (seq & 0xFFFF_FFFFL);
        }
    }

    /** Writes a record of {@code length} bytes (at least {@link #HEADER}) at {@code buf[off]}. */
    static void encode(byte[] buf, int off, int writerId, int seq, int length, SplittableRandom rnd) {
        if (length < HEADER) {
            throw new IllegalArgumentException("record of " + length + " bytes is shorter than its header");
        }
        int x = rnd.nextInt();
        int end = off + length;
        for (int i = off + HEADER; i < end; i++) {
            x = x * 1_103_515_245 + 12_345;
            buf[i] = (byte) (x >>> 23);
        }
        INT.set(buf, off, MAGIC);
        INT.set(buf, off + 4, writerId);
        INT.set(buf, off + 8, seq);
        INT.set(buf, off + 12, length);
        INT.set(buf, off + 16, crc(buf, off + HEADER, length - HEADER));
    }

    static int crc(byte[] buf, int off, int len) {
        CRC32 c = new CRC32();
        c.update(buf, off, len);
        return (int) c.getValue();
    }

    /** @return the length field of the header at {@code buf[off]}, after checking magic and bounds */
    static int lengthAt(byte[] buf, int off, int maxLength, String where) {
        int magic = (int) INT.get(buf, off);
        if (magic != MAGIC) {
            throw new AssertionError(where + ": bad magic 0x" + Integer.toHexString(magic)
                    + " (record torn, shifted or interleaved)");
        }
        int length = (int) INT.get(buf, off + 12);
        if (length < HEADER || length > maxLength) {
            throw new AssertionError(where + ": record length " + length + " outside [" + HEADER + ", " + maxLength
                    + "]");
        }
        return length;
    }

    /**
     * Decodes and verifies the complete record at {@code buf[off..off+available)}.
     *
     * @throws AssertionError if the header or checksum is wrong
     */
    static Header check(byte[] buf, int off, int writers, int maxLength, String where) {
        int length = lengthAt(buf, off, maxLength, where);
        int writerId = (int) INT.get(buf, off + 4);
        int seq = (int) INT.get(buf, off + 8);
        int crc = (int) INT.get(buf, off + 16);
        if (writerId < 0 || writerId >= writers) {
            throw new AssertionError(where + ": writer id " + writerId + " outside [0, " + writers + ")");
        }
        if (seq < 0) {
            throw new AssertionError(where + ": negative seq " + seq + " from writer " + writerId);
        }
        int actual = crc(buf, off + HEADER, length - HEADER);
        if (actual != crc) {
            throw new AssertionError(where + ": crc mismatch in record " + writerId + "/" + seq + " of " + length
                    + " bytes: header says 0x" + Integer.toHexString(crc) + ", payload has 0x"
                    + Integer.toHexString(actual));
        }
        return new Header(writerId, seq, length, crc);
    }

    /**
     * A record length: mostly small, with the page-boundary sizes (4095, 4096) well represented.
     *
     * @param max the largest length to return (at least {@link #HEADER})
     */
    static int smallLength(SplittableRandom rnd, int max) {
        int r = rnd.nextInt(100);
        int n;
        if (r < 10) {
            n = HEADER;
        } else if (r < 30) {
            n = rnd.nextInt(HEADER, 129);
        } else if (r < 60) {
            n = rnd.nextInt(129, 1025);
        } else if (r < 85) {
            n = rnd.nextInt(1025, PIPE_BUF + 1);
        } else if (r < 95) {
            n = PIPE_BUF;
        } else {
            n = PIPE_BUF - 1;
        }
        return Math.min(n, max);
    }
}
