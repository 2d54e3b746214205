package dev.sluice.io;

import dev.sluice.WriteEnd;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.channels.IllegalBlockingModeException;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * An {@link OutputStream} writing to a pipe's {@link WriteEnd}.
 *
 * <p>Each {@code write} is one write to the pipe, so a {@code write(byte[])} of at most
 * {@link dev.sluice.Pipe#PIPE_BUF} bytes stays atomic among several writers. There is no buffering:
 * {@link #flush()} has nothing to do, and a reader sees bytes as soon as {@code write} returns (unlike
 * {@code PipedOutputStream}, whose reader may wait up to a second). Broken pipe throws
 * {@link dev.sluice.BrokenPipeException}; {@link #close()} closes the handle, and the last writer's close
 * is the reader's end-of-stream.
 *
 * <p>The handle must be in blocking mode, else writes throw {@link IllegalBlockingModeException}.
 */
public final class PipeOutputStream extends OutputStream {
    private final WriteEnd end;
    private final byte[] one = new byte[1];
    private final AtomicBoolean oneInUse = new AtomicBoolean();

    /**
     * An output stream over a write end ({@code WriteEnd#asOutputStream} makes one).
     *
     * @param end the handle to write to; the stream owns it from now on
     */
    public PipeOutputStream(WriteEnd end) {
        this.end = Objects.requireNonNull(end, "end is null");
    }

    /** {@return the handle this stream writes to} */
    public WriteEnd end() {
        return end;
    }

    private void checkBlocking() {
        if (end.isNonBlocking()) {
            throw new IllegalBlockingModeException();
        }
    }

    @Override
    public void write(int b) throws IOException {
        checkBlocking();
        boolean borrowed = oneInUse.compareAndSet(false, true);
        byte[] buf = borrowed ? one : new byte[1];
        try {
            buf[0] = (byte) b;
            end.write(buf, 0, 1);
        } finally {
            if (borrowed) {
                oneInUse.set(false);
            }
        }
    }

    @Override
    public void write(byte[] b, int off, int len) throws IOException {
        Objects.checkFromIndexSize(off, len, Objects.requireNonNull(b, "byte array is null").length);
        checkBlocking();
        end.write(b, off, len); // blocking: stores every byte or throws
    }

    @Override
    public void close() {
        end.close();
    }

    @Override
    public String toString() {
        return "PipeOutputStream[" + end + "]";
    }
}
