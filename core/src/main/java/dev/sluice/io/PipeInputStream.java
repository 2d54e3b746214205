package dev.sluice.io;

import dev.sluice.ReadEnd;
import java.io.IOException;
import java.io.InputStream;
import java.nio.channels.IllegalBlockingModeException;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * An {@link InputStream} reading from a pipe's {@link ReadEnd}.
 *
 * <p>Reads block until at least one byte is there and return what is queued, up to the request; -1 at
 * end-of-stream. There is no buffering in the stream: the pipe is the buffer. {@link #available()} is
 * {@code FIONREAD}. {@link #close()} closes the handle. An interrupt while waiting throws
 * {@link java.io.InterruptedIOException} and leaves the thread's interrupt status set.
 *
 * <p>The handle must be in blocking mode: an {@code InputStream} has no way to say "nothing yet", so a
 * nonblocking handle makes reads throw {@link IllegalBlockingModeException}, as the JDK's
 * {@code Channels.newInputStream} does.
 */
public final class PipeInputStream extends InputStream {
    private final ReadEnd end;
    /** A 1-byte buffer for {@link #read()}, borrowed without blocking so single-byte reads allocate nothing. */
    private final byte[] one = new byte[1];
    private final AtomicBoolean oneInUse = new AtomicBoolean();

    /**
     * An input stream over a read end ({@code ReadEnd#asInputStream} makes one).
     *
     * @param end the handle to read from; the stream owns it from now on
     */
    public PipeInputStream(ReadEnd end) {
        this.end = Objects.requireNonNull(end, "end is null");
    }

    /** {@return the handle this stream reads from} */
    public ReadEnd end() {
        return end;
    }

    private void checkBlocking() {
        if (end.isNonBlocking()) {
            throw new IllegalBlockingModeException();
        }
    }

    @Override
    public int read() throws IOException {
        checkBlocking();
        boolean borrowed = oneInUse.compareAndSet(false, true);
        byte[] b = borrowed ? one : new byte[1];
        try {
            int n = end.read(b, 0, 1);
            return n < 0 ? -1 : b[0] & 0xFF;
        } finally {
            if (borrowed) {
                oneInUse.set(false);
            }
        }
    }

    @Override
    public int read(byte[] b, int off, int len) throws IOException {
        Objects.checkFromIndexSize(off, len, Objects.requireNonNull(b, "byte array is null").length);
        checkBlocking();
        if (len == 0) {
            return 0;
        }
        return end.read(b, off, len);
    }

    @Override
    public int available() throws IOException {
        return end.available();
    }

    @Override
    public void close() {
        end.close();
    }

    @Override
    public String toString() {
        return "PipeInputStream[" + end + "]";
    }
}
