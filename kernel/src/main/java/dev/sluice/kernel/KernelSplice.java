package dev.sluice.kernel;

import dev.sluice.internal.Deadline;
import dev.sluice.internal.Failures;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

import dev.sluice.BrokenPipeException;
import dev.sluice.PartialTransferException;
import dev.sluice.ReadEnd;
import dev.sluice.WriteEnd;
import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.channels.AsynchronousCloseException;
import java.nio.channels.IllegalBlockingModeException;
import java.util.Objects;
import java.util.Set;
import java.util.function.Supplier;

/**
 * Zero-copy moves between kernel pipes, files and sockets: {@code splice(2)}, {@code tee(2)} and
 * {@code vmsplice(2)}. The bytes never pass through Java memory.
 *
 * <pre>{@code
 * try (KernelFile out = KernelFile.open(Path.of("out.bin"), WRITE, CREATE, TRUNCATE_EXISTING)) {
 *     long n = KernelSplice.drain(pipe.reader(), out);            // pipe -> file until end-of-stream
 * }
 * }</pre>
 *
 * <p><b>Results.</b> Like {@link ReadEnd#read}: the bytes moved; -1 when the source is at end-of-stream
 * (a pipe with no writer left and nothing queued, or the end of a file); 0 only when the call would have
 * to wait and may not (the pipe handle is nonblocking, or {@link Flag#NONBLOCK} is given). Otherwise a call
 * waits, as a read or write on the pipe handle would (interrupts, timeouts and {@code close()} of the
 * handle end the wait the same way), and returns as soon as it moved something: like {@code splice(2)},
 * one call moves at most what the pipe holds or has room for; the {@code drain}/{@code fill} helpers loop.
 *
 * <p><b>Errors.</b> Both arguments must be this module's handles ({@link KernelPipe} ends,
 * {@link KernelFile}); a closed handle gives {@link java.nio.channels.ClosedChannelException}; a
 * negative length or offset, or splicing or teeing a pipe into itself ({@code EINVAL} in Linux), gives
 * {@link IllegalArgumentException} before any system call; a broken destination pipe gives
 * {@link BrokenPipeException}; other failures (a read-only file as the target: {@code EBADF}) an
 * {@link IOException} naming the errno. A failed call moves nothing; a failed {@code drain} or {@code fill}
 * reports in its exception what its earlier rounds moved (see {@link #drain(ReadEnd, KernelFile)}).
 */
public final class KernelSplice {
    private KernelSplice() {
    }

    /** The {@code SPLICE_F_*} flags. */
    public enum Flag {
        /** {@code SPLICE_F_MOVE}: move pages instead of copying (a hint; the kernel mostly ignores it). */
        MOVE(1),
        /** {@code SPLICE_F_NONBLOCK}: do not wait; return 0 when the call would have to. */
        NONBLOCK(2),
        /** {@code SPLICE_F_MORE}: more data follows (a hint to sockets, like {@code MSG_MORE}). */
        MORE(4),
        /** {@code SPLICE_F_GIFT} (vmsplice only): the pages are a gift; see {@link #vmsplice}. */
        GIFT(8);

        final int bits;

        Flag(int bits) {
            this.bits = bits;
        }
    }

    private static int bits(Set<Flag> flags) {
        Objects.requireNonNull(flags, "flags is null (use Set.of() or EnumSet.noneOf(KernelSplice.Flag.class))");
        int b = 0;
        for (Flag f : flags) {
            b |= f.bits;
        }
        return b;
    }

    private static KernelReadEnd kernel(ReadEnd e) {
        Objects.requireNonNull(e, "pipe end is null");
        if (e instanceof KernelReadEnd k) {
            return k;
        }
        throw new IllegalArgumentException("not a kernel pipe end: " + e + " (splice needs a KernelPipe)");
    }

    private static KernelWriteEnd kernel(WriteEnd e) {
        Objects.requireNonNull(e, "pipe end is null");
        if (e instanceof KernelWriteEnd k) {
            return k;
        }
        throw new IllegalArgumentException("not a kernel pipe end: " + e + " (splice needs a KernelPipe)");
    }

    private static void checkLength(long len) {
        if (len < 0) {
            throw new IllegalArgumentException("length must not be negative, was " + len);
        }
    }

    private static void checkOffset(long offset) {
        if (offset < 0) {
            throw new IllegalArgumentException("offset must not be negative, was " + offset);
        }
    }

    // ---- splice -------------------------------------------------------------------------------------

    /**
     * Moves up to {@code len} bytes from a pipe into a file at its current position (which advances) or
     * into a socket.
     *
     * @param from  the pipe's read end
     * @param to    the file or socket
     * @param len   most bytes to move
     * @param flags {@code SPLICE_F_*}
     * @return bytes moved, -1 at end-of-stream, 0 if it would wait and may not
     * @throws IOException see the class documentation
     */
    public static long splice(ReadEnd from, KernelFile to, long len, Set<Flag> flags) throws IOException {
        return pipeToFile(kernel(from), to, -1, len, bits(flags));
    }

    /**
     * Moves up to {@code len} bytes from a pipe into a file at {@code offset}, like {@code pwrite}: the
     * file's position does not change.
     *
     * @param from   the pipe's read end
     * @param to     the file
     * @param offset where in the file to write
     * @param len    most bytes to move
     * @param flags  {@code SPLICE_F_*}
     * @return bytes moved, -1 at end-of-stream, 0 if it would wait and may not
     * @throws IOException see the class documentation
     */
    public static long splice(ReadEnd from, KernelFile to, long offset, long len, Set<Flag> flags) throws IOException {
        checkOffset(offset);
        return pipeToFile(kernel(from), to, offset, len, bits(flags));
    }

    /**
     * Moves up to {@code len} bytes from a file at its current position (which advances), or from a
     * socket, into a pipe.
     *
     * @param from  the file or socket
     * @param to    the pipe's write end
     * @param len   most bytes to move
     * @param flags {@code SPLICE_F_*}
     * @return bytes moved, -1 at end of file, 0 if it would wait and may not
     * @throws IOException see the class documentation
     */
    public static long splice(KernelFile from, WriteEnd to, long len, Set<Flag> flags) throws IOException {
        return fileToPipe(from, -1, kernel(to), len, bits(flags));
    }

    /**
     * Moves up to {@code len} bytes from a file at {@code offset} into a pipe, like {@code pread}: the
     * file's position does not change.
     *
     * @param from   the file
     * @param offset where in the file to read
     * @param to     the pipe's write end
     * @param len    most bytes to move
     * @param flags  {@code SPLICE_F_*}
     * @return bytes moved, -1 at end of file, 0 if it would wait and may not
     * @throws IOException see the class documentation
     */
    public static long splice(KernelFile from, long offset, WriteEnd to, long len, Set<Flag> flags) throws IOException {
        checkOffset(offset);
        return fileToPipe(from, offset, kernel(to), len, bits(flags));
    }

    /**
     * Moves up to {@code len} bytes from one pipe into another, without copying the data.
     *
     * @param from  the source pipe's read end
     * @param to    the destination pipe's write end (of another pipe)
     * @param len   most bytes to move
     * @param flags {@code SPLICE_F_*}
     * @return bytes moved, -1 at end-of-stream, 0 if it would wait and may not
     * @throws IOException see the class documentation
     */
    public static long splice(ReadEnd from, WriteEnd to, long len, Set<Flag> flags) throws IOException {
        KernelReadEnd in = kernel(from);
        KernelWriteEnd out = kernel(to);
        checkLength(len);
        if (in.pipe == out.pipe) {
            throw new IllegalArgumentException("cannot splice a pipe into itself (Linux: EINVAL)");
        }
        int f = bits(flags);
        return pipeToPipe(in, out, len, f, false);
    }

    /**
     * Copies up to {@code len} bytes from one pipe into another without consuming them: the source keeps
     * its data ({@code tee(2)}). Waits, as {@link #splice(ReadEnd, WriteEnd, long, Set)} does, for data in
     * the source and room in the destination.
     *
     * @param from  the source pipe's read end
     * @param to    the destination pipe's write end (of another pipe)
     * @param len   most bytes to copy
     * @param flags {@code SPLICE_F_*}
     * @return bytes copied, -1 at end-of-stream, 0 if it would wait and may not
     * @throws IOException see the class documentation
     */
    public static long tee(ReadEnd from, WriteEnd to, long len, Set<Flag> flags) throws IOException {
        KernelReadEnd in = kernel(from);
        KernelWriteEnd out = kernel(to);
        checkLength(len);
        if (in.pipe == out.pipe) {
            throw new IllegalArgumentException("cannot tee a pipe into itself (Linux: EINVAL)");
        }
        return pipeToPipe(in, out, len, bits(flags), true);
    }

    /**
     * Maps the pages of native memory into a pipe ({@code vmsplice(2)}): the pipe then
     * <em>references</em> that memory rather than holding a copy. <b>The page-gift rule:</b> the memory
     * must not be changed, and its arena must stay open, until the reader has consumed those bytes; a
     * change made earlier is what the reader gets, and memory freed earlier is undefined behaviour (the
     * pipe would hand the reader whatever the allocator puts there next). So the segment must come from
     * an arena that outlives the reader's reads ({@link Arena#ofShared()}, {@link Arena#ofAuto()} kept
     * reachable, or {@link Arena#global()}); one whose arena is already closed, or that is confined to
     * another thread, is refused. With {@link Flag#GIFT} the pages are given away for good (the segment
     * should be page-aligned and a whole number of pages, and never touched again). Waits for room unless
     * the handle is nonblocking or {@link Flag#NONBLOCK} is given; returns when the whole segment is in
     * the pipe (blocking) or with what fit (nonblocking). If another thread closes the segment's arena
     * during a wait, the call returns what it mapped so far (or throws, if nothing).
     *
     * @param src   native memory (a heap segment is refused)
     * @param to    the pipe's write end
     * @param flags {@code SPLICE_F_*}
     * @return bytes mapped into the pipe
     * @throws IllegalArgumentException if {@code src} is a heap segment
     * @throws IllegalStateException    if the arena of {@code src} is closed
     * @throws WrongThreadException     if {@code src} is confined to another thread
     * @throws IOException              see the class documentation
     */
    public static long vmsplice(MemorySegment src, WriteEnd to, Set<Flag> flags) throws IOException {
        Objects.requireNonNull(src, "segment is null");
        KernelWriteEnd out = kernel(to);
        if (!src.isNative()) {
            throw new IllegalArgumentException("vmsplice needs native memory (an Arena's segment), not a heap "
                    + "segment");
        }
        checkAlive(src);
        if (!src.isAccessibleBy(Thread.currentThread())) {
            throw new WrongThreadException("vmsplice of a segment confined to another thread: only its owner may "
                    + "use it, and that thread may free it at any time (use Arena.ofShared() for memory given to "
                    + "a pipe)");
        }
        int f = bits(flags);
        boolean mayWait = (f & Flag.NONBLOCK.bits) == 0 && !out.isNonBlocking();
        out.cell.acquire();
        long done = 0;
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment iov = arena.allocate(LibC.IOVEC_SIZE, 8);
            long total = src.byteSize();
            Deadline deadline = out.deadline();
            while (done < total) {
                if (done > 0 && !src.scope().isAlive()) {
                    break; // closed by another thread meanwhile: what is mapped stays, nothing more
                }
                checkAlive(src);
                if (out.cell.isClosed()) {
                    out.handOnIfReady();
                    if (done == 0) {
                        throw new AsynchronousCloseException();
                    }
                    break;
                }
                iov.set(ADDRESS, 0, src.asSlice(done));
                iov.set(JAVA_LONG, 8, total - done);
                long r = LibC.vmsplice(out.fd(), iov, 1, f);
                if (r > 0) {
                    done += r;
                    out.pipe.stored(out);
                    continue;
                }
                if (r == -LibC.EPIPE) {
                    throw Failures.broken(done);
                }
                if (r != -LibC.EAGAIN && r != 0) {
                    throw new IOException("vmsplice into " + out + " failed: " + LibC.describe((int) -r)
                            + (done > 0 ? " after " + done + " bytes" : ""));
                }
                if (!mayWait) {
                    break;
                }
                out.await(deadline, done, "vmsplice into a full pipe");
            }
            return done;
        } finally {
            out.pipe.countWrite(done);
            out.cell.release();
        }
    }

    private static void checkAlive(MemorySegment src) {
        if (!src.scope().isAlive()) {
            throw new IllegalStateException("vmsplice of a segment whose arena is closed: the pipe would reference "
                    + "freed memory");
        }
    }

    // ---- loops over whole streams -------------------------------------------------------------------

    /**
     * Moves everything from a pipe into a file (at its position) or socket until end-of-stream: how a
     * child process's output goes to a file without passing through Java.
     *
     * <p><b>Stopping part way.</b> Each round is one {@link #splice(ReadEnd, KernelFile, long, Set) splice};
     * when a round fails after earlier ones moved bytes, the exception reports them all, as a single call's
     * would: an interrupt, a timeout or a broken pipe keeps its type, and its {@code bytesTransferred()} is
     * the loop's total; any other failure (the handle closed by another thread,
     * set nonblocking meanwhile, an errno such as {@code ENOSPC}) becomes a {@link PartialTransferException}
     * with that total and the original as its cause. With nothing moved, the round's own exception is thrown
     * unchanged. The bytes reported are in the file; none is lost, the rest are still in the pipe.
     *
     * @param from the pipe's read end, in blocking mode
     * @param to   the file or socket
     * @return bytes moved
     * @throws IllegalBlockingModeException if {@code from} is nonblocking (checked before anything moves), or
     *                                      is set so by another thread before the first byte moved
     * @throws PartialTransferException     if a round failed after some bytes moved (see above)
     * @throws IOException                  see the class documentation, with the loop's total as above
     */
    public static long drain(ReadEnd from, KernelFile to) throws IOException {
        requireBlocking(kernel(from));
        Supplier<String> loop = () -> "drain from " + from + " to " + to;
        long total = 0;
        for (long n; (n = round(() -> splice(from, to, 1 << 20, Set.of()), total, loop)) != -1; ) {
            total += n;
        }
        return total;
    }

    /** Loops that run to end-of-stream need a handle that waits: refused first, before any byte moves. */
    private static void requireBlocking(KernelEnd e) {
        if (e.isNonBlocking()) {
            throw new IllegalBlockingModeException();
        }
    }

    /**
     * Moves everything from one pipe into another until end-of-stream. Stopping part way reports every byte
     * moved, as {@link #drain(ReadEnd, KernelFile)} says; the bytes reported are in the destination pipe.
     *
     * @param from the source pipe's read end, in blocking mode
     * @param to   the destination pipe's write end, in blocking mode
     * @return bytes moved
     * @throws IllegalBlockingModeException if either end is nonblocking (checked before anything moves), or
     *                                      is set so by another thread before the first byte moved
     * @throws PartialTransferException     if a round failed after some bytes moved
     * @throws IOException                  see the class documentation, with the loop's total
     */
    public static long drain(ReadEnd from, WriteEnd to) throws IOException {
        requireBlocking(kernel(from));
        requireBlocking(kernel(to));
        Supplier<String> loop = () -> "drain from " + from + " to " + to;
        long total = 0;
        for (long n; (n = round(() -> splice(from, to, 1 << 20, Set.of()), total, loop)) != -1; ) {
            total += n;
        }
        return total;
    }

    /**
     * Moves {@code len} bytes (or up to end of file) from a file at its position, or a socket, into a pipe.
     * Stopping part way reports every byte moved, as {@link #drain(ReadEnd, KernelFile)} says; the bytes
     * reported are in the pipe and the file's position is past them.
     *
     * @param from the file or socket
     * @param to   the pipe's write end, in blocking mode
     * @param len  bytes to move
     * @return bytes moved: {@code len}, or fewer at end of file
     * @throws IllegalBlockingModeException if {@code to} is nonblocking (checked before anything moves), or
     *                                      is set so by another thread before the first byte moved
     * @throws PartialTransferException     if a round failed after some bytes moved
     * @throws IOException                  see the class documentation, with the loop's total
     */
    public static long fill(KernelFile from, WriteEnd to, long len) throws IOException {
        checkLength(len);
        requireBlocking(kernel(to));
        Supplier<String> loop = () -> "fill from " + from + " to " + to;
        long total = 0;
        while (total < len) {
            long want = len - total;
            long n = round(() -> splice(from, to, want, Set.of()), total, loop);
            if (n == -1) {
                break;
            }
            total += n;
        }
        return total;
    }

    /** One splice of a whole-stream loop, which waits: 0 bytes would mean it may not. */
    private interface Round {
        long splice() throws IOException;
    }

    /**
     * Runs one round of a loop that has moved {@code total} bytes so far.
     *
     * @return the round's count, or -1 at end-of-stream
     * @throws IllegalBlockingModeException if a handle was set nonblocking by another thread meanwhile (the
     *                                      round returned 0) before any byte moved
     * @throws IOException                  the round's failure, with the total ({@link #stoppedPartWay})
     */
    private static long round(Round round, long total, Supplier<String> loop) throws IOException {
        long n;
        try {
            n = round.splice();
        } catch (IOException e) {
            throw stoppedPartWay(e, total, loop.get());
        }
        if (n == 0) {
            IllegalBlockingModeException e = new IllegalBlockingModeException();
            if (total == 0) {
                throw e; // nothing moved: as if refused at the start
            }
            // An unchecked exception cannot carry the count, and the caller must learn what moved.
            throw new PartialTransferException(loop.get() + " stopped after " + total
                    + " bytes: a handle was set nonblocking by another thread meanwhile", total, e);
        }
        return n;
    }

    /**
     * What a whole-stream loop throws when a round fails after {@code total} bytes: the round's own exception
     * if nothing moved; else one whose {@code bytesTransferred()} is the total (a failed splice moves nothing),
     * an interrupt, a timeout and a broken pipe keeping their types ({@link Failures#partly}).
     */
    private static IOException stoppedPartWay(IOException e, long total, String loop) {
        return Failures.partly(e, total, loop + " stopped after " + total + " bytes: "
                + (e.getMessage() != null ? e.getMessage() : e.getClass().getSimpleName()));
    }

    // ---- the system-call loops ----------------------------------------------------------------------

    private static long pipeToFile(KernelReadEnd in, KernelFile to, long offset, long len, int flags)
            throws IOException {
        Objects.requireNonNull(to, "file is null");
        checkLength(len);
        in.cell.acquire();
        try {
            to.cell.acquire();
            try (Arena arena = Arena.ofConfined()) {
                MemorySegment off = offset < 0 ? MemorySegment.NULL : arena.allocateFrom(JAVA_LONG, offset);
                boolean mayWait = (flags & Flag.NONBLOCK.bits) == 0 && !in.isNonBlocking();
                Deadline deadline = in.deadline();
                for (;;) {
                    closedCheck(in);
                    if (len == 0) {
                        return 0;
                    }
                    long r = LibC.splice(in.fd(), MemorySegment.NULL, to.cell.fd, off, len, flags);
                    if (r > 0) {
                        in.pipe.countRead(r);
                        in.pipe.consumed(in);
                        return r;
                    }
                    if (r == 0) {
                        return -1;
                    }
                    if (r == -LibC.EPIPE) {
                        throw new BrokenPipeException("broken pipe: the socket's peer is closed", 0);
                    }
                    if (r != -LibC.EAGAIN) {
                        throw failure("splice from " + in + " to " + to, r);
                    }
                    if (!mayWait) {
                        return 0;
                    }
                    // Which side is not ready? The pipe (empty) or, for a socket, the socket (full).
                    if (to.socket && (LibC.pollNow(in.fd(), LibC.POLLIN) & (LibC.POLLIN | LibC.POLLHUP)) != 0) {
                        awaitOther(to.cell, LibC.EPOLLOUT, deadline, "splice into a full socket");
                    } else {
                        in.await(deadline, 0, "splice from an empty pipe");
                    }
                }
            } finally {
                to.cell.release();
            }
        } finally {
            in.cell.release();
        }
    }

    private static long fileToPipe(KernelFile from, long offset, KernelWriteEnd out, long len, int flags)
            throws IOException {
        Objects.requireNonNull(from, "file is null");
        checkLength(len);
        out.cell.acquire();
        long moved = 0;
        try {
            from.cell.acquire();
            try (Arena arena = Arena.ofConfined()) {
                MemorySegment off = offset < 0 ? MemorySegment.NULL : arena.allocateFrom(JAVA_LONG, offset);
                boolean mayWait = (flags & Flag.NONBLOCK.bits) == 0 && !out.isNonBlocking();
                Deadline deadline = out.deadline();
                for (;;) {
                    closedCheck(out);
                    if (len == 0) {
                        return 0;
                    }
                    long r = LibC.splice(from.cell.fd, off, out.fd(), MemorySegment.NULL, len, flags);
                    if (r > 0) {
                        moved = r;
                        out.pipe.stored(out);
                        return r;
                    }
                    if (r == 0) {
                        return -1;
                    }
                    if (r == -LibC.EPIPE) {
                        throw Failures.broken(0);
                    }
                    if (r != -LibC.EAGAIN) {
                        throw failure("splice from " + from + " to " + out, r);
                    }
                    if (!mayWait) {
                        return 0;
                    }
                    if (from.socket && (LibC.pollNow(out.fd(), LibC.POLLOUT) & (LibC.POLLOUT | LibC.POLLERR)) != 0) {
                        awaitOther(from.cell, LibC.EPOLLIN, deadline, "splice from an empty socket");
                    } else {
                        out.await(deadline, 0, "splice into a full pipe");
                    }
                }
            } finally {
                from.cell.release();
            }
        } finally {
            out.pipe.countWrite(moved);
            out.cell.release();
        }
    }

    private static long pipeToPipe(KernelReadEnd in, KernelWriteEnd out, long len, int flags, boolean tee)
            throws IOException {
        in.cell.acquire();
        long moved = 0;
        try {
            out.cell.acquire();
            try {
                boolean mayWait = (flags & Flag.NONBLOCK.bits) == 0 && !in.isNonBlocking() && !out.isNonBlocking();
                Deadline dataDeadline = in.deadline();
                Deadline roomDeadline = out.deadline();
                for (;;) {
                    closedCheck(in);
                    closedCheck(out);
                    if (len == 0) {
                        return 0;
                    }
                    long r = tee ? LibC.tee(in.fd(), out.fd(), len, flags)
                            : LibC.splice(in.fd(), MemorySegment.NULL, out.fd(), MemorySegment.NULL, len, flags);
                    if (r > 0) {
                        moved = r;
                        if (!tee) {
                            in.pipe.countRead(r);
                            in.pipe.consumed(in);
                        }
                        out.pipe.stored(out);
                        return r;
                    }
                    if (r == 0) {
                        return -1;
                    }
                    if (r == -LibC.EPIPE) {
                        throw new BrokenPipeException("broken pipe: every read end of the destination is closed", 0);
                    }
                    if (r != -LibC.EAGAIN) {
                        throw failure((tee ? "tee" : "splice") + " from " + in + " to " + out, r);
                    }
                    if (!mayWait) {
                        return 0;
                    }
                    int rev = LibC.pollNow(in.fd(), LibC.POLLIN);
                    if ((rev & (LibC.POLLIN | LibC.POLLHUP)) == 0) {
                        in.await(dataDeadline, 0, (tee ? "tee" : "splice") + " from an empty pipe");
                    } else {
                        out.await(roomDeadline, 0, (tee ? "tee" : "splice") + " into a full pipe");
                    }
                }
            } finally {
                out.cell.release();
            }
        } finally {
            out.pipe.countWrite(moved);
            in.cell.release();
        }
    }

    private static void closedCheck(KernelEnd e) throws AsynchronousCloseException {
        if (e.cell.isClosed()) {
            e.handOnIfReady(); // a wake-up meant for this call must reach another waiter
            throw new AsynchronousCloseException();
        }
    }

    /** Waits for a socket, with the pipe end's interrupt and timeout rules (its {@code deadline}). */
    private static void awaitOther(FdCell other, int events, Deadline deadline, String what) throws IOException {
        if (Thread.currentThread().isInterrupted()) {
            throw Failures.interrupted(what, 0);
        }
        if (deadline.expired()) {
            throw Failures.timedOut(what, 0);
        }
        other.park(deadline.nanos(), events);
    }

    private static IOException failure(String what, long r) {
        int errno = (int) -r;
        String hint = switch (errno) {
            case LibC.EBADF -> " (is the file open for the direction spliced? a read-only file cannot be a target)";
            case LibC.EINVAL -> " (does the file support splice? is it opened with O_APPEND as a target?)";
            case LibC.ESPIPE -> " (an offset was given for a descriptor that cannot seek)";
            default -> "";
        };
        return new IOException(what + " failed: " + LibC.describe(errno) + hint);
    }
}
