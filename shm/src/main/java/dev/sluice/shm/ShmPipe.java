package dev.sluice.shm;

import dev.sluice.internal.Description;
import dev.sluice.Pipe;
import dev.sluice.PipeCounters;
import dev.sluice.PipeEnd;
import dev.sluice.PipeOptions;
import dev.sluice.PipeStat;
import dev.sluice.ReadEnd;
import dev.sluice.WriteEnd;
import dev.sluice.internal.Checks;
import dev.sluice.internal.Deadline;
import dev.sluice.internal.Failures;
import dev.sluice.internal.sync.SpinBudget;
import dev.sluice.internal.sync.WaitQueue;
import dev.sluice.policy.SpinPolicy;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.LongAdder;
import java.util.concurrent.locks.LockSupport;

/**
 * A pipe between processes (JVMs) whose ring of 4 KiB pages and whose state live in shared memory, with the
 * semantics of a Linux pipe and of Sluice's in-process {@link Pipe}: writes of at most {@link #PIPE_BUF} bytes
 * atomic among every writer of every process, small writes merged into the newest page, blocking and
 * nonblocking handles with {@code EAGAIN} and partial counts as Linux, end-of-stream when the last write handle
 * <em>anywhere</em> closes, broken pipe when the last read handle anywhere closes, timeouts, interrupts (the
 * stream convention) and readiness.
 *
 * <pre>{@code
 * // parent                                              // child (args[0] is pipe.path())
 * ShmPipe pipe = ShmPipe.create();                       ShmPipe pipe = ShmPipe.claim(Path.of(args[0]),
 * Process child = new ProcessBuilder("java", "Child",            Duration.ofSeconds(30));
 *         pipe.path().toString()).inheritIO().start();   try (InputStream in = pipe.reader().asInputStream()) {
 * pipe.handOver(pipe.reader(), child.toHandle());            in.transferTo(System.out);
 * try (OutputStream out = pipe.writer().asOutputStream()) {  }
 *     out.write(data);                                   // EOF once the parent's write handle is closed
 * }
 * }</pre>
 *
 * <p><b>Making and joining.</b> {@link #create(PipeOptions)} makes the shared memory with
 * {@code memfd_create(2)} (anonymous, sealed against shrinking and growing) and {@link #path()} names it
 * ({@code /proc/<pid>/fd/<n>}) for peers of the same user; {@link #create(Path, PipeOptions)} uses a file
 * created exclusively with mode 0600 instead (e.g. under {@code /dev/shm}), which the caller deletes.
 * {@link #attach(Path)} joins with a read and a write handle, as a forked child holds both ends;
 * {@link #handOver(PipeEnd, ProcessHandle)} and {@link #claim(Path, Duration)} move a handle to a named
 * process without a moment in which no handle of that side is open (the way {@code fork} and {@code close}
 * pass a pipe end to a child).
 *
 * <p><b>Lifetime.</b> Each joined pipe (each {@code ShmPipe} object) holds one entry in the mapping's process
 * table, with its open handles; it leaves the table, and unmaps the memory, when its last handle closes. The
 * memory itself lives while any process maps it (or, for a file, until the file is deleted). A process that
 * dies without closing, even by {@code kill -9}, loses its handles when a peer notices: at once if the peer is
 * waiting (its JVM then holds a pidfd of every other process in the table, which {@code poll(2)} reports
 * readable when the process exits), or, where Linux offers no pidfds (before 5.3), within about a tenth of a
 * second of its wait. Readers then see end-of-stream after the last byte the dead writer had fully published,
 * writers see broken pipe. Bytes a dead writer was still copying were never published and are never
 * delivered.
 *
 * <p><b>Capacity</b> is fixed at creation ({@link #setCapacity} accepts only the current size). Every process
 * has mapped the ring at its size, and Linux offers no way to grow all those mappings at once: a resize would
 * have to stop every peer, have each remap, and agree on the moment, which no peer can be made to do in
 * bounded time (a stopped or dying peer would hold the others up).
 *
 * <p><b>Waiting.</b> A thread that must wait spins briefly, then sleeps until a word of the mapping changes;
 * the side that makes the pipe readable or writable bumps that word and, only if a thread is counted as
 * asleep, wakes it with {@code FUTEX_WAKE} (process-shared, never {@code FUTEX_PRIVATE_FLAG}). A platform
 * thread sleeps in {@code FUTEX_WAIT} itself. {@code Thread.interrupt()} cannot reach a thread inside a system
 * call, so the sleep is bracketed as a blocking call on an interruptible channel is: an interrupt of the
 * sleeping thread bumps the word and wakes it at once (see {@code FutexSleep}). A timeout is the futex wait's
 * own, and a close of the handle by another thread bumps the word too. Such a thread shows as RUNNABLE while it
 * sleeps, as a thread blocked in a socket read does. A virtual thread in the futex would pin its carrier for
 * the length of the wait: it parks ({@link java.util.concurrent.locks.LockSupport}), and one watcher thread of
 * this JVM per pipe and direction sleeps in {@code FUTEX_WAIT} for all of them and unparks them when the word
 * changes, so it frees its carrier and shows as WAITING. The watcher costs a thread hand-off per wake-up;
 * {@code -Dsluice.shm.directFutex=false} sends platform threads through it too. See {@link Control} for
 * the lock, and how a dead lock owner is recovered from.
 *
 * <p><b>Trust.</b> A peer process is trusted with the bytes in the pipe, never with this process's memory:
 * the header is checked once at attach (magic, version, page size, slot and entry counts, total size against
 * the file's, the owner against this user, the pid namespace) and its sizes are never read again; every index
 * and length read from the mapping afterwards is bounds-checked before use, and a bad one ends the call with
 * a {@link ShmPipeFormatException}. A memfd's size is sealed; a 0600 file could still be truncated by its
 * owner, which the JVM reports as an {@link InternalError} on access.
 *
 * <p>Linux only (x86_64, aarch64), and needs {@code /proc}; peers must share a pid namespace. Not supported:
 * shared page accounting, timestamps, changing the capacity; {@link #counters()} counts what this process
 * saw, and reports what only the shared side knows as -1.
 */
public final class ShmPipe implements Pipe {
    /**
     * Whether platform threads sleep in {@code FUTEX_WAIT} themselves (the default) rather than park while this
     * JVM's watcher thread sleeps for them ({@code -Dsluice.shm.directFutex=false}). The watcher adds a thread
     * hand-off to every wake-up, which costs tens of microseconds on a small VM (see docs/performance.md).
     */
    static final boolean DIRECT_FUTEX = Boolean.parseBoolean(System.getProperty("sluice.shm.directFutex", "true"));
    /** A direct sleep's slice where no pidfd tells of a dead peer: then the sleeper looks for the dead itself. */
    private static final long SLICE_NANOS = 100_000_000L;
    /** Whether a wait may spin at all: on one CPU the thread it waits for cannot run while it spins. */
    private static final boolean CAN_SPIN = Runtime.getRuntime().availableProcessors() > 1;
    /** A wake-up measured as longer than this is no wake-up of this sleep (see {@link Layout#DATA_WOKEN_AT}). */
    private static final long MAX_WAKE_NANOS = 10_000_000L;
    private static final int POLLIN = 0x1;
    private static final int POLLOUT = 0x4;
    private static final int POLLERR = 0x8;
    private static final int POLLHUP = 0x10;

    final Region region;
    final Control control;
    final Ring ring;
    private final Path path;
    private final ShmReadEnd reader;
    private final ShmWriteEnd writer;
    private final AtomicInteger localHandles;
    private final AtomicBoolean detached = new AtomicBoolean();
    private final Watcher dataWatcher;
    private final Watcher roomWatcher;
    /** The spin of this attachment's readers' and writers' waits (each side learns its own). */
    private final SpinBudget readBudget;
    private final SpinBudget writeBudget;
    /**
     * The longest spin before a wait sleeps: the options' {@code spinBeforePark}, none on one CPU. How much of
     * it a wait spins is the engine's {@link SpinBudget} (the options' {@link SpinPolicy}): while spins keep
     * running out it parks at once, and virtual threads never spin.
     */
    private final long spinNanos;
    private final Instant created;
    /** {@code PEERS} as the {@link PeerWatch} last read it with the table (an int; never, before it first did). */
    private volatile long peersSeen = Long.MIN_VALUE;
    /** Whether the {@link PeerWatch} holds a pidfd of every other process of the table it last read. */
    private volatile boolean peersWatched;
    /** Reclaims asked by the {@link PeerWatch} since the running one began; 0 when none runs. */
    private final AtomicInteger reapsAsked = new AtomicInteger();
    /** The largest capacity {@link #setCapacity} accepts as an argument (creation's options, else the default). */
    private volatile int maxCapacity = PipeOptions.DEFAULT_MAX_CAPACITY;
    /** What {@link #stat()} says once this process has left the pipe: the state as it left. */
    private volatile PipeStat lastStat;
    /** Readiness futures of this JVM's handles, completed by this JVM's own calls as soon as they are ready. */
    private final java.util.concurrent.ConcurrentLinkedQueue<Pending> pending =
            new java.util.concurrent.ConcurrentLinkedQueue<>();

    /**
     * This JVM's attachments of each pipe's memory, so that a call through one attachment settles the readiness
     * futures of all of them (a change made by this JVM completes this JVM's futures before the call returns).
     */
    private static final java.util.concurrent.ConcurrentHashMap<Region.Id, ShmPipe[]> ATTACHMENTS =
            new java.util.concurrent.ConcurrentHashMap<>();
    /** This attachment's entry in {@link #ATTACHMENTS}: this JVM's attachments of the same memory, itself too. */
    private volatile ShmPipe[] siblings = {this};

    /** A readiness future and the handle it waits on. */
    record Pending(ShmEnd end, java.util.concurrent.CompletableFuture<dev.sluice.Readiness> future, Thread waiter) {
    }

    private final LongAdder bytesWritten = new LongAdder();
    private final LongAdder bytesRead = new LongAdder();
    private final LongAdder writeCalls = new LongAdder();
    private final LongAdder readCalls = new LongAdder();
    private final LongAdder readerWaits = new LongAdder();
    private final LongAdder writerWaits = new LongAdder();
    private final LongAdder spunWaits = new LongAdder();

    private ShmPipe(Region region, Control control, Path path, long counts, boolean nbRead, boolean nbWrite,
                    boolean packet, PipeOptions options) {
        this.region = region;
        this.control = control;
        this.ring = new Ring(region, control);
        this.path = path;
        boolean r = Region.readers(counts) > 0;
        boolean w = Region.writers(counts) > 0;
        this.reader = new ShmReadEnd(this, r, new Description(nbRead, false), 0);
        this.writer = new ShmWriteEnd(this, w, new Description(nbWrite, packet), 0);
        this.localHandles = new AtomicInteger((r ? 1 : 0) + (w ? 1 : 0));
        this.dataWatcher = new Watcher(this, Layout.DATA_SEQ);
        this.roomWatcher = new Watcher(this, Layout.ROOM_SEQ);
        this.readBudget = new SpinBudget(options.spinPolicy());
        this.writeBudget = new SpinBudget(options.spinPolicy());
        this.spinNanos = CAN_SPIN ? options.spinBeforePark().toNanos() : 0;
        this.created = Instant.ofEpochMilli(region.getLong(Layout.OFF_CREATED));
        joinSiblings(); // last: the others may settle this attachment's futures from here on
    }

    /** {@return the longest spin of this attachment's waits, in nanoseconds} */
    long spinNanos() {
        return spinNanos;
    }

    /** Adds this attachment to this JVM's attachments of its memory, and tells every one of them. */
    private void joinSiblings() {
        ATTACHMENTS.compute(region.id, (id, all) -> {
            ShmPipe[] now = all == null ? new ShmPipe[] {this} : java.util.Arrays.copyOf(all, all.length + 1);
            now[now.length - 1] = this;
            for (ShmPipe p : now) {
                p.siblings = now;
            }
            return now;
        });
    }

    /** Takes this attachment out of this JVM's attachments of its memory (it has left the pipe). */
    private void leaveSiblings() {
        ATTACHMENTS.computeIfPresent(region.id, (id, all) -> {
            ShmPipe[] now = java.util.Arrays.stream(all).filter(p -> p != this).toArray(ShmPipe[]::new);
            for (ShmPipe p : now) {
                p.siblings = now;
            }
            siblings = new ShmPipe[] {this};
            return now.length == 0 ? null : now;
        });
    }

    // ---- making and joining -------------------------------------------------------------------------

    /**
     * Makes a 64 KiB shared pipe in anonymous memory ({@code memfd_create}).
     *
     * @return the pipe, with one read and one write handle
     * @throws IOException if the memory cannot be made or mapped
     */
    public static ShmPipe create() throws IOException {
        return create(PipeOptions.defaults());
    }

    /**
     * Makes a shared pipe in anonymous memory ({@code memfd_create}, sealed against resizing), which peers of
     * the same user open through {@link #path()} while this pipe is open.
     *
     * @param options capacity (rounded as Linux rounds it, up to {@link PipeOptions#maxCapacity()}), packet
     *                mode and nonblocking modes of the two handles; see {@link #unsupported(PipeOptions)}
     * @return the pipe, with one read and one write handle
     * @throws IOException              if the memory cannot be made or mapped
     * @throws IllegalArgumentException if the options ask for what a shared pipe cannot do
     */
    public static ShmPipe create(PipeOptions options) throws IOException {
        Layout layout = layoutFor(options);
        int fd = Native.memfdCreate("sluice-shm", Native.MFD_CLOEXEC | Native.MFD_ALLOW_SEALING);
        if (fd < 0) {
            throw new IOException("ShmPipe.create: memfd_create failed: " + Native.describe(-fd));
        }
        Path procPath = Path.of("/proc/" + Procs.selfPid() + "/fd/" + fd);
        try {
            int e = Native.ftruncate(fd, layout.totalBytes);
            if (e < 0) {
                throw new IOException("ShmPipe.create: ftruncate(" + layout.totalBytes + ") failed: "
                        + Native.describe(-e));
            }
            e = Native.fcntl(fd, Native.F_ADD_SEALS, Native.F_SEAL_SHRINK | Native.F_SEAL_GROW | Native.F_SEAL_SEAL);
            if (e < 0) {
                throw new IOException("ShmPipe.create: sealing the memfd failed: " + Native.describe(-e));
            }
        } catch (IOException | RuntimeException ex) {
            Native.close(fd);
            throw ex;
        }
        Region region;
        Arena arena = Arena.ofShared();
        try {
            int[] errno = new int[1];
            Native.Stat st = Native.fstat(fd, errno);
            if (st == null) {
                throw new IOException("ShmPipe.create: fstat of the memfd failed: " + Native.describe(errno[0]));
            }
            MemorySegment seg = map(Path.of("/proc/self/fd/" + fd), layout.totalBytes, arena);
            region = new Region(arena, seg, layout, fd, "shared pipe " + procPath, new Region.Id(st.dev(), st.ino()));
        } catch (IOException | RuntimeException ex) {
            arena.close();
            Native.close(fd);
            throw ex;
        }
        try {
            return formatted(region, procPath, options);
        } catch (IOException | RuntimeException ex) {
            region.close(); // unmaps and closes the memfd
            throw ex;
        }
    }

    /**
     * Makes a shared pipe in a new file, created exclusively with mode 0600 (so only this user can open it),
     * for peers that cannot open another process's descriptors. The caller deletes the file when done.
     *
     * @param file    the file to create, typically under {@code /dev/shm}
     * @param options as {@link #create(PipeOptions)}
     * @return the pipe, with one read and one write handle
     * @throws java.nio.file.FileAlreadyExistsException if the file exists
     * @throws IOException if it cannot be created or mapped
     */
    public static ShmPipe create(Path file, PipeOptions options) throws IOException {
        Objects.requireNonNull(file, "file is null");
        Layout layout = layoutFor(options);
        Arena arena = Arena.ofShared();
        try (FileChannel ch = FileChannel.open(file, java.util.Set.of(StandardOpenOption.CREATE_NEW,
                StandardOpenOption.READ, StandardOpenOption.WRITE),
                PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")))) {
            ch.write(ByteBuffer.allocate(1), layout.totalBytes - 1); // sparse: tmpfs allocates pages on touch
            MemorySegment seg = ch.map(FileChannel.MapMode.READ_WRITE, 0, layout.totalBytes, arena);
            java.util.Map<String, Object> a = java.nio.file.Files.readAttributes(file, "unix:dev,ino",
                    java.nio.file.LinkOption.NOFOLLOW_LINKS);
            Region.Id id = new Region.Id((Long) a.get("dev"), (Long) a.get("ino"));
            return formatted(new Region(arena, seg, layout, -1, "shared pipe " + file, id), file, options);
        } catch (IOException | RuntimeException e) {
            if (arena.scope().isAlive()) {
                arena.close();
            }
            throw e;
        }
    }

    private static ShmPipe formatted(Region region, Path path, PipeOptions options) throws IOException {
        region.layout.format(region.seg, Native.geteuid(), Procs.pidNamespace());
        Control c = new Control(region);
        long counts = 1 | 1L << 32;
        c.register(counts);
        ShmPipe p = new ShmPipe(region, c, path, counts, options.nonBlockingRead(), options.nonBlockingWrite(),
                options.packetMode(), options);
        p.maxCapacity = Math.max(options.maxCapacity(), p.capacity());
        return p;
    }

    private static Layout layoutFor(PipeOptions options) {
        Objects.requireNonNull(options, "options is null (use PipeOptions.defaults())");
        List<String> no = unsupported(options);
        if (!no.isEmpty()) {
            throw new IllegalArgumentException("a shared-memory pipe cannot honour: " + String.join("; ", no));
        }
        if (!Native.SUPPORTED) {
            throw new UnsupportedOperationException("shared-memory pipes need Linux on x86_64 or aarch64, not "
                    + System.getProperty("os.name") + " on " + System.getProperty("os.arch"));
        }
        int capacity = Checks.roundCapacity(options.capacity(), options.maxCapacity(), "capacity");
        return new Layout(capacity / Layout.PAGE, Layout.MAX_PROCS);
    }

    /**
     * What of {@code options} a shared pipe cannot do, one reason per item; empty if it can do all. The
     * spin policy and {@code spinBeforePark} are honoured (this attachment's waits spin as they say; one that
     * attaches or claims uses the system defaults, {@code -Dsluice.spinPolicy} and {@code -Dsluice.spinBeforePark});
     * the wake-up and lock policies of the in-process engine, its page pool ({@code poolPages},
     * {@code poolRotation}) and {@code pageMemory} do not change what a caller can observe, and are ignored: the
     * ring's pages are the shared mapping's, made whole with the pipe.
     *
     * @param options the options to check
     * @return the reasons, empty if none
     */
    public static List<String> unsupported(PipeOptions options) {
        List<String> no = new ArrayList<>();
        if (options.accounting() != null) {
            no.add("shared page accounting (the ring is allocated whole when the pipe is made)");
        }
        if (options.timestamps()) {
            no.add("timestamps (anonymous pipes have none since Linux 6.15)");
        }
        return no;
    }

    /**
     * Joins a shared pipe with one read and one write handle, as a forked child holds both ends of its
     * parent's pipe: close the one you do not use.
     *
     * @param path {@link #path()} of the pipe (a {@code /proc/<pid>/fd/<n>} path or the 0600 file)
     * @return this process's view of the pipe
     * @throws ShmPipeFormatException if the file is not a pipe this library can use, or is another user's
     * @throws IOException            if it cannot be opened or mapped, or its process table is full
     */
    public static ShmPipe attach(Path path) throws IOException {
        Region region = open(path);
        try {
            Control c = new Control(region);
            long counts = 1 | 1L << 32;
            c.register(counts);
            return new ShmPipe(region, c, path, counts, false, false, false,
                        PipeOptions.defaults());
        } catch (IOException | RuntimeException e) {
            region.close();
            throw e;
        }
    }

    /**
     * Joins a shared pipe with the handles another process {@linkplain #handOver handed over} to this one,
     * waiting up to {@code wait} for them. A side of which nothing was handed over has a closed handle.
     *
     * @param path {@link #path()} of the pipe
     * @param wait how long to wait for the hand-over
     * @return this process's view of the pipe, holding the handed-over handles
     * @throws ShmPipeFormatException as {@link #attach(Path)}
     * @throws IOException            if nothing was handed to this process in time (the message says so)
     */
    public static ShmPipe claim(Path path, Duration wait) throws IOException {
        long waitNanos = Checks.timeoutNanos(wait);
        Region region = open(path);
        try {
            Control c = new Control(region);
            long start = System.nanoTime();
            long pause = 100_000L;
            for (;;) {
                long counts = c.claim();
                if (counts >= 0) {
                    return new ShmPipe(region, c, path, counts, false, false, false,
                            PipeOptions.defaults());
                }
                if (System.nanoTime() - start >= waitNanos) {
                    throw new IOException("ShmPipe.claim: nothing was handed over to process " + Procs.selfPid()
                            + " through " + path + " within " + wait);
                }
                // A one-off wait at start-up, for the parent's handOver: a short, growing sleep is enough.
                LockSupport.parkNanos(pause);
                pause = Math.min(pause * 2, 10_000_000L);
            }
        } catch (IOException | RuntimeException e) {
            region.close();
            throw e;
        }
    }

    /** Opens, checks and maps a pipe someone else made. */
    private static Region open(Path path) throws IOException {
        Objects.requireNonNull(path, "path is null");
        if (!Native.SUPPORTED) {
            throw new UnsupportedOperationException("shared-memory pipes need Linux on x86_64 or aarch64");
        }
        // O_NONBLOCK: a FIFO at that path must not hang the open; it is refused below as not a regular file.
        int fd = Native.open(path.toString(), Native.O_RDWR | Native.O_CLOEXEC | Native.O_NONBLOCK);
        if (fd < 0) {
            throw new IOException("cannot open shared pipe " + path + ": " + Native.describe(-fd));
        }
        try {
            Native.Stat st = checkFile(fd, path);
            long size = st.size();
            Arena arena = Arena.ofShared();
            try {
                MemorySegment seg = map(Path.of("/proc/self/fd/" + fd), size, arena);
                Layout layout = Layout.check(seg, size, Procs.pidNamespace(), path.toString());
                int uid = seg.get(java.lang.foreign.ValueLayout.JAVA_INT, Layout.OFF_UID);
                if (uid != Native.geteuid()) {
                    throw new ShmPipeFormatException(path + " says it was made by user " + uid + ", not by this "
                            + "process's user " + Native.geteuid());
                }
                return new Region(arena, seg, layout, -1, "shared pipe " + path, new Region.Id(st.dev(), st.ino()));
            } catch (IOException | RuntimeException e) {
                arena.close();
                throw e;
            }
        } finally {
            Native.close(fd);
        }
    }

    /** @return what fstat says of the file, after checking that it is a regular file of this user that others
     *          cannot open, of a size a pipe can have */
    private static Native.Stat checkFile(int fd, Path path) throws IOException {
        int[] errno = new int[1];
        Native.Stat st = Native.fstat(fd, errno);
        if (st == null) {
            throw new IOException("cannot fstat shared pipe " + path + ": " + Native.describe(errno[0]));
        }
        if (!st.regular()) {
            throw new ShmPipeFormatException(path + " is not a regular file or memfd (mode 0"
                    + Integer.toOctalString(st.mode()) + ")");
        }
        int me = Native.geteuid();
        if (st.uid() != me) {
            throw new ShmPipeFormatException(path + " belongs to user " + st.uid() + ", not to this process's user "
                    + me + ": a shared pipe is only joined between processes of one user");
        }
        int seals = Native.fcntl(fd, Native.F_GET_SEALS, 0);
        boolean sealedMemfd = seals >= 0 && (seals & Native.F_SEAL_SHRINK) != 0;
        if (!sealedMemfd && (st.mode() & 077) != 0) {
            throw new ShmPipeFormatException(path + " can be opened by other users (mode 0"
                    + Integer.toOctalString(st.mode() & 0777) + "); a shared pipe's file must be 0600");
        }
        long max = new Layout(Layout.MAX_SLOTS, Layout.MAX_PROCS).totalBytes;
        if (st.size() < 2L * Layout.PAGE || st.size() > max) {
            throw new ShmPipeFormatException(path + " is " + st.size() + " bytes: not a Sluice shared-memory pipe"
                    + " (they are 16 KiB to " + max + " bytes)");
        }
        return st;
    }

    private static MemorySegment map(Path procFd, long size, Arena arena) throws IOException {
        // FileChannel.map rather than mmap(2) through FFM: the JDK unmaps when the arena closes and refuses any
        // access after that, so a bug here is an exception, never a fault.
        try (FileChannel ch = FileChannel.open(procFd, StandardOpenOption.READ, StandardOpenOption.WRITE)) {
            return ch.map(FileChannel.MapMode.READ_WRITE, 0, size, arena);
        }
    }

    // ---- handing over -------------------------------------------------------------------------------

    /**
     * Hands a handle of this pipe to another process, as a shell leaves a pipe end to a child and closes its
     * own copy: the handle is registered in that process's name (its pid and start time) and then closed here,
     * so the side never has a moment without an open handle. The process joins with
     * {@link #claim(Path, Duration)}; if it dies before, or after, the handle is reclaimed as any dead
     * process's. Handing over two handles of one side to one process gives it one.
     *
     * @param end     an open handle of this pipe
     * @param process the process that will claim it (typically {@code child.toHandle()})
     * @throws IllegalArgumentException if {@code end} is not this pipe's
     * @throws IOException              if the handle is closed, the process is not running, or the table is full
     */
    public void handOver(PipeEnd end, ProcessHandle process) throws IOException {
        Objects.requireNonNull(process, "process is null");
        if (!(end instanceof ShmEnd e) || e.pipe != this) {
            throw new IllegalArgumentException("not a handle of this pipe: " + end);
        }
        long id = Procs.idOf(process.pid());
        if (id == 0) {
            throw new IOException("cannot hand over to process " + process.pid() + ": it is not running");
        }
        if (id == Procs.self()) {
            throw new IllegalArgumentException("cannot hand a handle over to this process itself: use dup()");
        }
        e.enter();
        try {
            control.invite(id, e.delta());
        } finally {
            e.leave();
        }
        e.close();
    }

    /** @return where peers open this pipe: {@code /proc/<pid>/fd/<n>} of the creator's memfd, or the file */
    public Path path() {
        return path;
    }

    // ---- handles ------------------------------------------------------------------------------------

    @Override
    public ReadEnd reader() {
        return reader;
    }

    @Override
    public WriteEnd writer() {
        return writer;
    }

    void handleOpened(ShmEnd end) throws IOException {
        localHandles.incrementAndGet();
        try {
            control.addHandles(end.delta());
        } catch (IOException | RuntimeException e) {
            localHandles.decrementAndGet();
            throw e;
        }
    }

    void handleClosed(ShmEnd end) {
        try {
            if (region.acquire()) {
                try {
                    control.addHandles(-end.delta());
                    if (end.blocked.get() > 0) {
                        control.wakeAll(); // the blocked threads of this JVM see the close now, not in a slice
                    }
                } finally {
                    region.release();
                }
            }
        } catch (ShmPipeFormatException e) {
            // A corrupt table: this process leaves anyway; the others will find the pipe corrupt themselves.
        }
        settle();
        if (localHandles.decrementAndGet() == 0) {
            detach();
        }
    }

    private void detach() {
        if (!detached.compareAndSet(false, true)) {
            return;
        }
        leaveSiblings();
        PeerWatch.INSTANCE.forget(this);
        try {
            control.detach();
        } catch (ShmPipeFormatException e) {
            // as in handleClosed
        }
        try {
            lastStat = statNow();
        } catch (UncheckedIOException corrupt) {
            lastStat = new PipeStat(capacity(), region.layout.slots, -1, -1, -1, -1, created, created, created);
        }
        // Let this JVM's watchers see the detach and end, so the mapping can go.
        Native.futexWake(region.base + Layout.DATA_SEQ, Integer.MAX_VALUE);
        Native.futexWake(region.base + Layout.ROOM_SEQ, Integer.MAX_VALUE);
        region.close();
    }

    boolean detached() {
        return detached.get();
    }

    void scanPeers() {
        try {
            control.scanPeers();
        } catch (ShmPipeFormatException e) {
            // The waiters' own calls report it.
        }
    }

    /**
     * Called by a thread about to sleep (a watcher, or a direct futex waiter), after it read the sequence word
     * it will sleep on: has this JVM's {@link PeerWatch} watch this pipe's peers, and read the table again if a
     * process joined since it last did. A joining process bumps {@code PEERS} before it bumps the sequence
     * words, so a sleeper that misses the new {@code PEERS} here finds its sequence word moved and comes back.
     */
    void checkPeers() {
        if (region.getInt(Layout.PEERS) != peersSeen) {
            PeerWatch.INSTANCE.refresh(this);
        }
    }

    /** @return whether a peer's death wakes this pipe's waiters without their looking (see {@link PeerWatch}) */
    boolean peersWatched() {
        return peersWatched;
    }

    /** The {@link PeerWatch} read the table at {@code PEERS} = {@code gen}, and holds a pidfd per peer or not. */
    void peersLooked(int gen, boolean all) {
        peersWatched = all;
        peersSeen = gen;
    }

    /**
     * The {@link PeerWatch} saw a peer of this pipe exit: has its entry freed with its handles, waking every
     * waiter, on a platform thread of its own. The reclaim takes the pipe's lock, which a live peer stopped while
     * holding it ({@code SIGSTOP}, a debugger) could keep for ever: the watch of every other pipe must not wait
     * for that, and one such pipe holds up one thread, however often it is asked (a request made while a reclaim
     * runs has it run once more).
     */
    void reapSoon() {
        if (reapsAsked.getAndIncrement() == 0) {
            Thread.ofPlatform().daemon(true).name("sluice-shm-reap").start(() -> {
                int n;
                do {
                    n = reapsAsked.get();
                    reapDead();
                } while (!reapsAsked.compareAndSet(n, 0));
            });
        }
    }

    private void reapDead() {
        if (!region.acquire()) {
            return;
        }
        try {
            control.reclaim();
        } catch (ShmPipeFormatException e) {
            // The waiters' own calls report it.
        } finally {
            region.release();
        }
    }

    // ---- readiness futures ----------------------------------------------------------------------------

    /** Queues a future; {@link #settle()} or the handle's waiting thread completes it. */
    void addPending(Pending p) {
        pending.add(p);
        settle(); // the state may have changed between the caller's poll and the queueing
    }

    /**
     * Completes the queued futures whose handles are ready now, of every attachment of this JVM to the pipe's
     * memory: called after every call of this JVM that changes the pipe, so a future is complete when the read,
     * write or close that made it ready returns, whichever attachment the call went through.
     */
    void settle() {
        for (ShmPipe p : siblings) {
            p.settleOwn();
        }
    }

    private void settleOwn() {
        if (pending.isEmpty()) {
            return;
        }
        // Snapshot first, complete after: a callback may drain the pipe, and every future that this change made
        // ready must still say why it fired (as epoll reports each item with the bits that made it ready).
        // Completed before it leaves the queue: a settle running beside this one (a future's waiting thread, or
        // a call through another attachment) either still finds it there or finds it complete, so each returns
        // with every future it saw ready complete; completing twice is harmless, the first reason stays.
        List<Pending> ready = new ArrayList<>();
        List<dev.sluice.Readiness> why = new ArrayList<>();
        for (Pending p : pending) {
            dev.sluice.Readiness r = p.end().poll();
            if (p.future().isDone() || ShmEnd.isReady(p.end().isRead(), r)) {
                ready.add(p);
                why.add(r);
            }
        }
        for (int i = 0; i < ready.size(); i++) {
            ready.get(i).future().complete(why.get(i));
        }
        for (Pending p : ready) {
            if (pending.remove(p)) {
                LockSupport.unpark(p.waiter());
            }
        }
    }

    /** @return the watcher of a direction's futex word */
    Watcher watcher(boolean read) {
        return read ? dataWatcher : roomWatcher;
    }

    // ---- waiting ------------------------------------------------------------------------------------

    /** @return whether a read (or write) would not find the pipe empty (full) with the other side open */
    boolean ready(boolean read) {
        long used = region.occupancyRaw();
        if (used > region.layout.slots) {
            return true; // corrupt: let the call find it and say so
        }
        long h = region.getLong(Layout.HANDLES);
        return read ? used > 0 || Region.writers(h) == 0 : used < region.layout.slots || Region.readers(h) == 0;
    }

    int pollMask(boolean read) {
        int used = region.occupancyUnchecked();
        long h = region.getLong(Layout.HANDLES);
        if (read) {
            return (used > 0 ? POLLIN : 0) | (Region.writers(h) == 0 ? POLLHUP : 0);
        }
        return (used < region.layout.slots ? POLLOUT : 0) | (Region.readers(h) == 0 ? POLLERR : 0);
    }

    /**
     * Waits until a read (or write) may make progress, the handle is closed, or the call must give up. Returns
     * to let the caller try again; throws what the in-process pipe throws for an interrupt or a timeout.
     *
     * @param done bytes the call has moved, for the exceptions
     * @param what for messages: "read from an empty pipe", "write to a full pipe"
     */
    void await(ShmEnd end, boolean read, Deadline deadline, long done, String what) throws IOException {
        Thread t = Thread.currentThread();
        if (!end.isOpen()) {
            return;
        }
        if (t.isInterrupted()) {
            throw Failures.interrupted(what, done); // the stream convention: the status stays set
        }
        if (deadline.expired()) {
            throw Failures.timedOut(what, done);
        }
        // Every wait counts, however it ends (the kernel module counts every wait after EAGAIN): whether the spin
        // or the sleep ends it is the scheduler's choice.
        (read ? readerWaits : writerWaits).increment();
        SpinBudget budget = read ? readBudget : writeBudget;
        long spin = budget.next(spinNanos, t.isVirtual());
        long spunFrom = 0;
        if (spin > 0) {
            long start = System.nanoTime();
            if (WaitQueue.spinUntil(() -> ready(read), spin, deadline.nanos(), start)) {
                budget.succeeded();
                spunWaits.increment();
                return;
            }
            budget.failed();
            spunFrom = start;
        }
        long seqWord = read ? Layout.DATA_SEQ : Layout.ROOM_SEQ;
        long waitersWord = read ? Layout.DATA_WAITERS : Layout.ROOM_WAITERS;
        end.blocked.incrementAndGet();
        region.getAndAddInt(waitersWord, 1); // before the recheck: a waker that misses this count sees our change
        boolean normal = false;
        try {
            long sleptFrom = budget.adaptive() ? System.nanoTime() : 0;
            if (sleep(end, read, deadline, done, what, seqWord, t) && budget.adaptive()) {
                learn(budget, seqWord, sleptFrom, spunFrom);
            }
            normal = true;
        } finally {
            region.getAndAddInt(waitersWord, -1);
            end.blocked.decrementAndGet();
            if (!normal && ready(read)) {
                // We may have been the one woken for this change, and leave without using it: pass it on.
                if (read) {
                    control.wakeReaders(false);
                } else {
                    control.wakeWriters(false);
                }
            }
        }
    }

    /** @return whether the thread slept (parked, or in the futex) before it found the pipe ready or the end closed */
    private boolean sleep(ShmEnd end, boolean read, Deadline deadline, long done, String what, long seqWord,
                          Thread t) throws IOException {
        boolean slept = false;
        for (;;) {
            int seq = region.getInt(seqWord);
            if (ready(read) || !end.isOpen()) {
                return slept;
            }
            boolean slicePassed = false;
            if (DIRECT_FUTEX && !t.isVirtual()) {
                checkPeers(); // after reading seq: see checkPeers
                long slice = peersWatched ? Watcher.SAFETY_NANOS : SLICE_NANOS;
                if (deadline.nanos() != 0) {
                    slice = Math.min(slice, Math.max(1, deadline.nanos() - System.nanoTime()));
                }
                int res = FutexSleep.sleep(region, seqWord, seq, slice);
                slicePassed = res == -Native.ETIMEDOUT;
                slept |= res == 0;
            } else {
                slept |= park(read, seq, deadline, seqWord);
            }
            if (ready(read) || !end.isOpen()) {
                return slept;
            }
            if (t.isInterrupted()) {
                throw Failures.interrupted(what, done);
            }
            if (deadline.nanos() != 0 && System.nanoTime() - deadline.nanos() >= 0) {
                throw Failures.timedOut(what, done);
            }
            if (slicePassed && !peersWatched) {
                control.scanPeers(); // a peer killed with -9 cannot wake us, and no pidfd will: look now and then
            }
        }
    }

    /**
     * Feeds the side's spin budget what a sleep that ended ready tells: what the wake-up cost, from the waker's
     * stamp ({@link Layout#DATA_WOKEN_AT}) to now, and, after a spin that ran out, how long the wait really
     * was (a narrow miss takes the failure back). A stamp from before this sleep, or an implausible one (a
     * peer that does not stamp, another wake-up's), teaches nothing.
     */
    private void learn(SpinBudget budget, long seqWord, long sleptFrom, long spunFrom) {
        long at = region.getLong(Layout.wokenAt(seqWord));
        long cost = System.nanoTime() - at;
        if (at - sleptFrom < 0 || cost < 0 || cost > MAX_WAKE_NANOS) {
            return;
        }
        budget.woke(cost);
        if (spunFrom != 0) {
            budget.missed(at - spunFrom, spinNanos);
        }
    }

    /**
     * A sleep parked, with this JVM's watcher in the futex for it.
     *
     * @return whether the thread parked (it did not find the word moved first)
     */
    private boolean park(boolean read, int seq, Deadline deadline, long seqWord) {
        Watcher w = read ? dataWatcher : roomWatcher;
        Watcher.Waiter me = w.register(seq, true);
        try {
            if (region.getInt(seqWord) != seq || ready(read)) {
                return false; // changed before the watcher could have seen us registered
            }
            long max = Watcher.SAFETY_NANOS; // only against a lost unpark: the watcher wakes us on every change
            long nanos = deadline.nanos() == 0 ? max : Math.min(max, deadline.nanos() - System.nanoTime());
            if (nanos <= 0) {
                return false;
            }
            LockSupport.parkNanos(this, nanos);
            return true;
        } finally {
            w.deregister(me);
        }
    }

    // ---- the rest of Pipe ---------------------------------------------------------------------------

    void countRead(long n) {
        settle();
        readCalls.increment();
        if (n > 0) {
            bytesRead.add(n);
        }
    }

    void countWrite(long n) {
        settle();
        writeCalls.increment();
        bytesWritten.add(n);
    }

    @Override
    public int capacity() {
        return region.layout.slots * Layout.PAGE;
    }

    /**
     * The capacity of a shared pipe is fixed when it is made (see the class documentation). Bad sizes are refused
     * as Linux refuses them; a size that rounds to the current one is accepted; any other is unsupported.
     *
     * @param bytes wanted capacity
     * @return the capacity, if {@code bytes} rounds to it
     * @throws IllegalArgumentException      if {@code bytes} is negative or above the largest allowed size
     * @throws IllegalStateException         if fewer slots than hold data are asked for ({@code EBUSY})
     * @throws UnsupportedOperationException if {@code bytes} asks for another size
     */
    @Override
    public int setCapacity(int bytes) {
        if (bytes > maxCapacity) {
            throw new IllegalArgumentException("capacity " + bytes + " exceeds this pipe's maxCapacity of "
                    + maxCapacity + " bytes (Linux: EPERM over pipe-max-size)");
        }
        int want = Checks.roundCapacity(bytes, maxCapacity, "capacity");
        if (want == capacity()) {
            return want;
        }
        if (region.acquire()) {
            try {
                int used = region.occupancyUnchecked();
                if (want / Layout.PAGE < used) {
                    throw new IllegalStateException("cannot shrink to " + want + " bytes: " + used
                            + " slots hold data (EBUSY)");
                }
            } finally {
                region.release();
            }
        }
        throw new UnsupportedOperationException("the capacity of a shared-memory pipe is fixed when it is made ("
                + capacity() + " bytes): every process has mapped the ring at that size");
    }

    /** {@inheritDoc} Readers and writers are every process's open handles. */
    @Override
    public PipeStat stat() {
        if (!region.acquire()) {
            return lastStat; // this process has left the pipe: its state as it left
        }
        try {
            return statNow();
        } finally {
            region.release();
        }
    }

    private PipeStat statNow() {
        long h = region.getLong(Layout.HANDLES);
        long queued;
        try {
            queued = ring.queued();
        } catch (ShmPipeFormatException e) {
            throw new UncheckedIOException(e);
        }
        return new PipeStat(capacity(), region.layout.slots, region.occupancyUnchecked(), queued,
                Region.readers(h), Region.writers(h), created, created, created);
    }

    /**
     * {@inheritDoc} This attachment's counts: bytes, calls, waits, waits its spin ended, and wake-ups as the
     * {@code FUTEX_WAKE} calls it made for the other side's sleepers (a wake-up for a side that only spins
     * costs a store, and is not counted). Empty wake-ups, lock contention, pages and the peak are -1.
     */
    @Override
    public PipeCounters counters() {
        return new PipeCounters(bytesWritten.sum(), bytesRead.sum(), writeCalls.sum(), readCalls.sum(),
                readerWaits.sum(), writerWaits.sum(), control.readerWakeups.sum(), control.writerWakeups.sum(), -1,
                spunWaits.sum(), -1, -1, -1, -1);
    }

    @Override
    public void resetCounters() {
        bytesWritten.reset();
        bytesRead.reset();
        writeCalls.reset();
        readCalls.reset();
        readerWaits.reset();
        writerWaits.reset();
        spunWaits.reset();
        control.readerWakeups.reset();
        control.writerWakeups.reset();
    }

    @Override
    public String toString() {
        return "ShmPipe[" + path + ", " + capacity() + " bytes]";
    }
}
