package dev.sluice.bench;

import dev.sluice.Pipe;
import dev.sluice.PipeOptions;
import dev.sluice.ReadEnd;
import dev.sluice.WriteEnd;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.Pipe.SinkChannel;
import java.nio.channels.Pipe.SourceChannel;

/**
 * One pipe under test, seen through byte arrays: Sluice's in-process pipe, a kernel pipe through Sluice's
 * kernel module, or the JDK's
 * {@link java.nio.channels.Pipe}, which on Linux is a kernel pipe and so serves as the kernel reference.
 */
abstract class Transport implements AutoCloseable {

    /** @return bytes written, all of them (blocking) */
    abstract int write(byte[] b, int off, int len) throws IOException;

    /** @return bytes read, or -1 at end-of-stream */
    abstract int read(byte[] b, int off, int len) throws IOException;

    abstract void closeWriter() throws IOException;

    @Override
    public abstract void close() throws IOException;

    /** @return a Sluice pipe with the given options */
    static Transport sluice(PipeOptions options) {
        return new Sluice(Pipe.open(options));
    }

    /** @return a kernel pipe through Sluice's kernel module (FFM), behind the same {@code Pipe} interface */
    static Transport kernel() throws IOException {
        return new Sluice(dev.sluice.kernel.KernelPipe.open());
    }

    /** @return a kernel pipe through {@code java.nio.channels.Pipe} */
    static Transport nio() throws IOException {
        return new Nio(java.nio.channels.Pipe.open());
    }

    /**
     * @param link a link of the {@code crossjvm} module: Agrona's ring within this JVM, or a peer in another JVM
     * @return the link as a transport (written and read through its own calls)
     */
    static Transport of(dev.sluice.crossjvm.Link link) {
        return new Linked(link);
    }

    /** A {@code crossjvm} link: one way of it when both ends are here, both ways to a peer in another JVM. */
    static final class Linked extends Transport {
        final dev.sluice.crossjvm.Link link;

        Linked(dev.sluice.crossjvm.Link link) {
            this.link = link;
        }

        @Override
        int write(byte[] b, int off, int len) throws IOException {
            link.write(b, off, len);
            return len;
        }

        @Override
        int read(byte[] b, int off, int len) throws IOException {
            return link.read(b, off, len);
        }

        @Override
        void closeWriter() throws IOException {
            link.closeOutput();
        }

        @Override
        public void close() {
            link.close();
        }
    }

    /** Sluice through its byte-array API. */
    static final class Sluice extends Transport {
        final Pipe pipe;
        final ReadEnd in;
        final WriteEnd out;

        Sluice(Pipe pipe) {
            this.pipe = pipe;
            this.in = pipe.reader();
            this.out = pipe.writer();
        }

        @Override
        int write(byte[] b, int off, int len) throws IOException {
            return out.write(b, off, len);
        }

        @Override
        int read(byte[] b, int off, int len) throws IOException {
            return in.read(b, off, len);
        }

        @Override
        void closeWriter() {
            out.close();
        }

        @Override
        public void close() {
            out.close();
            in.close();
        }
    }

    /**
     * The JDK's pipe with direct buffers, its best case: a heap buffer would add a copy through a temporary
     * direct buffer. The copy between the direct buffer and the caller's array is the price of the
     * byte-array view every transport offers here; it is small next to the system call.
     */
    static final class Nio extends Transport {
        final SourceChannel source;
        final SinkChannel sink;
        final ByteBuffer rbuf = ByteBuffer.allocateDirect(1 << 20);
        final ByteBuffer wbuf = ByteBuffer.allocateDirect(1 << 20);

        Nio(java.nio.channels.Pipe p) {
            this.source = p.source();
            this.sink = p.sink();
        }

        @Override
        int write(byte[] b, int off, int len) throws IOException {
            wbuf.clear();
            wbuf.put(b, off, len).flip();
            while (wbuf.hasRemaining()) {
                sink.write(wbuf);
            }
            return len;
        }

        @Override
        int read(byte[] b, int off, int len) throws IOException {
            rbuf.clear().limit(Math.min(len, rbuf.capacity()));
            int n = source.read(rbuf);
            if (n > 0) {
                rbuf.flip().get(b, off, n);
            }
            return n;
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
