package dev.sluice.lab.targets;

import java.io.IOException;
import java.io.PipedInputStream;
import java.io.PipedOutputStream;

/**
 * {@code java.io.PipedInputStream}/{@code PipedOutputStream}, used as its documentation intends. Its quirks
 * decide what it can run:
 * <ul>
 *   <li>a write that finds the buffer full stores what fits and waits with the monitor released, so another
 *       writer's bytes can land in the middle of a message: many writers on one pipe are not safe;</li>
 *   <li>it remembers the last thread that wrote and the last that read, and fails with "Write end dead" /
 *       "Read end dead" once that thread has exited, even though other threads still hold the stream;</li>
 *   <li>there is no nonblocking mode; a reader waiting on an empty buffer is notified by {@code flush()},
 *       by a writer that finds the buffer full, or by {@code close()}, and otherwise looks again once a
 *       second ({@code wait(1000)}).</li>
 * </ul>
 * So a stream of bytes is written without a flush between writes, as buffered Java streams are (the reader
 * runs whenever the buffer fills, and at the end), and only where someone waits for each message
 * ({@link Traffic#MESSAGES}: ping-pong) does every write flush: that is the documented way to hand over
 * "any buffered output bytes" to a waiting reader.
 */
public final class JdkPipedTarget implements Target {
    /** Creates the target. */
    public JdkPipedTarget() {
        // nothing to set up
    }

    /**
     * The JDK's default buffer is 1 KiB, a quarter of one kernel page; the lab gives it the kernel pipe's
     * 64 KiB (or the workload's size), so every pipe has the same room and the JDK's is not starved.
     */
    static final int DEFAULT_CAPACITY = 64 * 1024;

    private static final Caps CAPS = new Caps(false, false, true, false,
            "PipedOutputStream writes are not atomic: a write into a full buffer waits with the monitor released, "
                    + "so another writer's bytes interleave with the message",
            "PipedInputStream/PipedOutputStream have no nonblocking mode");

    @Override
    public Family family() {
        return Family.JDK_PIPED;
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
    public String how(Traffic traffic) {
        return "PipedInputStream(64 KiB or the workload's size; JDK default 1 KiB), "
                + (traffic == Traffic.MESSAGES ? "flush() after every write" : "no flush between writes");
    }

    @Override
    public PipeHandle open(Open spec) throws IOException {
        if (spec.nonBlocking()) {
            throw new IOException(CAPS.whyNotNonBlocking());
        }
        PipedInputStream in = new PipedInputStream(spec.capacity() > 0 ? spec.capacity() : DEFAULT_CAPACITY);
        PipedOutputStream out = new PipedOutputStream(in);
        boolean flushEach = spec.traffic() == Traffic.MESSAGES;
        return new PipeHandle() {
            @Override
            public int read(byte[] b, int off, int len) throws IOException {
                return in.read(b, off, len);
            }

            @Override
            public int write(byte[] b, int off, int len) throws IOException {
                out.write(b, off, len);
                if (flushEach) {
                    out.flush();
                }
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
