package dev.sluice.kernel;

import dev.sluice.internal.Checks;
import dev.sluice.internal.Deadline;
import dev.sluice.internal.Description;

import dev.sluice.ReadEnd;
import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;
import java.nio.channels.AsynchronousCloseException;
import java.util.Objects;

/**
 * A read descriptor of a kernel pipe; the contract is {@link ReadEnd}'s. {@code read(2)} and
 * {@code readv(2)} on an {@code O_NONBLOCK} descriptor, waiting through the poller on {@code EAGAIN}
 * unless this handle is nonblocking.
 */
final class KernelReadEnd extends KernelEnd implements ReadEnd {

    KernelReadEnd(KernelPipe pipe, int fd, Description description, long timeoutNanos) {
        super(pipe, fd, LibC.EPOLLIN, description, timeoutNanos);
    }

    @Override
    short pollEvents() {
        return LibC.POLLIN;
    }

    @Override
    public int read(byte[] b, int off, int len) throws IOException {
        Checks.checkArray(b, off, len);
        return (int) readLoop(ARRAY, b, off, len);
    }

    /** read(2) into {@code byte[] target}; see {@link KernelEnd.Attempt} for why the segment is made here. */
    private static final Attempt ARRAY = new Attempt() {
        @Override
        public long run(KernelEnd e, Object t, long off, long len, long done) {
            return LibC.read(e.cell.fd, MemorySegment.ofArray((byte[]) t).asSlice(off, len), len);
        }
    };

    /** read(2) into {@code ByteBuffer target}, heap or direct, from its position. */
    private static final Attempt BUFFER = new Attempt() {
        @Override
        public long run(KernelEnd e, Object t, long off, long len, long done) {
            return LibC.read(e.cell.fd, MemorySegment.ofBuffer((ByteBuffer) t), len);
        }
    };

    @Override
    public int read(ByteBuffer dst) throws IOException {
        Objects.requireNonNull(dst, "destination buffer is null");
        if (dst.isReadOnly()) {
            throw new IllegalArgumentException("cannot read into a read-only buffer");
        }
        int n = (int) readLoop(BUFFER, dst, 0, dst.remaining());
        if (n > 0) {
            dst.position(dst.position() + n);
        }
        return n;
    }

    @Override
    public long read(ByteBuffer[] dsts, int offset, int length) throws IOException {
        long total = Checks.checkBuffers(dsts, offset, length, true);
        if (Buffers.iovecable(dsts, offset, length)) {
            try (Arena arena = Arena.ofConfined()) {
                MemorySegment iov = arena.allocate((long) Math.max(1, length) * LibC.IOVEC_SIZE, 8);
                int n = Buffers.fillIovec(iov, dsts, offset, length);
                long r = readLoop((e, t, o, l, d) -> LibC.readv(cell.fd, iov, n), null, 0, total);
                if (r > 0) {
                    Buffers.advance(dsts, offset, length, r);
                }
                return r;
            }
        }
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment bounce = Buffers.bounce(arena, total);
            long r = readLoop((e, t, o, l, d) -> LibC.read(cell.fd, bounce, l), null, 0, total);
            if (r > 0) {
                Buffers.scatter(bounce, r, dsts, offset, length);
            }
            return r;
        }
    }

    /**
     * The blocking-read skeleton: one attempt, and on {@code EAGAIN} a wait and another attempt, as
     * {@code pipe_read} loops. A read only ever waits while it has read nothing.
     */
    private long readLoop(Attempt attempt, Object target, long off, long len) throws IOException {
        cell.acquire();
        long got = 0;
        boolean count = false; // counted as the in-process pipe counts: not a 0-byte read, nor one closed at once
        try {
            if (len == 0) {
                return 0;
            }
            Deadline deadline = null; // made at the first wait: a call that never waits reads no clock
            for (;;) {
                if (cell.isClosed()) {
                    handOnIfReady();
                    throw new AsynchronousCloseException(); // closed by another thread during this call
                }
                count = true;
                long r = attempt.run(this, target, off, len, 0);
                if (r > 0) {
                    got = r;
                    pipe.consumed(this);
                    return r;
                }
                if (r == 0) {
                    return -1; // every write descriptor is closed and the pipe is empty
                }
                if (r != -LibC.EAGAIN) {
                    throw failure("read: read(2)", -r);
                }
                if (isNonBlocking()) {
                    return 0;
                }
                if (deadline == null) {
                    deadline = deadline();
                }
                await(deadline, 0, "read from an empty pipe"); // the loop's top sees a close
            }
        } finally {
            if (count) {
                pipe.countRead(got);
            }
            cell.release();
        }
    }

    @Override
    public int available() throws IOException {
        cell.acquire();
        try {
            int n = LibC.fionread(cell.fd);
            if (n < 0) {
                throw failure("available: ioctl(FIONREAD)", -n);
            }
            return n;
        } finally {
            cell.release();
        }
    }

    @Override
    public KernelReadEnd dup() throws IOException {
        cell.acquire();
        try {
            KernelReadEnd copy = new KernelReadEnd(pipe, dupDescriptor(), description(), timeoutNanos());
            pipe.handleOpened(copy);
            return copy;
        } finally {
            cell.release();
        }
    }

    @Override
    public KernelReadEnd reopen() throws IOException {
        cell.acquire();
        try {
            int fd = reopenDescriptor(LibC.O_RDONLY, false);
            KernelReadEnd copy = new KernelReadEnd(pipe, fd, description().copy(), timeoutNanos());
            pipe.handleOpened(copy);
            return copy;
        } finally {
            cell.release();
        }
    }

    @Override
    public String toString() {
        return "KernelReadEnd[fd " + cell.fd + (cell.isClosed() ? ", closed" : isNonBlocking() ? ", nonblocking" : "")
                + "]";
    }
}
