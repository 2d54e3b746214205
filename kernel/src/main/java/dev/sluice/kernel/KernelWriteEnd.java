package dev.sluice.kernel;

import dev.sluice.internal.Checks;
import dev.sluice.internal.Deadline;
import dev.sluice.internal.Description;
import dev.sluice.internal.Failures;

import dev.sluice.WriteEnd;
import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;
import java.nio.channels.AsynchronousCloseException;
import java.util.Objects;

/**
 * A write descriptor of a kernel pipe; the contract is {@link WriteEnd}'s. Atomicity of writes of at most
 * {@code PIPE_BUF} bytes is the kernel's: an {@code O_NONBLOCK} write of that size stores all or nothing,
 * and a gathering write is one {@code writev(2)} (or one {@code write(2)} of a bounce buffer).
 *
 * <p>Packet mode is {@code O_DIRECT}, a flag of the open file description, as the {@link WriteEnd} contract
 * has it: {@link #dup()} shares the kernel's description ({@code F_DUPFD_CLOEXEC}) and the Java-side one,
 * and {@link #reopen()} opens a new description with the flag set as this one has it. The Java-side flag
 * follows the kernel's: both change together, under the Java-side description's monitor, so that handles
 * of one description never disagree about it.
 */
final class KernelWriteEnd extends KernelEnd implements WriteEnd {

    KernelWriteEnd(KernelPipe pipe, int fd, Description description, long timeoutNanos) {
        super(pipe, fd, LibC.EPOLLOUT, description, timeoutNanos);
    }

    @Override
    short pollEvents() {
        return LibC.POLLOUT;
    }

    @Override
    public int write(byte[] b, int off, int len) throws IOException {
        Checks.checkArray(b, off, len);
        return (int) writeLoop(ARRAY, b, off, len);
    }

    /** write(2) of the rest of {@code byte[] target}; see {@link KernelEnd.Attempt} for why it makes the segment. */
    private static final Attempt ARRAY = new Attempt() {
        @Override
        public long run(KernelEnd e, Object t, long off, long len, long done) {
            long left = len - done;
            return LibC.write(e.cell.fd, MemorySegment.ofArray((byte[]) t).asSlice(off + done, left), left);
        }
    };

    /** write(2) of {@code ByteBuffer target} from its position, moved at once (so an exception leaves it right). */
    private static final Attempt BUFFER = new Attempt() {
        @Override
        public long run(KernelEnd e, Object t, long off, long len, long done) {
            ByteBuffer src = (ByteBuffer) t;
            MemorySegment seg = MemorySegment.ofBuffer(src);
            long r = LibC.write(e.cell.fd, seg, seg.byteSize());
            if (r > 0) {
                src.position(src.position() + (int) r);
            }
            return r;
        }
    };

    @Override
    public int write(ByteBuffer src) throws IOException {
        Objects.requireNonNull(src, "source buffer is null");
        return (int) writeLoop(BUFFER, src, 0, src.remaining());
    }

    @Override
    public long write(ByteBuffer[] srcs, int offset, int length) throws IOException {
        long total = Checks.checkBuffers(srcs, offset, length, false);
        try (Arena arena = Arena.ofConfined()) {
            if (Buffers.iovecable(srcs, offset, length)) {
                MemorySegment iov = arena.allocate((long) Math.max(1, length) * LibC.IOVEC_SIZE, 8);
                return writeLoop((e, t, o, l, done) -> {
                    int n = Buffers.fillIovec(iov, srcs, offset, length); // rebuilt from the positions
                    long r = LibC.writev(cell.fd, iov, n);
                    if (r > 0) {
                        Buffers.advance(srcs, offset, length, r);
                    }
                    return r;
                }, null, 0, total);
            }
            MemorySegment bounce = Buffers.bounce(arena, total);
            return writeLoop((e, t, o, l, done) -> {
                long n = Buffers.gather(srcs, offset, length, bounce, bounce.byteSize());
                long r = LibC.write(cell.fd, bounce, n);
                if (r > 0) {
                    Buffers.advance(srcs, offset, length, r);
                }
                return r;
            }, null, 0, total);
        }
    }

    /**
     * The blocking-write skeleton: attempts until every byte is in the pipe, waiting on {@code EAGAIN};
     * nonblocking, one attempt. {@code attempt} gets the bytes stored so far and returns the call's result
     * or {@code -errno} ({@link KernelEnd.Attempt}).
     */
    private long writeLoop(Attempt attempt, Object target, long off, long total) throws IOException {
        cell.acquire();
        long done = 0;
        // Counted as the in-process pipe counts: not a 0-byte write, nor one closed or broken at once.
        boolean count = false;
        try {
            if (total == 0) {
                return 0; // Linux: a zero-length write returns 0 before looking at readers (no EPIPE)
            }
            Deadline deadline = null; // made at the first wait: a call that never waits reads no clock
            for (;;) {
                if (cell.isClosed()) {
                    // Closed by another thread during this call: the close came first, so store nothing more,
                    // and report what was stored (the partial count must not be lost in an exception).
                    handOnIfReady();
                    if (done == 0) {
                        throw new AsynchronousCloseException();
                    }
                    return done;
                }
                long r = attempt.run(this, target, off, total, done);
                count |= r != -LibC.EPIPE || deadline != null || done != 0;
                if (r >= 0) {
                    if (r > 0) {
                        pipe.stored(this); // before any wait below: readers must not wait for our return
                    }
                    done += r;
                    if (done >= total || isNonBlocking()) {
                        return done;
                    }
                    if (r == 0) {
                        continue;
                    }
                    // A nonblocking write stores all that fits, so a partial count means the pipe is full
                    // now: wait at once instead of a retry that would only return EAGAIN. (The wait polls
                    // once before parking, so room made meanwhile, or a broken pipe, is not missed.)
                    deadline = awaitRoom(deadline, done);
                    continue;
                }
                if (r == -LibC.EPIPE) {
                    throw Failures.broken(done);
                }
                if (r != -LibC.EAGAIN) {
                    throw failure("write: write(2)", -r);
                }
                if (isNonBlocking()) {
                    return done;
                }
                deadline = awaitRoom(deadline, done); // the loop's top sees a close
            }
        } finally {
            if (count) {
                pipe.countWrite(done);
            }
            cell.release();
        }
    }

    /** Waits for room, making the call's deadline at its first wait; @return the deadline */
    private Deadline awaitRoom(Deadline deadline, long done) throws IOException {
        Deadline d = deadline == null ? deadline() : deadline;
        await(d, done, "write to a full pipe");
        return d;
    }

    @Override
    public void setPacketMode(boolean on) {
        Description d = description();
        synchronized (d) { // the kernel's flag and the Java-side one change together (see the class comment)
            if (!cell.tryAcquire()) {
                return; // a closed handle refers to no description any more (Linux: EBADF); nothing changes
            }
            try {
                int fl = LibC.fcntl(cell.fd, LibC.F_GETFL, 0);
                // F_SETFL replaces the flags: keep O_NONBLOCK and the rest.
                int set = on ? fl | LibC.O_DIRECT : fl & ~LibC.O_DIRECT;
                int r = fl < 0 ? fl : LibC.fcntl(cell.fd, LibC.F_SETFL, set);
                if (r < 0) {
                    String call = fl < 0 ? "F_GETFL" : "F_SETFL";
                    throw new IllegalStateException("setPacketMode(" + on + "): fcntl(" + call + ") on " + this
                            + " failed: " + LibC.describe(-r));
                }
                d.setPacketMode(on);
            } finally {
                cell.release();
            }
        }
    }

    @Override
    public boolean isPacketMode() {
        return description().packetMode();
    }

    @Override
    public KernelWriteEnd dup() throws IOException {
        cell.acquire();
        try {
            KernelWriteEnd copy = new KernelWriteEnd(pipe, dupDescriptor(), description(), timeoutNanos());
            pipe.handleOpened(copy);
            return copy;
        } finally {
            cell.release();
        }
    }

    @Override
    public KernelWriteEnd reopen() throws IOException {
        cell.acquire();
        try {
            Description d = description();
            Description mode;
            int fd;
            synchronized (d) { // the copied flag and the new descriptor's O_DIRECT agree
                mode = d.copy();
                fd = reopenDescriptor(LibC.O_WRONLY, mode.packetMode());
            }
            KernelWriteEnd copy = new KernelWriteEnd(pipe, fd, mode, timeoutNanos());
            pipe.handleOpened(copy);
            return copy;
        } finally {
            cell.release();
        }
    }

    @Override
    public String toString() {
        return "KernelWriteEnd[fd " + cell.fd + (cell.isClosed() ? ", closed" : isNonBlocking() ? ", nonblocking" : "")
                + (isPacketMode() ? ", packet mode" : "") + "]";
    }
}
