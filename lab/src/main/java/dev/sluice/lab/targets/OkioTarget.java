package dev.sluice.lab.targets;

import okio.Buffer;
import okio.Pipe;
import okio.Sink;
import okio.Source;

import java.io.IOException;

/**
 * Okio's {@code okio.Pipe}: a buffer of bounded size guarded by one lock and condition. A write larger than
 * the free space stores what fits, signals, and waits with the lock released, so many writers on one pipe
 * may interleave; there is no nonblocking mode.
 */
public final class OkioTarget implements Target {
    static final int DEFAULT_CAPACITY = 64 * 1024;
    private static final Caps CAPS = new Caps(false, false, true, false,
            "okio.Pipe writes are not atomic: a write bigger than the free space stores part and waits with the "
                    + "lock released, so writers interleave",
            "okio.Pipe has no nonblocking mode");

    @Override
    public String family() {
        return "okio";
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
    public PipeHandle open(int capacity, boolean nonBlocking) throws IOException {
        if (nonBlocking) {
            throw new IOException(CAPS.whyNotNonBlocking());
        }
        Pipe pipe = new Pipe(capacity > 0 ? capacity : DEFAULT_CAPACITY);
        Sink sink = pipe.sink();
        Source source = pipe.source();
        return new PipeHandle() {
            @Override
            public int read(byte[] b, int off, int len) throws IOException {
                // okio moves bytes between Buffers; one per call, as a reader without its own buffering would.
                Buffer buf = new Buffer();
                long n = source.read(buf, len);
                if (n < 0) {
                    return -1;
                }
                // Buffer.read(byte[], ...) stops at a segment boundary (8 KiB): loop until all n bytes are out.
                for (int done = 0; done < n; ) {
                    done += buf.read(b, off + done, (int) n - done);
                }
                return (int) n;
            }

            @Override
            public int write(byte[] b, int off, int len) throws IOException {
                Buffer buf = new Buffer();
                buf.write(b, off, len);
                sink.write(buf, len);
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
        };
    }
}
