package dev.sluice.lab.targets;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.Pipe;

/**
 * {@code java.nio.channels.Pipe}. On Linux this is a kernel pipe ({@code pipe2}) behind the JDK's channel
 * code, so it is also the closest thing to a kernel reference until the FFM kernel target exists. Its size
 * cannot be set (no {@code F_SETPIPE_SZ}): it always has the kernel's default of 64 KiB. A write holds the
 * channel's write lock until every byte is written, so concurrent writes never interleave.
 */
public final class NioTarget implements Target {
    /** Creates the target. */
    public NioTarget() {
        // nothing to set up
    }

    private static final Caps CAPS = new Caps(true, true, false, false, null, null);

    @Override
    public Family family() {
        return Family.NIO;
    }

    @Override
    public String id() {
        return "nio";
    }

    @Override
    public Caps caps() {
        return CAPS;
    }

    @Override
    public String how(Traffic traffic) {
        return "Pipe.open(), fixed 64 KiB, blocking channels, ByteBuffer.wrap per call";
    }

    @Override
    public PipeHandle open(Open spec) throws IOException {
        boolean nonBlocking = spec.nonBlocking();
        Pipe pipe = Pipe.open();
        Pipe.SourceChannel source = pipe.source();
        Pipe.SinkChannel sink = pipe.sink();
        source.configureBlocking(!nonBlocking);
        sink.configureBlocking(!nonBlocking);
        return new PipeHandle() {
            @Override
            public int read(byte[] b, int off, int len) throws IOException {
                return source.read(ByteBuffer.wrap(b, off, len));
            }

            @Override
            public int write(byte[] b, int off, int len) throws IOException {
                ByteBuffer buf = ByteBuffer.wrap(b, off, len);
                if (nonBlocking) {
                    return sink.write(buf);
                }
                // A blocking channel write already writes everything; the loop is for safety.
                while (buf.hasRemaining()) {
                    sink.write(buf);
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
        };
    }
}
