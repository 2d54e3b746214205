package dev.sluice.shm;

import dev.sluice.internal.Description;
import dev.sluice.WriteEnd;
import dev.sluice.internal.Checks;
import dev.sluice.internal.Deadline;
import dev.sluice.internal.Failures;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.ClosedChannelException;

/**
 * A write handle of a shared pipe. A blocking write returns once every byte is in the ring; a write of at most
 * {@code PIPE_BUF} bytes is never split or interleaved, whichever process writes beside it; a nonblocking
 * write stores what fits (all or nothing up to {@code PIPE_BUF}). When every read handle in every process is
 * closed a write throws {@link dev.sluice.BrokenPipeException}.
 */
final class ShmWriteEnd extends ShmEnd implements WriteEnd {
    ShmWriteEnd(ShmPipe pipe, boolean open, Description description, long timeoutNanos) {
        super(pipe, open, description, timeoutNanos);
    }

    @Override
    boolean isRead() {
        return false;
    }

    @Override
    public int write(byte[] b, int off, int len) throws IOException {
        Checks.checkArray(b, off, len);
        return (int) write(Span.of(b, off, len));
    }

    @Override
    public int write(ByteBuffer src) throws IOException {
        Checks.checkWriteSource(src);
        return (int) write(Span.of(src));
    }

    @Override
    public long write(ByteBuffer[] srcs, int offset, int length) throws IOException {
        long total = Checks.checkBuffers(srcs, offset, length, false);
        return write(Span.of(srcs, offset, total));
    }

    private long write(Span src) throws IOException {
        if (src.remaining() == 0) {
            if (!isOpen()) {
                throw new ClosedChannelException();
            }
            return 0; // Linux: a null write returns 0 before looking for readers
        }
        enter();
        try {
            Deadline deadline = null;
            long done = 0;
            boolean packet = description().packetMode();
            for (boolean first = true;; first = false) {
                if (!isOpen()) {
                    if (done > 0) {
                        return done;
                    }
                    throw deadline == null ? new ClosedChannelException() : Failures.closedMeanwhile();
                }
                long n = pipe.ring.write(src, packet, first);
                if (n == Ring.BROKEN) {
                    throw Failures.broken(done);
                }
                done += n;
                if (src.remaining() == 0 || isNonBlocking()) {
                    pipe.countWrite(done);
                    return done;
                }
                if (deadline == null) {
                    deadline = deadline();
                }
                pipe.await(this, false, deadline, done, Failures.fullPipe("write"));
            }
        } finally {
            leave();
        }
    }

    @Override
    public void setPacketMode(boolean on) {
        if (isOpen()) { // a closed handle refers to no description any more (Linux: EBADF)
            description().setPacketMode(on);
        }
    }

    @Override
    public boolean isPacketMode() {
        return description().packetMode();
    }

    @Override
    public ShmWriteEnd dup() throws IOException {
        return another(description());
    }

    @Override
    public ShmWriteEnd reopen() throws IOException {
        return another(description().copy());
    }

    private ShmWriteEnd another(Description description) throws IOException {
        enter();
        try {
            ShmWriteEnd d = new ShmWriteEnd(pipe, true, description, timeoutNanos());
            pipe.handleOpened(d);
            return d;
        } finally {
            leave();
        }
    }
}
