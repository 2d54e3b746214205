package dev.sluice.kernel;

import dev.sluice.Readiness;
import dev.sluice.internal.Deadline;
import dev.sluice.internal.Description;
import dev.sluice.internal.EndBase;
import dev.sluice.internal.Failures;
import java.io.IOException;
import java.lang.foreign.Arena;
import java.nio.channels.ClosedChannelException;
import java.util.concurrent.CompletableFuture;

/**
 * What the kernel read and write handles share: one descriptor of the pipe ({@link FdCell}), the Java side
 * of its open file description ({@link Description}), and the blocking-call skeleton.
 *
 * <p>The descriptor itself is always {@code O_NONBLOCK}; "blocking" is a flag of the Java-side description.
 * A {@link #dup()} shares both halves: its descriptor comes from {@code F_DUPFD_CLOEXEC}, so it refers to the
 * same kernel description (the same {@code O_NONBLOCK}, always set, and {@code O_DIRECT}), and its handle to
 * the same {@link Description}. A {@link #reopen()} opens a new kernel description through
 * {@code /proc/self/fd} and gets a copy of the Java-side one. A blocking call
 * tries the system call, and on {@code EAGAIN} waits through {@link FdCell#park} (the JVM-wide poller
 * unparks it) and tries again. Interrupts, timeouts and {@link #close()} end the wait the way they end any
 * parked thread's.
 */
abstract sealed class KernelEnd extends EndBase permits KernelReadEnd, KernelWriteEnd {
    static final Readiness INVALID = Readiness.ofLinuxPollMask(0x20); // POLLNVAL

    final KernelPipe pipe;
    final FdCell cell;
    /**
     * The recheck of an unexported pipe's wait, made once per handle rather than once per wait. (Classes,
     * not lambdas, for this and the attempts: a handle is made when the first pipe opens; see {@link LibC}.)
     */
    private final java.util.function.BooleanSupplier readyOrExported = new java.util.function.BooleanSupplier() {
        @Override
        public boolean getAsBoolean() {
            return pipe.exported || readyNow();
        }
    };

    /**
     * One system call of a blocking call: {@code target} is the caller's array or buffer, {@code off} and
     * {@code len} its range, {@code done} the bytes moved so far; returns the result or {@code -errno}. The
     * hot ones are constants that capture nothing and make their memory segment inside, where the JIT can
     * keep it off the heap (a segment or lambda made by the caller escaped into the loop: 96 B per call).
     */
    @FunctionalInterface
    interface Attempt {
        long run(KernelEnd end, Object target, long off, long len, long done);
    }

    KernelEnd(KernelPipe pipe, int fd, int waitEvents, Description description, long timeoutNanos) {
        super(description, timeoutNanos);
        this.pipe = pipe;
        this.cell = new FdCell(fd, waitEvents, pipe.closeHook());
    }

    /** @return the descriptor number, for the splice helpers (valid only while a use is held) */
    int fd() {
        return cell.fd;
    }

    @Override
    public KernelPipe pipe() {
        return pipe;
    }

    @Override
    public boolean isOpen() {
        return !cell.isClosed();
    }

    @Override
    public void close() {
        pipe.closing(this);
        if (cell.close()) {
            pipe.handleClosed(this);
        }
    }

    /**
     * {@code dup}: a new descriptor of this handle's open file description. The caller holds a use.
     *
     * @return the new descriptor, close-on-exec
     * @throws IOException if the kernel refuses ({@code EMFILE})
     */
    int dupDescriptor() throws IOException {
        int fd = LibC.fcntl(cell.fd, LibC.F_DUPFD_CLOEXEC, 0);
        if (fd < 0) {
            throw failure("dup: fcntl(F_DUPFD_CLOEXEC)", -fd);
        }
        return fd;
    }

    /**
     * {@code reopen}: a new open file description of this handle's pipe, {@code O_NONBLOCK} as every
     * descriptor of this module, opened through {@code /proc/self/fd} (which never blocks or fails with
     * {@code ENXIO} for an anonymous pipe, readers or not). The caller holds a use.
     *
     * @param access {@code O_RDONLY} or {@code O_WRONLY}
     * @param packet whether the new description is to have {@code O_DIRECT}
     * @return the new descriptor, close-on-exec
     * @throws IOException if the kernel refuses ({@code EMFILE}, or {@code ENOENT} without {@code /proc})
     */
    int reopenDescriptor(int access, boolean packet) throws IOException {
        int flags = access | LibC.O_NONBLOCK | LibC.O_CLOEXEC;
        String path = "/proc/self/fd/" + cell.fd;
        int fd;
        try (Arena arena = Arena.ofConfined()) {
            fd = LibC.open(arena.allocateFrom(path), flags, 0);
        }
        if (fd < 0) {
            throw failure("reopen: open(" + path + ")", -fd);
        }
        if (packet) {
            // open(2) refuses O_DIRECT on a pipe (EINVAL); F_SETFL accepts it.
            int r = LibC.fcntl(fd, LibC.F_SETFL, flags | LibC.O_DIRECT);
            if (r < 0) {
                LibC.close(fd);
                throw failure("reopen: fcntl(F_SETFL, O_DIRECT) for the new handle", -r);
            }
        }
        return fd;
    }

    /** The poll(2) events this end waits for. */
    abstract short pollEvents();

    /** Whether a readiness is what {@link #whenReady()} of a read (or write) end waits for. */
    static boolean isReady(boolean read, Readiness r) {
        return read ? r.readable() || r.hungUp() || r.invalid() : r.writable() || r.error() || r.invalid();
    }

    @Override
    public Readiness poll() {
        if (!cell.tryAcquire()) {
            return INVALID;
        }
        try {
            return pollHeld();
        } finally {
            cell.release();
        }
    }

    /**
     * Wake-ups are exclusive (one waiter per change), so a thread that leaves without using one it may
     * have been given (its handle was closed) hands a ready pipe on to the next parked thread of its side.
     * The caller holds a use, which keeps the descriptor valid.
     */
    void handOnIfReady() {
        if (pipe.parkedOn(getClass()) > 0) {
            pipe.passBaton(this, pollEvents(), getClass());
        }
    }

    /** @return whether a call would not find the pipe empty (read end) or full (write end) now */
    private boolean readyNow() {
        int rev = LibC.pollNow(cell.fd, pollEvents());
        return rev < 0 || (rev & (pollEvents() | LibC.POLLHUP | LibC.POLLERR | LibC.POLLNVAL)) != 0;
    }

    /** poll(2) with a use held. */
    Readiness pollHeld() {
        int rev = LibC.pollNow(cell.fd, pollEvents());
        return rev < 0 ? INVALID : Readiness.ofLinuxPollMask(rev);
    }

    @Override
    public CompletableFuture<Readiness> whenReady() {
        CompletableFuture<Readiness> f = new CompletableFuture<>();
        if (!cell.tryAcquire()) {
            f.complete(INVALID);
            return f;
        }
        try {
            Readiness now = pollHeld();
            if (isReady(this instanceof KernelReadEnd, now)) {
                f.complete(now);
            } else {
                pipe.futureQueued();
                cell.addReadyWaiter(new FdCell.ReadyWaiter<>(f, readyCheck(pollEvents(), this instanceof KernelReadEnd),
                        INVALID));
            }
        } finally {
            cell.release();
        }
        return f;
    }

    /**
     * The readiness check of a queued future. Static, so that it holds neither this handle nor its pipe: a
     * pending future must not keep a dropped pipe from its cleaner. The cell's use is held by the caller.
     */
    private static java.util.function.Function<FdCell, Readiness> readyCheck(short events, boolean read) {
        return c -> {
            int rev = LibC.pollNow(c.fd, events);
            Readiness r = rev < 0 ? INVALID : Readiness.ofLinuxPollMask(rev);
            return isReady(read, r) ? r : null;
        };
    }

    // ---- the wait between two attempts of a blocking call ------------------------------------------

    /** @return a fresh deadline for one blocking call on this handle (its clock starts at the first wait) */
    Deadline deadline() {
        return new Deadline().reset(timeoutNanos());
    }

    /**
     * Waits after {@code EAGAIN}, holding a use. Throws what the in-process pipe throws when the wait cannot
     * happen or ends badly ({@link Failures}).
     *
     * @param deadline the call's deadline ({@link #deadline()}), started by its first wait
     * @param done     bytes the call has moved so far, reported by the exceptions
     * @param what     for messages: "read from an empty pipe", "write to a full pipe"
     */
    void await(Deadline deadline, long done, String what) throws IOException {
        if (cell.isClosed()) {
            return; // the caller's loop reports the close, with its partial count
        }
        if (Thread.currentThread().isInterrupted()) {
            throw Failures.interrupted(what, done); // the stream convention: the status stays set
        }
        if (deadline.expired()) {
            throw Failures.timedOut(what, done);
        }
        pipe.countWait(this); // once per wait (a wake-up that finds nothing to do waits, and counts, again)
        pipe.parked(this, 1); // before the recheck below: see KernelPipe#wakeParked for the pairing
        try {
            if (pipe.exported) {
                cell.park(deadline.nanos()); // another process may change the pipe: epoll
            } else {
                // Recheck after queueing: ready now, or exported meanwhile (then retry, and arm epoll).
                cell.park(deadline.nanos(), cell.waitEvents, readyOrExported);
            }
        } finally {
            pipe.parked(this, -1);
        }
        if (cell.isClosed()) {
            handOnIfReady(); // the caller's loop throws without using the wake-up this may have had
        }
        // No poll(2) after a wake-up: the caller's retry is the check. Ready, it moves bytes; a stale wake-up
        // (another thread was first) gets EAGAIN and waits here again; an interrupt or a deadline is seen
        // at the top of the next wait.
    }

    /**
     * @param op    the call and the system call behind it, e.g. {@code "available: ioctl(FIONREAD)"}
     * @param errno the positive errno
     * @return an IOException for a failed call on this end: the call, this handle, the errno's name
     */
    IOException failure(String op, long errno) {
        return new IOException(op + " on " + this + " failed: " + LibC.describe((int) errno));
    }

    static ClosedChannelException closed() {
        return new ClosedChannelException();
    }
}
