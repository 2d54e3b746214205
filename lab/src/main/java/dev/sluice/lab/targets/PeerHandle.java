package dev.sluice.lab.targets;

import dev.sluice.crossjvm.Pattern;
import dev.sluice.crossjvm.Peer;
import dev.sluice.crossjvm.Role;

import java.io.IOException;

/**
 * A {@link Peer} as a workload sees a pipe: what it writes goes to the child JVM and what it reads comes from
 * it. Closing the writer ends the child's stream; closing the reader ends the child.
 */
public final class PeerHandle implements PipeHandle {
    private static final int WARM_WRITE = 4096;
    private final Peer peer;

    PeerHandle(Peer peer) {
        this.peer = peer;
    }

    void warmUp() throws IOException {
        byte[] b = new byte[1];
        for (long start = System.nanoTime(); System.nanoTime() - start < CrossJvmTarget.WARM_NANOS; ) {
            for (int i = 0; i < 100; i++) {
                if (peer.role() == Role.ECHO) {
                    peer.write(b, 0, 1);
                    if (!peer.readFully(b, 0, 1)) {
                        throw new IOException("the echo child ended while warming up");
                    }
                } else {
                    peer.write(Pattern.bytes(), Pattern.offset(peer.sent()), WARM_WRITE);
                }
            }
        }
    }

    /** {@return bytes written to the child so far, warm-up included: where a sink's stream goes on} */
    public long sent() {
        return peer.sent();
    }

    /**
     * Ends a sink child's stream and takes its verdict ({@link Peer#finish()}).
     *
     * @return the bytes it read, warm-up included
     * @throws IOException if it read a wrong byte or another count than was sent
     */
    public long finish() throws IOException {
        return peer.finish();
    }

    @Override
    public int read(byte[] b, int off, int len) throws IOException {
        return peer.read(b, off, len);
    }

    @Override
    public int write(byte[] b, int off, int len) throws IOException {
        peer.write(b, off, len);
        return len;
    }

    @Override
    public void closeWriter() throws IOException {
        peer.closeOutput();
    }

    @Override
    public void closeReader() {
        peer.close();
    }
}
