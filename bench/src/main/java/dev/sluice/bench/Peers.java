package dev.sluice.bench;

import java.io.IOException;
import java.io.PipedInputStream;
import java.io.PipedOutputStream;

/**
 * The other Java pipes, each configured the way its own users run it, behind the benchmarks' byte-array
 * {@link Transport}. How each is set up is what the bench README's tables state:
 * <ul>
 *   <li>{@code PipedInputStream}/{@code PipedOutputStream}, 64 KiB buffer (the JDK default is 1 KiB; the
 *       size is a constructor argument). A streaming user does not flush after every write (a flush only
 *       wakes a reader that waits in its once-a-second poll); a latency user (ping-pong) does;</li>
 *   <li>Okio's {@code Pipe} (3.18), 64 KiB, through {@code Okio.buffer} on both ends, as Okio's users read
 *       and write: the buffered sink hands whole 8 KiB segments to the pipe as they fill, and a latency user
 *       flushes after each write;</li>
 *   <li>Agrona's {@code OneToOneRingBuffer}, the single-producer ring Aeron uses, 1 MiB (its largest message is
 *       an eighth of that, 128 KiB), one message per write, with a {@code BackoffIdleStrategy} on both sides.
 *       It <em>polls</em>: it cannot block a thread, and its waiting side keeps a core busy (spins, then yields,
 *       then parks for at most a millisecond at a time).</li>
 * </ul>
 */
final class Peers {
    /** The buffer every blocking peer gets: the default capacity of a Linux (and Sluice) pipe. */
    static final int PIPE_BYTES = 64 * 1024;
    /** Agrona's ring: big enough for one message of the largest write (a message is at most 1/8 of it). */
    static final int RING_BYTES = 1 << 20;

    private Peers() {
    }

    /** @param flushEach whether every write is flushed (latency) or not (streaming) */
    static Transport jdkPiped(boolean flushEach) throws IOException {
        return new JdkPiped(flushEach);
    }

    /** @param flushEach whether every write is flushed (latency) or not (streaming) */
    static Transport okio(boolean flushEach) {
        return new Okio(flushEach);
    }

    /**
     * Sluice's pipe as an Okio user would take it, through {@code sluice-okio} and {@code Okio.buffer}: the
     * same buffered ends as {@link #okio}, over a Sluice pipe instead of Okio's.
     *
     * @param flushEach whether every write is flushed (latency) or not (streaming)
     */
    static Transport sluiceOkio(boolean flushEach) {
        return new Okio(flushEach, dev.sluice.Pipe.open());
    }

    static Transport agrona() {
        return Transport.of(dev.sluice.crossjvm.AgronaChannel.inProcess(RING_BYTES)); // the cross-JVM benchmarks' too
    }

    /** {@code java.io.PipedInputStream}/{@code PipedOutputStream}. */
    static final class JdkPiped extends Transport {
        private final PipedInputStream in = new PipedInputStream(PIPE_BYTES);
        private final PipedOutputStream out;
        private final boolean flushEach;

        JdkPiped(boolean flushEach) throws IOException {
            this.out = new PipedOutputStream(in);
            this.flushEach = flushEach;
        }

        @Override
        int write(byte[] b, int off, int len) throws IOException {
            out.write(b, off, len);
            if (flushEach) {
                out.flush();
            }
            return len;
        }

        @Override
        int read(byte[] b, int off, int len) throws IOException {
            return in.read(b, off, len);
        }

        @Override
        void closeWriter() throws IOException {
            out.close();
        }

        @Override
        public void close() throws IOException {
            out.close();
            in.close();
        }
    }

    /** Okio's buffered ends over Okio's {@code Pipe}, or over a Sluice pipe through {@code sluice-okio}. */
    static final class Okio extends Transport {
        private final okio.BufferedSink sink;
        private final okio.BufferedSource source;
        private final boolean flushEach;

        /** Okio's own pipe. */
        Okio(boolean flushEach) {
            okio.Pipe pipe = new okio.Pipe(PIPE_BYTES);
            this.sink = okio.Okio.buffer(pipe.sink());
            this.source = okio.Okio.buffer(pipe.source());
            this.flushEach = flushEach;
        }

        /** A Sluice pipe through Sluice's Okio adapters. */
        Okio(boolean flushEach, dev.sluice.Pipe pipe) {
            this.sink = okio.Okio.buffer(dev.sluice.okio.SluiceOkio.sink(pipe.writer()));
            this.source = okio.Okio.buffer(dev.sluice.okio.SluiceOkio.source(pipe.reader()));
            this.flushEach = flushEach;
        }

        @Override
        int write(byte[] b, int off, int len) throws IOException {
            sink.write(b, off, len);
            if (flushEach) {
                sink.flush();
            }
            return len;
        }

        @Override
        int read(byte[] b, int off, int len) throws IOException {
            return source.read(b, off, len);
        }

        @Override
        void closeWriter() throws IOException {
            sink.close();
        }

        @Override
        public void close() throws IOException {
            sink.close();
            source.close();
        }
    }
}
