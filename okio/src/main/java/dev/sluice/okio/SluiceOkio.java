package dev.sluice.okio;

import dev.sluice.BrokenPipeException;
import dev.sluice.PipeInterruptedException;
import dev.sluice.PipeTimeoutException;
import dev.sluice.ReadEnd;
import dev.sluice.WriteEnd;
import java.io.IOException;
import java.time.Duration;
import java.util.Objects;
import okio.Buffer;
import okio.Sink;
import okio.Source;
import okio.Timeout;

/**
 * Okio's {@link Source} and {@link Sink} over the ends of a Sluice pipe, for code written against Okio:
 *
 * <pre>{@code
 * Pipe pipe = Pipe.open();
 * try (BufferedSink out = Okio.buffer(SluiceOkio.sink(pipe.writer()));
 *      BufferedSource in = Okio.buffer(SluiceOkio.source(pipe.reader()))) {
 *     out.writeUtf8("hello\n").flush();
 *     String line = in.readUtf8LineStrict();
 * }
 * }</pre>
 *
 * <p><b>No extra copy.</b> A read goes from the pipe's pages straight into the Okio buffer's own segments, and
 * a write straight from the segments into the pipe (through {@link Buffer.UnsafeCursor}): one copy each way,
 * which a pipe between two threads needs anyway. Over {@code asInputStream()} with {@code Okio.source} there
 * would be a second one through the stream's array.
 *
 * <p><b>Timeouts.</b> Each source and sink has its own {@link Timeout}, honoured as Okio's own sources honour
 * theirs: a deadline that has passed fails the next call at once ({@link Timeout#throwIfReached}); otherwise
 * the time a call may wait is the timeout or what is left to the deadline, whichever is shorter, and a call
 * that waits longer throws {@link java.io.InterruptedIOException} (a {@link PipeTimeoutException}). The
 * source or sink owns its end from now on: it sets the end's timeout ({@code PipeEnd#setTimeout}) before
 * each call, and closing it closes the end. {@link Timeout#cancel()} is not seen by waits inside the pipe;
 * close the source or sink, or interrupt the thread, to end one.
 *
 * <p><b>Failures</b> keep Okio's buffer exact: a write that the pipe took only in part (a broken pipe, an
 * interrupt, a timeout, an end closed meanwhile) removes exactly the bytes that went into the pipe from the
 * source buffer before the failure is thrown.
 */
public final class SluiceOkio {
    private SluiceOkio() {
    }

    /**
     * {@return a source that reads from {@code end}} It returns what the pipe has, up to the count asked for,
     * and -1 at the pipe's end-of-stream, as a read of the end does. The end must stay in blocking mode.
     *
     * @param end the read end; the source owns it from now on
     */
    public static Source source(ReadEnd end) {
        return new EndSource(Objects.requireNonNull(end, "read end is null"));
    }

    /**
     * {@return a sink that writes to {@code end}} A write returns once every byte is in the pipe; there is
     * nothing to flush. The end must stay in blocking mode.
     *
     * @param end the write end; the sink owns it from now on
     */
    public static Sink sink(WriteEnd end) {
        return new EndSink(Objects.requireNonNull(end, "write end is null"));
    }

    /** Sets {@code end}'s timeout to what {@code timeout} allows this call; fails if its deadline has passed. */
    static void apply(Timeout timeout, dev.sluice.PipeEnd end) throws IOException {
        timeout.throwIfReached();
        long wait = timeout.timeoutNanos();
        if (timeout.hasDeadline()) {
            long left = Math.max(1, timeout.deadlineNanoTime() - System.nanoTime());
            wait = wait == 0 ? left : Math.min(wait, left);
        }
        end.setTimeout(Duration.ofNanos(wait));
    }

    /** Bytes a failed call had moved, as its exception reports them; 0 for exceptions that carry none. */
    static long moved(IOException e) {
        if (e instanceof BrokenPipeException b) {
            return b.bytesTransferred();
        }
        if (e instanceof PipeTimeoutException t) {
            return t.bytesTransferred();
        }
        if (e instanceof PipeInterruptedException i) {
            return i.bytesTransferred();
        }
        return 0;
    }

    /** A {@link Source} over a read end. */
    private static final class EndSource implements Source {
        private final ReadEnd end;
        private final Timeout timeout = new Timeout();
        private final Buffer.UnsafeCursor cursor = new Buffer.UnsafeCursor();

        EndSource(ReadEnd end) {
            this.end = end;
        }

        @Override
        public long read(Buffer sink, long byteCount) throws IOException {
            if (byteCount < 0) {
                throw new IllegalArgumentException("byteCount < 0: " + byteCount);
            }
            if (byteCount == 0) {
                return 0;
            }
            apply(timeout, end);
            long before = sink.size();
            int n = -1;
            try (Buffer.UnsafeCursor c = sink.readAndWriteUnsafe(cursor)) {
                // Room at the end of the buffer's last segment, or a new segment: read straight into it.
                long room = c.expandBuffer(1);
                int want = (int) Math.min(byteCount, room);
                try {
                    n = end.read(c.data, c.start, want);
                } finally {
                    c.resizeBuffer(before + Math.max(n, 0)); // give back what the read did not fill
                }
            }
            return n;
        }

        @Override
        public Timeout timeout() {
            return timeout;
        }

        @Override
        public void close() {
            end.close();
        }

        @Override
        public String toString() {
            return "SluiceOkio.source(" + end + ")";
        }
    }

    /** A {@link Sink} over a write end. */
    private static final class EndSink implements Sink {
        private final WriteEnd end;
        private final Timeout timeout = new Timeout();
        private final Buffer.UnsafeCursor cursor = new Buffer.UnsafeCursor();

        EndSink(WriteEnd end) {
            this.end = end;
        }

        @Override
        public void write(Buffer source, long byteCount) throws IOException {
            if (byteCount < 0 || byteCount > source.size()) {
                throw new IllegalArgumentException("byteCount " + byteCount + " outside 0.." + source.size());
            }
            while (byteCount > 0) {
                apply(timeout, end);
                int stored;
                try (Buffer.UnsafeCursor c = source.readUnsafe(cursor)) {
                    c.seek(0); // the first segment: its bytes go to the pipe as they are
                    int n = (int) Math.min(byteCount, c.end - c.start);
                    stored = end.write(c.data, c.start, n);
                } catch (IOException e) {
                    source.skip(moved(e)); // what went in before the failure is the pipe's now
                    throw e;
                }
                source.skip(stored); // fewer than asked only when the end was closed meanwhile
                byteCount -= stored;
                if (stored == 0 && !end.isOpen()) {
                    throw new java.nio.channels.ClosedChannelException();
                }
            }
        }

        @Override
        public void flush() {
            // Nothing is buffered here: a write returns once its bytes are in the pipe.
        }

        @Override
        public Timeout timeout() {
            return timeout;
        }

        @Override
        public void close() {
            end.close();
        }

        @Override
        public String toString() {
            return "SluiceOkio.sink(" + end + ")";
        }
    }
}
