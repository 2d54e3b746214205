package dev.sluice.kernel;

import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

import dev.sluice.Pipe;
import dev.sluice.PipeCounters;
import dev.sluice.PipeOptions;
import dev.sluice.PipeStat;
import dev.sluice.ReadEnd;
import dev.sluice.WriteEnd;
import dev.sluice.internal.Description;
import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.invoke.VarHandle;
import java.lang.ref.Cleaner;
import java.lang.ref.WeakReference;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.LongAdder;

/**
 * A real Linux pipe, reached through the FFM API, behind Sluice's {@link Pipe} interface: code written
 * for the in-process pipe runs unchanged on it, and the same conformance suite checks both.
 *
 * <pre>{@code
 * KernelPipe pipe = KernelPipe.open();                 // pipe2(O_CLOEXEC | O_NONBLOCK)
 * KernelProcess sort = KernelProcess.command("sort").stdin(pipe.reader()).start();
 * pipe.writer().write("b\na\n".getBytes());
 * pipe.writer().close();                               // EOF for sort
 * }</pre>
 *
 * <p><b>Descriptors.</b> {@code pipe2} is always called with {@code O_CLOEXEC} (nothing leaks into child
 * processes unless handed over explicitly, see {@link KernelProcess}) and {@code O_NONBLOCK}: a handle's
 * blocking mode is a Java-side flag, and a blocking call that finds the pipe empty or full parks. It is
 * unparked by this JVM's next read, write, close or resize of the pipe ({@link #stored},
 * {@link #consumed}), and, once the pipe is shared with a child process, also by the JVM-wide
 * {@link Poller} thread when epoll reports the descriptor ready. So a blocked caller can be interrupted,
 * can time out, is woken by {@code close()}, and a virtual thread does not pin its carrier. Every handle owns one
 * descriptor; {@code dup()} makes a new one on the same open file description ({@code F_DUPFD_CLOEXEC}), so
 * the two share their mode, and {@code reopen()} one on a new description (through {@code /proc/self/fd}).
 * See {@link FdCell} for how a closed descriptor number is kept
 * from being used again: system calls hold a use count, and {@code close(2)} runs when the last use ends.
 *
 * <p><b>Closing.</b> Close every handle when done: that is the contract, as for any descriptor, and it
 * is what gives the other side its end-of-stream or broken pipe at the right moment. A pipe dropped with
 * handles still open is not leaked for good, though: once the pipe and all its handles are unreachable, a
 * {@link Cleaner} closes the descriptors that are left (a pending readiness future whose callbacks refer
 * to the pipe keeps it reachable, as a registered channel is kept by its selector).
 *
 * <p><b>Options</b> ({@link #open(PipeOptions)}): capacity ({@code F_SETPIPE_SZ}), packet mode
 * ({@code O_DIRECT}), nonblocking per end. The in-process policies (wake policy, lock, spin) do not change
 * what a caller can observe and are ignored. Options the kernel cannot honour are refused with
 * {@link IllegalArgumentException} ({@link #unsupported(PipeOptions)} lists them): shared page accounting
 * (the kernel's is per user, through sysctls), a {@code maxCapacity} other than the system's
 * {@code pipe-max-size}, a page pool size, and timestamps. On timestamps: anonymous pipes have not
 * updated their times since Linux 6.15 (they are created with their own file operations that skip it),
 * and {@code pipe2} rejects {@code O_NOATIME} with {@code EINVAL}, so there is nothing to turn on or off;
 * {@link #openNoAtime()} says so.
 *
 * <p><b>What only the kernel knows.</b> {@link #stat()} reports {@code slotsUsed} as -1 (the ring's
 * occupancy is not exported), {@code readers} and {@code writers} as this JVM's open handles of each side
 * (a child process's copies are not counted), and the times from {@code fstat(2)}. {@link #counters()}
 * counts bytes, calls and waits as seen from Java and reports wake-ups, pages and lock contention as -1.
 *
 * <p>Linux only (x86_64, aarch64); elsewhere opening throws {@link UnsupportedOperationException}. The
 * JVM must allow native access to this module: {@code --enable-native-access=dev.sluice.kernel} (or
 * {@code ALL-UNNAMED} on the class path).
 */
public final class KernelPipe implements Pipe {
    private final KernelReadEnd reader;
    private final KernelWriteEnd writer;
    /** Open handles of this pipe, any of which can answer fcntl/ioctl/fstat for the pipe. */
    private final Set<KernelEnd> open = ConcurrentHashMap.newKeySet();
    private final AtomicInteger readers = new AtomicInteger(1);
    private final AtomicInteger writers = new AtomicInteger(1);
    private volatile int lastCapacity;
    /**
     * The descriptors of every open handle, for the cleaner. Neither the cells nor the cleaner's action
     * refer to this pipe or its handles (a cell's after-close hook holds the pipe weakly), so a pipe whose
     * handles are all unreachable can be collected, and its cleaner then closes what is left.
     */
    private final Set<FdCell> cells = ConcurrentHashMap.newKeySet();
    private final Runnable closeHook = weakHook(this);

    private final LongAdder bytesWritten = new LongAdder();
    private final LongAdder bytesRead = new LongAdder();
    private final LongAdder writeCalls = new LongAdder();
    private final LongAdder readCalls = new LongAdder();
    private final LongAdder readerWaits = new LongAdder();
    private final LongAdder writerWaits = new LongAdder();

    private KernelPipe(int rfd, int wfd, boolean nonBlockingRead, boolean nonBlockingWrite, boolean packetMode) {
        // pipe2 makes two open file descriptions, one per side.
        this.reader = new KernelReadEnd(this, rfd, new Description(nonBlockingRead, false), 0);
        this.writer = new KernelWriteEnd(this, wfd, new Description(nonBlockingWrite, packetMode), 0);
        open.add(reader);
        open.add(writer);
        cells.add(reader.cell);
        cells.add(writer.cell);
    }

    /** The JVM-wide cleaner of dropped pipes, made with the first pipe. */
    private static final class Cleaning {
        static final Cleaner CLEANER = Cleaner.create(
                Thread.ofPlatform().daemon(true).name("sluice-kernel-cleaner").factory());
    }

    /**
     * What the cleaner runs: closes every descriptor still open. Static: it must not hold the pipe. (Not
     * lambdas, here and in {@link #weakHook}: see the note in {@link LibC}.)
     */
    private static Runnable closeAll(Set<FdCell> cells) {
        return new Runnable() {
            @Override
            public void run() {
                for (FdCell c : cells) {
                    c.close();
                }
            }
        };
    }

    /** The hook a cell runs after {@code close(2)}, holding the pipe weakly (see {@link #cells}). */
    private static Runnable weakHook(KernelPipe p) {
        WeakReference<KernelPipe> ref = new WeakReference<>(p);
        return new Runnable() {
            @Override
            public void run() {
                KernelPipe pipe = ref.get();
                if (pipe != null) {
                    pipe.descriptorClosed();
                }
            }
        };
    }

    /** @return the hook every descriptor of this pipe runs after {@code close(2)} */
    Runnable closeHook() {
        return closeHook;
    }

    /**
     * Opens a 64 KiB blocking kernel pipe, as {@code pipe(2)} does.
     *
     * @return the pipe, both ends open
     * @throws IOException                   if the kernel refuses ({@code EMFILE}, {@code ENFILE})
     * @throws UnsupportedOperationException if this is not Linux
     */
    public static KernelPipe open() throws IOException {
        // Not open(PipeOptions.defaults()): that would load the in-process pipe's option classes, which a
        // first kernel pipe has no use for (tens of milliseconds of class loading at start-up).
        Platform.checkSupported();
        return create(LibC.O_CLOEXEC | LibC.O_NONBLOCK, false, false, false);
    }

    /**
     * Opens a kernel pipe with the options a kernel pipe can honour; see the class documentation.
     *
     * @param options capacity, packet mode, nonblocking ends
     * @return the pipe, both ends open
     * @throws IllegalArgumentException      if the options ask for something only the in-process pipe has
     * @throws IOException                   if the kernel refuses ({@code EMFILE}, {@code ENFILE})
     * @throws UnsupportedOperationException if this is not Linux
     */
    public static KernelPipe open(PipeOptions options) throws IOException {
        java.util.Objects.requireNonNull(options, "options is null (use PipeOptions.defaults())");
        Platform.checkSupported();
        List<String> no = unsupported(options);
        if (!no.isEmpty()) {
            throw new IllegalArgumentException("a kernel pipe cannot honour: " + String.join("; ", no));
        }
        KernelPipe p = create(LibC.O_CLOEXEC | LibC.O_NONBLOCK | (options.packetMode() ? LibC.O_DIRECT : 0),
                options.nonBlockingRead(), options.nonBlockingWrite(), options.packetMode());
        if (options.capacity() != PipeOptions.DEFAULT_CAPACITY) {
            try {
                p.setCapacity(options.capacity());
            } catch (RuntimeException e) {
                p.reader.close();
                p.writer.close();
                throw e;
            }
        }
        return p;
    }

    /**
     * Tries {@code pipe2(O_NOATIME)}. Linux refuses it ({@code EINVAL}: pipe2 takes only
     * {@code O_CLOEXEC}, {@code O_NONBLOCK}, {@code O_DIRECT}); and since 6.15 anonymous pipes skip
     * timestamps anyway, so a plain {@link #open()} already has "no atime". Kept so that a kernel that
     * accepts the flag is used as it is.
     *
     * @return the pipe, if the kernel accepted the flag
     * @throws UnsupportedOperationException with the explanation, if the kernel refused it
     * @throws IOException                   for other failures
     */
    public static KernelPipe openNoAtime() throws IOException {
        Platform.checkSupported();
        try {
            return create(LibC.O_CLOEXEC | LibC.O_NONBLOCK | LibC.O_NOATIME, false, false, false);
        } catch (IOException e) {
            if (e.getMessage().contains("EINVAL")) {
                throw new UnsupportedOperationException("pipe2(O_NOATIME) is refused by this kernel (EINVAL): pipe2 "
                        + "accepts only O_CLOEXEC, O_NONBLOCK and O_DIRECT. Anonymous pipes do not update their "
                        + "access time since Linux 6.15 anyway; use KernelPipe.open().", e);
            }
            throw e;
        }
    }

    private static KernelPipe create(int flags, boolean nonBlockingRead, boolean nonBlockingWrite, boolean packetMode)
            throws IOException {
        int r;
        int rfd;
        int wfd;
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment fds = arena.allocate(JAVA_INT, 2);
            r = LibC.pipe2(fds, flags);
            rfd = fds.getAtIndex(JAVA_INT, 0);
            wfd = fds.getAtIndex(JAVA_INT, 1);
        }
        if (r < 0) {
            throw new IOException("KernelPipe.open: pipe2 failed: " + LibC.describe(-r));
        }
        KernelPipe p = new KernelPipe(rfd, wfd, nonBlockingRead, nonBlockingWrite, packetMode);
        Cleaning.CLEANER.register(p, closeAll(p.cells));
        return p;
    }

    /**
     * What of {@code options} a kernel pipe cannot do, one reason per item; empty if it can do all.
     *
     * @param options the options to check
     * @return the reasons, empty if none
     */
    public static List<String> unsupported(PipeOptions options) {
        List<String> no = new ArrayList<>();
        if (options.accounting() != null) {
            no.add("shared page accounting (the kernel accounts per user, through fs.pipe-user-pages-*)");
        }
        if (options.maxCapacity() != PipeOptions.DEFAULT_MAX_CAPACITY) {
            no.add("maxCapacity " + options.maxCapacity() + " (the kernel's limit is the sysctl fs.pipe-max-size)");
        }
        if (options.timestamps()) {
            no.add("timestamps (anonymous pipes do not update their times since Linux 6.15)");
        }
        if (options.poolPages() != -1) {
            no.add("poolPages " + options.poolPages() + " (the kernel keeps its own page cache per pipe)");
        }
        if (options.poolRotation() != PipeOptions.DEFAULT_POOL_ROTATION) {
            no.add("poolRotation " + options.poolRotation() + " (the kernel's pages come from its allocator)");
        }
        return no;
    }

    @Override
    public ReadEnd reader() {
        return reader;
    }

    @Override
    public WriteEnd writer() {
        return writer;
    }

    // ---- handle bookkeeping ----

    void handleOpened(KernelEnd e) {
        (e instanceof KernelReadEnd ? readers : writers).incrementAndGet();
        open.add(e);
        cells.add(e.cell);
    }

    void handleClosed(KernelEnd e) {
        open.remove(e);
        cells.remove(e.cell);
        (e instanceof KernelReadEnd ? readers : writers).decrementAndGet();
        stateChanged();
    }

    /** Counts a read call that moved {@code n} bytes (0 for EOF, EAGAIN, failures). */
    void countRead(long n) {
        readCalls.increment();
        if (n > 0) {
            bytesRead.add(n);
        }
    }

    /** Counts a write call that stored {@code n} bytes in all. */
    void countWrite(long n) {
        writeCalls.increment();
        if (n > 0) {
            bytesWritten.add(n);
        }
    }

    /**
     * Right after every system call of this JVM that took bytes out of the pipe: wakes this JVM's parked
     * writers and completes due readiness futures. Called per system call, not per Java call: a blocking
     * write that waits halfway must have woken the readers for what it stored before it waits.
     */
    void consumed(KernelEnd by) {
        VarHandle.fullFence(); // the system call's effect, then the load of the count: see wakeParked
        if (parkedWriters.get() > 0) {
            wakeOne(KernelWriteEnd.class);
        }
        if (parkedReaders.get() > 0) {
            passBaton(by, LibC.POLLIN, KernelReadEnd.class);
        }
        stateChanged();
    }

    /** As {@link #consumed}, after every system call of this JVM that put bytes into the pipe. */
    void stored(KernelEnd by) {
        VarHandle.fullFence();
        if (parkedReaders.get() > 0) {
            wakeOne(KernelReadEnd.class);
        }
        if (parkedWriters.get() > 0) {
            passBaton(by, LibC.POLLOUT, KernelWriteEnd.class);
        }
        stateChanged();
    }

    /**
     * Linux's {@code wake_next_reader} / {@code wake_next_writer}: wake-ups are exclusive (one waiter per
     * change, not the herd), so a thread that leaves data (or room) behind for others of its side, while
     * some of them are parked, wakes the next one. {@code by} is the end just used (a use is held).
     */
    void passBaton(KernelEnd by, short event, Class<? extends KernelEnd> side) {
        int rev = LibC.pollNow(by.fd(), event);
        if (rev < 0 || (rev & (event | LibC.POLLHUP | LibC.POLLERR)) != 0) {
            wakeOne(side);
        }
    }

    /** @return threads of this JVM parked on the given side */
    int parkedOn(Class<? extends KernelEnd> side) {
        return (side == KernelReadEnd.class ? parkedReaders : parkedWriters).get();
    }

    private void wakeOne(Class<? extends KernelEnd> side) {
        if ((side == KernelReadEnd.class ? reader : writer).cell.unparkOne()) {
            return; // the pipe's own end first: no iterator over the open set (allocated per wake-up)
        }
        for (KernelEnd e : open) {
            if (side.isInstance(e) && e.cell.unparkOne()) {
                return;
            }
        }
    }

    /**
     * Set once an end of this pipe is handed to another process ({@link KernelProcess}): from then on its
     * changes can come from outside this JVM, so waiters arm the poller. Until then (descriptors are
     * close-on-exec, so nothing else can hold this pipe) every change is made by this JVM, which unparks
     * the waiters itself ({@link #wakeParked}), and the poller thread stays out of the way: one context
     * switch less per wait.
     */
    volatile boolean exported;

    /**
     * Marks the pipe as shared with another process, and wakes the waiters that parked without the
     * poller, so that they park again with it (a waiter queueing meanwhile sees the flag in its recheck).
     */
    void export() {
        exported = true;
        descriptorClosed();
    }

    /** Called after any descriptor of this pipe is really closed: the other side may see EOF or EPIPE now. */
    void descriptorClosed() {
        VarHandle.fullFence();
        if (parkedReaders.get() > 0) {
            wakeParked(KernelReadEnd.class);
        }
        if (parkedWriters.get() > 0) {
            wakeParked(KernelWriteEnd.class);
        }
    }

    /** Threads of this JVM parked on each side of this pipe. */
    private final AtomicInteger parkedReaders = new AtomicInteger();
    private final AtomicInteger parkedWriters = new AtomicInteger();

    void parked(KernelEnd e, int delta) {
        (e instanceof KernelReadEnd ? parkedReaders : parkedWriters).addAndGet(delta);
    }

    /**
     * Wakes every thread of this JVM parked on one side (a close, a resize, an export). Ordinary reads and
     * writes wake one thread instead ({@link #stored}, {@link #consumed}), as {@code pipe_write} wakes one
     * exclusive reader, without waiting for epoll to wake the poller thread, one context switch later. The
     * poller still wakes them for changes made by other processes; a
     * waiter woken twice just retries.
     *
     * <p>No wake-up is lost without the poller either (a pipe not {@link #exported}): a waiter increments
     * the parked count, queues itself, then polls the descriptor before it parks; a waker makes its change
     * (the system call), fences, then reads the count. Either the waker sees the count and unparks the
     * queue (a waiter not queued yet will see the change in its poll), or the waiter's poll comes after
     * the change and it does not park.
     */
    private void wakeParked(Class<? extends KernelEnd> side) {
        for (KernelEnd e : open) {
            if (side.isInstance(e)) {
                e.cell.unparkThreads();
            }
        }
    }

    /** Set when a readiness future is queued on any handle of this pipe; cleared by a scan that finds none. */
    private volatile boolean futuresHint;

    void futureQueued() {
        futuresHint = true;
    }

    /**
     * After this JVM changed the pipe (read, write, close, resize): completes the readiness futures that
     * are now due, on this thread, as the in-process pipe does. Futures still get completed by the poller
     * if this misses them (a racy clear of the hint, or a change made by another process), only later.
     */
    void stateChanged() {
        if (!futuresHint) {
            return;
        }
        boolean any = false;
        for (KernelEnd e : open) {
            if (e.cell.hasFutures()) {
                any = true;
                e.cell.fireFutures();
            }
        }
        if (!any) {
            futuresHint = false;
        }
    }

    void countWait(KernelEnd e) {
        (e instanceof KernelReadEnd ? readerWaits : writerWaits).increment();
    }

    /**
     * Before a handle closes: if it is the last one, remembers the capacity, which only an open descriptor
     * can tell, for {@link #capacity()} and {@link #stat()} of the closed pipe.
     */
    void closing(KernelEnd e) {
        if (open.size() == 1 && open.contains(e) && e.cell.tryAcquire()) {
            try {
                int r = LibC.fcntl(e.fd(), LibC.F_GETPIPE_SZ, 0);
                if (r > 0) {
                    lastCapacity = r;
                }
            } finally {
                e.cell.release();
            }
        }
    }

    /** A handle with a use held, or null if every handle is closed; the caller releases it. */
    private KernelEnd anyOpen() {
        for (KernelEnd e : open) {
            if (e.cell.tryAcquire()) {
                return e;
            }
        }
        return null;
    }

    // ---- F_GETPIPE_SZ / F_SETPIPE_SZ / fstat ----

    /**
     * {@inheritDoc}
     *
     * <p>Kernel pipes: {@code F_GETPIPE_SZ} on an open handle; on a pipe closed on both sides, the capacity
     * it had when its last handle was closed (as the in-process pipe reports it).
     */
    @Override
    public int capacity() {
        KernelEnd e = anyOpen();
        if (e == null) {
            return lastCapacity;
        }
        try {
            int r = LibC.fcntl(e.fd(), LibC.F_GETPIPE_SZ, 0);
            if (r < 0) {
                throw new IllegalStateException("capacity: fcntl(F_GETPIPE_SZ) on " + e + " failed: "
                        + LibC.describe(-r));
            }
            lastCapacity = r;
            return r;
        } finally {
            e.cell.release();
        }
    }

    /**
     * {@inheritDoc}
     *
     * <p>Kernel pipes: {@code EBUSY} (more data queued than would fit) becomes
     * {@link IllegalStateException}; {@code EPERM} (above {@code fs.pipe-max-size} without
     * {@code CAP_SYS_RESOURCE}, or over the per-user page limits) becomes {@link IllegalArgumentException}.
     */
    @Override
    public int setCapacity(int bytes) {
        return setCapacity((long) bytes);
    }

    /**
     * {@inheritDoc}
     *
     * <p>Kernel pipes: as {@link #setCapacity(int)}; sizes above the largest pipe Sluice allows are refused
     * before the kernel is asked, as the in-process pipe refuses them (Linux would answer {@code EPERM}, or
     * {@code EINVAL} above 2<sup>31</sup>).
     */
    @Override
    public int setCapacity(long bytes) {
        if (bytes < 0) {
            throw new IllegalArgumentException("capacity must not be negative, was " + bytes);
        }
        if (bytes > PipeOptions.ABSOLUTE_MAX_CAPACITY) {
            // Checked before anything else, as the in-process pipe does (Linux: EINVAL or EPERM).
            throw new IllegalArgumentException("capacity " + bytes + " exceeds the largest pipe of "
                    + PipeOptions.ABSOLUTE_MAX_CAPACITY + " bytes (and the system's maxCapacity, fs.pipe-max-size)");
        }
        KernelEnd e = anyOpen();
        if (e == null) {
            throw new IllegalStateException("setCapacity(" + bytes + "): pipe is closed on both sides");
        }
        int size;
        try {
            int r = LibC.fcntl(e.fd(), LibC.F_SETPIPE_SZ, (int) bytes); // at most ABSOLUTE_MAX_CAPACITY here
            if (r == -LibC.EBUSY) {
                throw new IllegalStateException("setCapacity(" + bytes + ") on " + e
                        + ": the pipe holds more data than " + bytes
                        + " bytes of pages can take; cannot shrink until it is read (Linux: EBUSY)");
            }
            if (r == -LibC.EPERM) {
                throw new IllegalArgumentException("capacity " + bytes + " exceeds the largest pipe an unprivileged "
                        + "process may have (the system's maxCapacity, fs.pipe-max-size = " + pipeMaxSize()
                        + " bytes) or the per-user pipe page limit (Linux: EPERM)");
            }
            if (r == -LibC.EINVAL) {
                throw new IllegalArgumentException("capacity " + bytes + " is too large (Linux: EINVAL)");
            }
            if (r < 0) {
                throw new IllegalStateException("setCapacity(" + bytes + "): fcntl(F_SETPIPE_SZ) on " + e + " failed: "
                        + LibC.describe(-r));
            }
            size = r;
            lastCapacity = r;
        } finally {
            e.cell.release();
        }
        if (parkedWriters.get() > 0) {
            wakeParked(KernelWriteEnd.class); // more room may exist now
        }
        stateChanged();
        return size;
    }

    /** @return fs.pipe-max-size, or -1 if it cannot be read */
    static int pipeMaxSize() {
        // A sysctl file reports size 0, so read it with a large buffer rather than Files.readString.
        try (var in = java.nio.file.Files.newInputStream(java.nio.file.Path.of("/proc/sys/fs/pipe-max-size"))) {
            return Integer.parseInt(new String(in.readNBytes(64), java.nio.charset.StandardCharsets.US_ASCII).trim());
        } catch (IOException | NumberFormatException e) {
            return -1;
        }
    }

    /**
     * {@inheritDoc}
     *
     * <p>Kernel pipes: {@code slotsUsed} is -1 (not exported by the kernel); {@code readers} and
     * {@code writers} count this JVM's open handles; the times come from {@code fstat(2)} (an anonymous
     * pipe keeps its creation time since Linux 6.15). On a pipe whose handles are all closed, the queued
     * bytes are 0 and the times are the epoch.
     */
    @Override
    public PipeStat stat() {
        KernelEnd e = anyOpen();
        if (e == null) {
            int cap = lastCapacity;
            return new PipeStat(cap, cap / PAGE_SIZE, -1, 0, 0, 0, Instant.EPOCH, Instant.EPOCH, Instant.EPOCH);
        }
        try (Arena arena = Arena.ofConfined()) {
            int cap = LibC.fcntl(e.fd(), LibC.F_GETPIPE_SZ, 0);
            int queued = LibC.fionread(e.fd());
            MemorySegment st = arena.allocate(LibC.STAT_SIZE, 8);
            int r = LibC.fstat(e.fd(), st);
            if (cap < 0 || queued < 0 || r < 0) {
                String call = cap < 0 ? "fcntl(F_GETPIPE_SZ)" : queued < 0 ? "ioctl(FIONREAD)" : "fstat";
                throw new IllegalStateException("stat: " + call + " on " + e + " failed: "
                        + LibC.describe(-(cap < 0 ? cap : queued < 0 ? queued : r)));
            }
            lastCapacity = cap;
            return new PipeStat(cap, cap / PAGE_SIZE, -1, queued, readers.get(), writers.get(),
                    time(st, LibC.STAT_ATIM), time(st, LibC.STAT_MTIM), time(st, LibC.STAT_CTIM));
        } finally {
            e.cell.release();
        }
    }

    private static Instant time(MemorySegment st, int off) {
        return Instant.ofEpochSecond(st.get(JAVA_LONG, off), st.get(JAVA_LONG, off + 8));
    }

    /**
     * {@inheritDoc}
     *
     * <p>Kernel pipes count bytes, calls and waits on the Java side; wake-ups, spins, lock contention,
     * pages and peak occupancy are the kernel's and read -1.
     */
    @Override
    public PipeCounters counters() {
        return new PipeCounters(bytesWritten.sum(), bytesRead.sum(), writeCalls.sum(), readCalls.sum(),
                readerWaits.sum(), writerWaits.sum(), -1, -1, -1, -1, -1, -1, -1, -1);
    }

    @Override
    public void resetCounters() {
        bytesWritten.reset();
        bytesRead.reset();
        writeCalls.reset();
        readCalls.reset();
        readerWaits.reset();
        writerWaits.reset();
    }

    @Override
    public String toString() {
        return "KernelPipe[" + reader + ", " + writer + "]";
    }
}
