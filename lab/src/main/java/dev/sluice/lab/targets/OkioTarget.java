package dev.sluice.lab.targets;

import okio.BufferedSink;
import okio.BufferedSource;
import okio.Okio;
import okio.Pipe;

import java.io.IOException;

/**
 * Okio's {@code okio.Pipe}, used as Okio's users use it: through a {@link BufferedSink} and a
 * {@link BufferedSource} ({@code Okio.buffer}), which move whole 8 KiB segments between the pipe and their
 * buffers. The pipe is a buffer of bounded size guarded by one lock and condition. A write larger than the
 * free space stores what fits, signals, and waits with the lock released, so many writers on one pipe may
 * interleave; there is no nonblocking mode; and, as Okio's own documentation says of its pipe's ends,
 * typically each is used by its own thread, so a buffered end serves one thread here.
 *
 * <p>The sink flushes after every write only where someone waits for each message ({@link Traffic#MESSAGES});
 * a stream lets the sink emit complete segments as they fill, and flushes at the end.
 */
public final class OkioTarget implements Target {
    /** Creates the target. */
    public OkioTarget() {
        // nothing to set up
    }

    static final int DEFAULT_CAPACITY = 64 * 1024;
    private static final Caps CAPS = new Caps(false, false, true, false,
            "okio.Pipe writes are not atomic: a write bigger than the free space stores part and waits with the "
                    + "lock released, so writers interleave",
            "okio.Pipe has no nonblocking mode");

    @Override
    public Family family() {
        return Family.OKIO;
    }

    @Override
    public String id() {
        return "okio";
    }

    @Override
    public Caps caps() {
        return CAPS;
    }

    @Override
    public String how(Traffic traffic) {
        return "Pipe(64 KiB or the workload's size), BufferedSink/Source (8 KiB segments), "
                + (traffic == Traffic.MESSAGES ? "flush() after every write" : "flush only at the end");
    }

    @Override
    public PipeHandle open(Open spec) throws IOException {
        if (spec.nonBlocking()) {
            throw new IOException(CAPS.whyNotNonBlocking());
        }
        Pipe pipe = new Pipe(spec.capacity() > 0 ? spec.capacity() : DEFAULT_CAPACITY);
        BufferedSink sink = Okio.buffer(pipe.sink());
        BufferedSource source = Okio.buffer(pipe.source());
        boolean flushEach = spec.traffic() == Traffic.MESSAGES;
        return new PipeHandle() {
            @Override
            public int read(byte[] b, int off, int len) throws IOException {
                return source.read(b, off, len);
            }

            @Override
            public int write(byte[] b, int off, int len) throws IOException {
                sink.write(b, off, len);
                if (flushEach) {
                    sink.flush();
                }
                return len;
            }

            @Override
            public void closeWriter() throws IOException {
                sink.close();
            }

            @Override
            public void closeReader() throws IOException {
                source.close();
            }

            @Override
            public void close() {
                // Aborting a run from another thread: closing the buffered sink would flush into a full
                // pipe and wait; cancel fails every blocked and later call at once instead.
                pipe.cancel();
            }
        };
    }
}
