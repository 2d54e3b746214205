package dev.sluice.crossjvm;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.function.BooleanSupplier;
import org.agrona.concurrent.BackoffIdleStrategy;
import org.agrona.concurrent.ControlledMessageHandler;
import org.agrona.concurrent.IdleStrategy;
import org.agrona.concurrent.UnsafeBuffer;
import org.agrona.concurrent.ringbuffer.OneToOneRingBuffer;
import org.agrona.concurrent.ringbuffer.RingBufferDescriptor;

/**
 * A {@link Link} over Agrona's {@link OneToOneRingBuffer}s as Aeron's users run them: one message per write,
 * a {@link BackoffIdleStrategy} (default settings: 10 spins, 5 yields, then parks of 1 µs doubling to 1 ms) on
 * every side that must wait. It <em>polls</em>: a ring cannot block a thread, and a waiting side keeps checking.
 * A message of type {@link #END} ends the stream. A message is read whole, so a write must fit the reader's
 * buffer (the child's reads are 64 KiB). The benchmarks use it in one JVM (one ring, {@link #inProcess})
 * and between two (two rings in a shared file).
 */
public final class AgronaChannel implements Link {
    private static final int DATA = 1;
    private static final int END = 2;
    private final OneToOneRingBuffer in;
    private final OneToOneRingBuffer out;
    private final BooleanSupplier peerGone;
    private final UnsafeBuffer src = new UnsafeBuffer(new byte[0]);
    private final IdleStrategy writerIdle = new BackoffIdleStrategy();
    private final IdleStrategy readerIdle = new BackoffIdleStrategy();
    private byte[] dst;
    private int at;
    private int limit;
    private boolean ended;

    /** Copies whole messages into the caller's array while they fit; one that does not waits for the next read. */
    private final ControlledMessageHandler handler = (type, buffer, index, length) -> {
        if (type == END) {
            ended = true;
            return ControlledMessageHandler.Action.BREAK;
        }
        if (length > limit - at) {
            return ControlledMessageHandler.Action.ABORT;
        }
        buffer.getBytes(index, dst, at, length);
        at += length;
        return ControlledMessageHandler.Action.CONTINUE;
    };

    /**
     * A link that reads one ring and writes another (they may be the same ring, for a pipe within one JVM).
     *
     * @param in       the ring this side reads
     * @param out      the ring this side writes
     * @param peerGone whether the other side has gone, asked while polling in vain (a ring cannot tell)
     */
    public AgronaChannel(OneToOneRingBuffer in, OneToOneRingBuffer out, BooleanSupplier peerGone) {
        this.in = in;
        this.out = out;
        this.peerGone = peerGone;
    }

    /**
     * {@return a pipe within one JVM: one ring of {@code ringBytes} in direct memory, written by one thread and
     * read by another}
     *
     * @param ringBytes the ring's capacity, a power of two (its largest message is an eighth of it)
     */
    public static AgronaChannel inProcess(int ringBytes) {
        OneToOneRingBuffer ring = new OneToOneRingBuffer(
                new UnsafeBuffer(ByteBuffer.allocateDirect(ringBytes + RingBufferDescriptor.TRAILER_LENGTH)));
        return new AgronaChannel(ring, ring, () -> false);
    }

    @Override
    public void write(byte[] b, int off, int len) throws IOException {
        src.wrap(b, off, len);
        send(DATA, len);
    }

    private void send(int type, int len) throws IOException {
        writerIdle.reset();
        while (!out.write(type, src, 0, len)) {
            if (peerGone.getAsBoolean()) {
                throw new IOException("the other side of the ring is gone");
            }
            writerIdle.idle(); // full: it cannot block, it backs off
        }
    }

    @Override
    public int read(byte[] b, int off, int len) throws IOException {
        dst = b;
        at = off;
        limit = off + len;
        readerIdle.reset();
        for (boolean last = false;;) {
            int messages = in.controlledRead(handler);
            if (at > off) {
                return at - off;
            }
            if (ended) {
                return -1;
            }
            if (last) {
                throw new IOException("the other side of the ring is gone");
            }
            last = peerGone.getAsBoolean(); // one more look: it may have written before it went
            readerIdle.idle(messages);
        }
    }

    @Override
    public void closeOutput() throws IOException {
        src.wrap(new byte[1]);
        send(END, 1);
    }

    @Override
    public void close() {
        // nothing to release: the memory goes with the last reference
    }
}
