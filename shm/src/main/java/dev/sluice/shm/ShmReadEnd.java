package dev.sluice.shm;

import dev.sluice.internal.Description;
import dev.sluice.ReadEnd;
import dev.sluice.internal.Checks;
import dev.sluice.internal.Deadline;
import dev.sluice.internal.Failures;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.ClosedChannelException;

/**
 * A read handle of a shared pipe. A read takes what is queued (never waiting once it has a byte), returns -1
 * once every write handle in every process is closed and the ring is empty, and 0 when nonblocking and empty.
 */
final class ShmReadEnd extends ShmEnd implements ReadEnd {

    ShmReadEnd(ShmPipe pipe, boolean open, Description description, long timeoutNanos) {
        super(pipe, open, description, timeoutNanos);
    }

    @Override
    boolean isRead() {
        return true;
    }

    @Override
    public int read(byte[] b, int off, int len) throws IOException {
        Checks.checkArray(b, off, len);
        return (int) read(Span.of(b, off, len));
    }

    @Override
    public int read(ByteBuffer dst) throws IOException {
        Checks.checkReadTarget(dst);
        return (int) read(Span.of(dst));
    }

    @Override
    public long read(ByteBuffer[] dsts, int offset, int length) throws IOException {
        long total = Checks.checkBuffers(dsts, offset, length, true);
        return read(Span.of(dsts, offset, total));
    }

    private long read(Span dst) throws IOException {
        if (dst.remaining() == 0) {
            if (!isOpen()) {
                throw new ClosedChannelException();
            }
            return 0; // Linux: a zero-length read returns 0 at once
        }
        enter();
        try {
            Deadline deadline = null;
            for (;;) {
                if (!isOpen()) {
                    throw deadline == null ? new ClosedChannelException() : Failures.closedMeanwhile();
                }
                long n = pipe.ring.read(dst);
                if (n != 0 || isNonBlocking()) {
                    pipe.countRead(n);
                    return n;
                }
                if (deadline == null) {
                    deadline = deadline();
                }
                pipe.await(this, true, deadline, 0, Failures.emptyPipe("read"));
            }
        } finally {
            leave();
        }
    }

    @Override
    public int available() throws IOException {
        enter();
        try {
            return (int) Math.min(Integer.MAX_VALUE, pipe.ring.queued());
        } finally {
            leave();
        }
    }

    @Override
    public ShmReadEnd dup() throws IOException {
        return another(description());
    }

    @Override
    public ShmReadEnd reopen() throws IOException {
        return another(description().copy());
    }

    private ShmReadEnd another(Description description) throws IOException {
        enter();
        try {
            ShmReadEnd d = new ShmReadEnd(pipe, true, description, timeoutNanos());
            pipe.handleOpened(d);
            return d;
        } finally {
            leave();
        }
    }
}
