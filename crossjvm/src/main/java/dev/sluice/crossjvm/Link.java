package dev.sluice.crossjvm;

import java.io.IOException;

/**
 * A byte stream each way between two sides, seen through byte arrays, as both the parent ({@link Peer}) and the
 * child use it. Calls block (or, for the polling transport, poll) until they can go on.
 */
public interface Link extends AutoCloseable {
    /**
     * Reads what has come, waiting for at least one byte.
     *
     * @param b   where the bytes go
     * @param off where the first goes
     * @param len the most to read (at least 1)
     * @return bytes read, at least 1; -1 at end-of-stream
     * @throws IOException if the other side is gone or the read fails
     */
    int read(byte[] b, int off, int len) throws IOException;

    /**
     * Writes all of {@code b[off..off+len)}, waiting for room as needed.
     *
     * @param b   the bytes
     * @param off where they start
     * @param len how many
     * @throws IOException if the other side is gone or the write fails
     */
    void write(byte[] b, int off, int len) throws IOException;

    /**
     * Ends this side's output: the other side reads end-of-stream once it has read what came before.
     *
     * @throws IOException if closing fails
     */
    void closeOutput() throws IOException;

    /**
     * Reads exactly {@code len} bytes.
     *
     * @param b   where the bytes go
     * @param off where the first goes
     * @param len how many
     * @return true if all came; false if end-of-stream came first
     * @throws IOException if a read fails
     */
    default boolean readFully(byte[] b, int off, int len) throws IOException {
        for (int got = 0; got < len; ) {
            int n = read(b, off + got, len - got);
            if (n < 0) {
                return false;
            }
            got += n;
        }
        return true;
    }

    /** Closes both directions; idempotent. */
    @Override
    void close();
}
