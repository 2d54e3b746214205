package dev.sluice.kernel;

import dev.sluice.internal.Checks;
import dev.sluice.internal.Deadline;
import dev.sluice.internal.Failures;

import dev.sluice.WriteEnd;
import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;
import java.nio.channels.AsynchronousCloseException;
import java.util.Objects;
import java.util.function.LongUnaryOperator;

/**
 * A write descriptor of a kernel pipe; the contract is {@link WriteEnd}'s. Atomicity of writes of at most
 * {@code PIPE_BUF} bytes is the kernel's: an {@code O_NONBLOCK} write of that size stores all or nothing,
 * and a gathering write is one {@code writev(2)} (or one {@code write(2)} of a bounce buffer).
 *
 * <p>Packet mode is {@code O_DIRECT}, a flag of the open file description. So that each handle has its
 * own mode, as the contract asks, {@link #dup()} opens a new description of the same pipe through
 * {@code /proc/self/fd} instead of sharing one as {@code dup(2)} would.
 */
final class KernelWriteEnd extends KernelEnd implements WriteEnd {
    private volatile boolean packetMode;

    KernelWriteEnd(KernelPipe pipe, int fd, boolean nonBlocking, long timeoutNanos, boolean packetMode) {
        super(pipe, fd, LibC.EPOLLOUT, nonBlocking, timeoutNanos);
        this.packetMode = packetMode;
    }

    @Override
    short pollEvents() {
        return LibC.POLLOUT;
    }

    @Override
    public int write(byte[] b, int off, int len) throws IOException {
        Checks.checkArray(b, off, len);
        MemorySegment seg = MemorySegment.ofArray(b).asSlice(off, len);
        return (int) writeLoop(len, done -> LibC.write(cell.fd, seg.asSlice(done), len - done));
    }

    @Override
    public int write(ByteBuffer src) throws IOException {
        Objects.requireNonNull(src, "source buffer is null");
        MemorySegment seg = MemorySegment.ofBuffer(src);
        long len = seg.byteSize();
        return (int) writeLoop(len, done -> {
            long r = LibC.write(cell.fd, seg.asSlice(done), len - done);
            if (r > 0) {
                src.position(src.position() + (int) r); // moved at once, so an exception leaves it right
            }
            return r;
        });
    }

    @Override
    public long write(ByteBuffer[] srcs, int offset, int length) throws IOException {
        long total = Checks.checkBuffers(srcs, offset, length, false);
        try (Arena arena = Arena.ofConfined()) {
            if (Buffers.iovecable(srcs, offset, length)) {
                MemorySegment iov = arena.allocate((long) Math.max(1, length) * LibC.IOVEC_SIZE, 8);
                return writeLoop(total, done -> {
                    int n = Buffers.fillIovec(iov, srcs, offset, length); // rebuilt from the positions
                    long r = LibC.writev(cell.fd, iov, n);
                    if (r > 0) {
                        Buffers.advance(srcs, offset, length, r);
                    }
                    return r;
                });
            }
            MemorySegment bounce = Buffers.bounce(arena, total);
            return writeLoop(total, done -> {
                long n = Buffers.gather(srcs, offset, length, bounce, bounce.byteSize());
                long r = LibC.write(cell.fd, bounce, n);
                if (r > 0) {
                    Buffers.advance(srcs, offset, length, r);
                }
                return r;
            });
        }
    }

    /**
     * The blocking-write skeleton: attempts until every byte is in the pipe, waiting on {@code EAGAIN};
     * nonblocking, one attempt. {@code attempt} gets the bytes stored so far and returns the call's result
     * or {@code -errno}.
     */
    private long writeLoop(long total, LongUnaryOperator attempt) throws IOException {
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
                long r = attempt.applyAsLong(done);
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
        if (cell.tryAcquire()) {
            try {
                int fl = LibC.fcntl(cell.fd, LibC.F_GETFL, 0);
                if (fl >= 0) {
                    // F_SETFL replaces the flags: keep O_NONBLOCK and the rest.
                    int r = LibC.fcntl(cell.fd, LibC.F_SETFL, on ? fl | LibC.O_DIRECT : fl & ~LibC.O_DIRECT);
                    if (r < 0) {
                        throw new IllegalStateException("setPacketMode(" + on + "): fcntl(F_SETFL) on " + this
                                + " failed: " + LibC.describe(-r));
                    }
                }
            } finally {
                cell.release();
            }
        }
        this.packetMode = on;
    }

    @Override
    public boolean isPacketMode() {
        return packetMode;
    }

    @Override
    public KernelWriteEnd dup() throws IOException {
        cell.acquire();
        try {
            int fd;
            try (Arena arena = Arena.ofConfined()) {
                // A new open file description of the same pipe, so O_DIRECT stays per handle.
                // open(2) refuses O_DIRECT on a pipe (EINVAL), so packet mode is set afterwards with F_SETFL.
                int flags = LibC.O_WRONLY | LibC.O_NONBLOCK | LibC.O_CLOEXEC;
                fd = LibC.open(arena.allocateFrom("/proc/self/fd/" + cell.fd), flags, 0);
            }
            if (fd >= 0 && packetMode) {
                int r = LibC.fcntl(fd, LibC.F_SETFL, LibC.O_WRONLY | LibC.O_NONBLOCK | LibC.O_DIRECT);
                if (r < 0) {
                    LibC.close(fd);
                    throw failure("dup: fcntl(F_SETFL, O_DIRECT) for a new handle", -r);
                }
            }
            if (fd < 0) {
                // ENXIO: no reader is left (a FIFO open for writing needs one), or /proc is missing.
                // Share the description then: with no reader every write fails with EPIPE anyway.
                fd = LibC.fcntl(cell.fd, LibC.F_DUPFD_CLOEXEC, 0);
                if (fd < 0) {
                    throw failure("dup: fcntl(F_DUPFD_CLOEXEC)", -fd);
                }
            }
            KernelWriteEnd copy = new KernelWriteEnd(pipe, fd, isNonBlocking(), timeoutNanos(), packetMode);
            pipe.handleOpened(copy);
            return copy;
        } finally {
            cell.release();
        }
    }

    @Override
    public String toString() {
        return "KernelWriteEnd[fd " + cell.fd + (cell.isClosed() ? ", closed" : isNonBlocking() ? ", nonblocking" : "")
                + (packetMode ? ", packet mode" : "") + "]";
    }
}
