package dev.sluice;

import dev.sluice.io.PipeInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.channels.ScatteringByteChannel;
import java.util.Objects;

/**
 * The read side of a {@link Pipe}, and a {@link ScatteringByteChannel}.
 *
 * <p>A read returns as soon as it has at least one byte, with as much as is queued up to the buffer's
 * room; it never waits to fill the buffer. It returns -1 once every write end is closed and the pipe is
 * empty, and 0 only when the buffer has no room or when this handle is nonblocking and the pipe is empty
 * ({@code EAGAIN}). In packet mode one read returns at most one packet; what of it does not fit is
 * discarded. While {@link Splice#transferTo} is writing an in-process pipe's first bytes to a channel, the
 * pipe counts as empty for other reads (they wait, or return 0 if nonblocking; {@link #available()} still
 * counts the bytes): what the channel does not take stays first in line.
 *
 * <p><b>Interrupts</b> follow the stream convention, not the {@code InterruptibleChannel} one: a thread
 * interrupted while it waits gets an {@link java.io.InterruptedIOException}, its interrupt status stays
 * set, and the pipe stays open. Nothing is lost: a read only waits while it has read nothing.
 */
public interface ReadEnd extends PipeEnd, ScatteringByteChannel {

    /**
     * Reads into {@code b[off..off+len)}.
     *
     * @param b   where to put the bytes
     * @param off first index to fill
     * @param len most bytes to read
     * @return bytes read; -1 at end-of-stream; 0 if {@code len} is 0 or nonblocking and empty
     * @throws IOException on a closed handle, interrupt ({@link java.io.InterruptedIOException}) or
     *                     timeout ({@link PipeTimeoutException})
     * @throws IndexOutOfBoundsException if the range is outside {@code b}
     */
    int read(byte[] b, int off, int len) throws IOException;

    /**
     * Reads into all of {@code b}.
     *
     * @param b where to put the bytes
     * @return as {@link #read(byte[], int, int)}
     * @throws IOException as {@link #read(byte[], int, int)}
     */
    default int read(byte[] b) throws IOException {
        // An explicit message: a JIT-compiled b.length may throw a preallocated NPE with none.
        return read(Objects.requireNonNull(b, "byte array is null"), 0, b.length);
    }

    /** {@inheritDoc} Reads up to {@code dst.remaining()} bytes. */
    @Override
    int read(ByteBuffer dst) throws IOException;

    /** {@inheritDoc} Fills the buffers in order, as {@code readv(2)} does. */
    @Override
    long read(ByteBuffer[] dsts, int offset, int length) throws IOException;

    /** {@inheritDoc} */
    @Override
    default long read(ByteBuffer[] dsts) throws IOException {
        return read(Objects.requireNonNull(dsts, "buffer array is null"), 0, dsts.length);
    }

    /**
     * Bytes queued in the pipe, readable without blocking ({@code FIONREAD}).
     *
     * @return queued bytes (capped at {@code Integer.MAX_VALUE})
     * @throws IOException if this handle is closed
     */
    int available() throws IOException;

    /** {@inheritDoc} */
    @Override
    ReadEnd dup() throws IOException;

    /** {@inheritDoc} */
    @Override
    ReadEnd reopen() throws IOException;

    /**
     * An {@link InputStream} over this handle; closing it closes this handle. The handle must stay in
     * blocking mode while the stream is used: so must its description, which a {@link #dup()} shares (a
     * {@link #reopen()} does not).
     *
     * @return a new stream
     */
    default InputStream asInputStream() {
        return new PipeInputStream(this);
    }
}
