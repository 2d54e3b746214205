package dev.sluice.lab.targets;

import java.io.IOException;
import java.io.PipedInputStream;
import java.io.PipedOutputStream;

/**
 * {@code java.io.PipedInputStream}/{@code PipedOutputStream}. Its quirks decide what it can run:
 * <ul>
 *   <li>a write that finds the buffer full stores what fits and waits with the monitor released, so another
 *       writer's bytes can land in the middle of a message: many writers on one pipe are not safe;</li>
 *   <li>it remembers the last thread that wrote and the last that read, and fails with "Write end dead" /
 *       "Read end dead" once that thread has exited, even though other threads still hold the stream;</li>
 *   <li>there is no nonblocking mode; a waiting reader is only notified by {@code flush()} (which this target
 *       calls after every write) and otherwise re-checks once a second ({@code wait(1000)}).</li>
 * </ul>
 */
public final class JdkPipedTarget implements Target {
    /** The JDK's default buffer is 1 KiB; the lab uses the kernel's 64 KiB unless told otherwise. */
    static final int DEFAULT_CAPACITY = 64 * 1024;

    private static final Caps CAPS = new Caps(false, false, true, false,
            "PipedOutputStream writes are not atomic: a write into a full buffer waits with the monitor released, "
                    + "so another writer's bytes interleave with the message",
            "PipedInputStream/PipedOutputStream have no nonblocking mode");

    @Override
    public String family() {
        return "jdk-piped";
    }

    @Override
    public String id() {
        return "jdk-piped";
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
        PipedInputStream in = new PipedInputStream(capacity > 0 ? capacity : DEFAULT_CAPACITY);
        PipedOutputStream out = new PipedOutputStream(in);
        return new PipeHandle() {
            @Override
            public int read(byte[] b, int off, int len) throws IOException {
                return in.read(b, off, len);
            }

            @Override
            public int write(byte[] b, int off, int len) throws IOException {
                out.write(b, off, len);
                // PipedInputStream only notifies a waiting reader on flush (or when the writer must wait for
                // space); without it the reader sleeps out its one-second wait. Flushing is the documented use.
                out.flush();
                return len;
            }

            @Override
            public void closeWriter() throws IOException {
                out.close();
            }

            @Override
            public void closeReader() throws IOException {
                in.close();
            }
        };
    }
}
