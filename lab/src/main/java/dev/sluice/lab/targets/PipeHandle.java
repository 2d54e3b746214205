package dev.sluice.lab.targets;

import java.io.IOException;
import java.util.Map;

/**
 * One open pipe of a {@link Target}, both ends, shared by the threads of a workload. The workloads only use
 * what every pipe has: a byte stream with blocking (or, where the target can, nonblocking) reads and
 * writes.
 */
public interface PipeHandle extends AutoCloseable {

    /**
     * Reads up to {@code len} bytes; a blocking pipe waits while it is empty and its write side is open.
     *
     * @param b   the buffer the bytes go to
     * @param off where in {@code b} the first byte goes
     * @param len the most bytes to read
     * @return bytes read (at least 1 when blocking), -1 at end-of-stream, 0 when nonblocking and empty
     * @throws IOException if the target's read fails, for instance because this side was closed
     */
    int read(byte[] b, int off, int len) throws IOException;

    /**
     * Writes bytes. Blocking: stores all of them before returning. Nonblocking: stores what fits and returns
     * that count, 0 meaning "would block".
     *
     * @param b   the buffer holding the bytes
     * @param off where in {@code b} the first byte is
     * @param len how many bytes to write
     * @return bytes stored: {@code len} when blocking, 0 to {@code len} when nonblocking
     * @throws IOException if the read side is closed (a broken pipe) or the target's write fails otherwise
     */
    int write(byte[] b, int off, int len) throws IOException;

    /**
     * Closes the write side: readers see end-of-stream once the queued bytes are read. Idempotent.
     *
     * @throws IOException if the target's close fails (a JDK piped stream can; Sluice and kernel pipes do not)
     */
    void closeWriter() throws IOException;

    /**
     * Closes the read side: blocked writers fail with a broken pipe. Idempotent.
     *
     * @throws IOException if the target's close fails (a JDK piped stream can; Sluice and kernel pipes do not)
     */
    void closeReader() throws IOException;

    /** {@return the pipe's own counters by name, or an empty map when the target keeps none} */
    default Map<String, Long> counters() {
        return Map.of();
    }

    /** {@return this pipe's zero-copy calls, if the target has them} */
    default java.util.Optional<ZeroCopy> zeroCopy() {
        return java.util.Optional.empty();
    }

    /** Closes both sides, waking every thread blocked on this pipe (used to abort a failed run). */
    @Override
    default void close() {
        try {
            closeWriter();
        } catch (IOException | RuntimeException ignored) {
            // aborting: the other side still has to be closed
        }
        try {
            closeReader();
        } catch (IOException | RuntimeException ignored) {
            // nothing more to do
        }
    }

    /**
     * Writes all of {@code b[off..off+len)} on a blocking pipe, looping should a write store only part; a
     * write that stores nothing is an error here (only a nonblocking pipe may do that).
     *
     * @param b   the buffer holding the bytes
     * @param off where in {@code b} the first byte is
     * @param len how many bytes to write
     * @throws IOException if a write fails, or stores nothing (the pipe is nonblocking after all)
     */
    default void writeFully(byte[] b, int off, int len) throws IOException {
        while (len > 0) {
            int n = write(b, off, len);
            if (n <= 0) {
                throw new IOException("write stored " + n + " bytes on a blocking pipe");
            }
            off += n;
            len -= n;
        }
    }

    /**
     * Reads exactly {@code len} bytes, looping on short reads (as hackbench's receiver does).
     *
     * @param b   the buffer the bytes go to
     * @param off where in {@code b} the first byte goes
     * @param len how many bytes to read: one message
     * @return true when all {@code len} bytes came, false if end-of-stream came before the first byte
     * @throws IOException if a read fails, or end-of-stream comes in the middle of the message
     */
    default boolean readFully(byte[] b, int off, int len) throws IOException {
        int got = 0;
        while (got < len) {
            int n = read(b, off + got, len - got);
            if (n < 0) {
                if (got == 0) {
                    return false;
                }
                throw new IOException("end-of-stream after " + got + " of " + len + " bytes of a message");
            }
            got += n;
        }
        return true;
    }
}
