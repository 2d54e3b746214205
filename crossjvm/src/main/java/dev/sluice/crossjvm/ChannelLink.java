package dev.sluice.crossjvm;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.ReadableByteChannel;
import java.nio.channels.WritableByteChannel;

/**
 * A {@link Link} over blocking JDK channels (a socket, or two file channels on pipe descriptors), each call
 * through a heap buffer as a JDK user writes it (the JDK copies through its temporary direct buffer).
 */
final class ChannelLink implements Link {
    /** A close that may fail. */
    @FunctionalInterface
    interface Closer {
        void close() throws IOException;
    }

    private final ReadableByteChannel in;
    private final WritableByteChannel out;
    private final Closer closeOutput;

    ChannelLink(ReadableByteChannel in, WritableByteChannel out, Closer closeOutput) {
        this.in = in;
        this.out = out;
        this.closeOutput = closeOutput;
    }

    @Override
    public int read(byte[] b, int off, int len) throws IOException {
        return in.read(ByteBuffer.wrap(b, off, len));
    }

    @Override
    public void write(byte[] b, int off, int len) throws IOException {
        ByteBuffer buf = ByteBuffer.wrap(b, off, len);
        while (buf.hasRemaining()) {
            out.write(buf);
        }
    }

    @Override
    public void closeOutput() throws IOException {
        closeOutput.close();
    }

    @Override
    public void close() {
        for (java.nio.channels.Channel c : new java.nio.channels.Channel[] {out, in}) {
            try {
                c.close();
            } catch (IOException ignored) {
                // closing: nothing more to do
            }
        }
    }
}
