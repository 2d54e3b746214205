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
     * Reads up to {@code len} bytes.
     *
     * @return bytes read (at least 1 when blocking), -1 at end-of-stream, 0 when nonblocking and empty
     */
    int read(byte[] b, int off, int len) throws IOException;

    /**
     * Writes bytes. Blocking: stores all of them before returning. Nonblocking: stores what fits and returns
     * that count, 0 meaning "would block".
     */
    int write(byte[] b, int off, int len) throws IOException;

    /** Closes the write side: readers see end-of-stream once the queued bytes are read. Idempotent. */
    void closeWriter() throws IOException;

    /** Closes the read side: blocked writers fail with a broken pipe. Idempotent. */
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
     * @return false if end-of-stream came before the first byte; throws if it came in the middle
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
