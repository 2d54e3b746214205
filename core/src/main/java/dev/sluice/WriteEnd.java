package dev.sluice;

import dev.sluice.io.PipeOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.channels.GatheringByteChannel;
import java.util.Objects;

/**
 * The write side of a {@link Pipe}, and a {@link GatheringByteChannel}.
 *
 * <p>A blocking write returns only when every byte is in the pipe. A write of at most
 * {@link Pipe#PIPE_BUF} bytes (counting all buffers of a gathering write together) is atomic: its bytes
 * are never interleaved with another writer's, and a nonblocking one stores all or nothing. Larger writes
 * may interleave with other writers at page boundaries. A nonblocking write stores what fits and returns
 * the count, 0 if nothing fit ({@code EAGAIN}).
 *
 * <p>When every read end is closed a write throws {@link BrokenPipeException} ({@code EPIPE}), also to a
 * writer blocked on a full pipe when the last reader closes; the exception reports bytes the call stored
 * before. <b>Interrupts</b> follow the stream convention: a writer interrupted while it waits for room
 * gets an {@link java.io.InterruptedIOException} whose {@code bytesTransferred} says how much of its data
 * is in the pipe; its interrupt status stays set and the pipe stays open.
 */
public interface WriteEnd extends PipeEnd, GatheringByteChannel {

    /**
     * Writes {@code b[off..off+len)}.
     *
     * @param b   the bytes
     * @param off first index to write
     * @param len bytes to write
     * @return bytes stored: {@code len} when blocking; possibly fewer, or 0, when nonblocking
     * @throws BrokenPipeException if every read end is closed
     * @throws IOException         on a closed handle, interrupt or timeout (see the class documentation)
     * @throws IndexOutOfBoundsException if the range is outside {@code b}
     */
    int write(byte[] b, int off, int len) throws IOException;

    /**
     * Writes all of {@code b}.
     *
     * @param b the bytes
     * @return as {@link #write(byte[], int, int)}
     * @throws IOException as {@link #write(byte[], int, int)}
     */
    default int write(byte[] b) throws IOException {
        // An explicit message: a JIT-compiled b.length may throw a preallocated NPE with none.
        return write(Objects.requireNonNull(b, "byte array is null"), 0, b.length);
    }

    /** {@inheritDoc} */
    @Override
    int write(ByteBuffer src) throws IOException;

    /** {@inheritDoc} Like {@code writev(2)}: atomic when the buffers hold at most {@link Pipe#PIPE_BUF}. */
    @Override
    long write(ByteBuffer[] srcs, int offset, int length) throws IOException;

    /** {@inheritDoc} */
    @Override
    default long write(ByteBuffer[] srcs) throws IOException {
        return write(Objects.requireNonNull(srcs, "buffer array is null"), 0, srcs.length);
    }

    /**
     * Sets packet mode ({@code O_DIRECT}) on this handle's description, and so for writes through every
     * handle {@link #dup()} made from it or from them ({@code fcntl(F_SETFL)}): each write of at most
     * {@link Pipe#PIPE_BUF} bytes becomes one packet, larger writes 4096-byte packets, and readers get at
     * most one packet per read. As on Linux, packets never merge, but the first {@code n % 4096} bytes of a
     * packet write do join the newest page if a normal write left it with room: mixing modes on one pipe
     * blurs packet boundaries there too. On a closed handle nothing changes (Linux: {@code EBADF}).
     *
     * @param on whether writes through this handle's description are packets
     * @throws UnsupportedOperationException if this kind of pipe fixes the mode when it is opened
     */
    void setPacketMode(boolean on);

    /** {@return whether writes through this handle's description are packets} */
    boolean isPacketMode();

    /** {@inheritDoc} */
    @Override
    WriteEnd dup() throws IOException;

    /** {@inheritDoc} */
    @Override
    WriteEnd reopen() throws IOException;

    /**
     * An {@link OutputStream} over this handle; closing it closes this handle. The handle must stay in
     * blocking mode while the stream is used: so must its description, which a {@link #dup()} shares (a
     * {@link #reopen()} does not).
     *
     * @return a new stream
     */
    default OutputStream asOutputStream() {
        return new PipeOutputStream(this);
    }
}
