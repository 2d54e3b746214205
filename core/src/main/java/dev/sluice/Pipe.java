package dev.sluice;

import dev.sluice.ring.PageRing;

/**
 * An in-process pipe with the semantics of a Linux pipe: a ring of 4 KiB pages between any number of
 * writer and reader threads, platform or virtual.
 *
 * <pre>{@code
 * Pipe pipe = Pipe.open();                       // pipe(2): 16 pages, 64 KiB, blocking
 * try (WriteEnd out = pipe.writer(); ReadEnd in = pipe.reader()) {
 *     Thread.ofVirtual().start(() -> { ... out.write(bytes); out.close(); });   // EOF for the reader
 *     byte[] buf = new byte[8192];
 *     for (int n; (n = in.read(buf)) != -1; ) { ... }
 * }
 * }</pre>
 *
 * <p>What matches Linux, and where to read about it:
 * <ul>
 *   <li>capacity is counted in page slots; small writes merge into the newest page, so sixteen 1-byte
 *       writes take one slot ({@link WriteEnd});</li>
 *   <li>writes of at most {@link #PIPE_BUF} bytes are atomic ({@link WriteEnd});</li>
 *   <li>reads return what is there, -1 at end-of-stream, 0 when nonblocking and empty ({@link ReadEnd});</li>
 *   <li>end-of-stream and broken pipe follow the <em>handles</em>, not threads ({@link PipeEnd});</li>
 *   <li>capacity can be read and changed while in use ({@link #capacity()}, {@link #setCapacity});</li>
 *   <li>readiness bits and a readiness future ({@link PipeEnd#poll()}, {@link PipeEnd#whenReady()});</li>
 *   <li>packet mode, timestamps, shared page accounting ({@link PipeOptions}).</li>
 * </ul>
 * Blocking calls park the thread (no monitor locks, no monitor waits), so virtual threads
 * never pin a carrier.
 *
 * <p>The {@code Pipe} object itself holds no resources: closing both sides' handles releases the pages.
 */
public final class Pipe {
    /** Bytes in a page slot. */
    public static final int PAGE_SIZE = PageRing.PAGE_SIZE;
    /** Writes of at most this many bytes are atomic (POSIX {@code PIPE_BUF}; 4096 on Linux). */
    public static final int PIPE_BUF = 4096;

    private final PipeCore core;
    private final ReadEnd reader;
    private final WriteEnd writer;

    private Pipe(PipeOptions options) {
        this.core = new PipeCore(options);
        this.reader = new ReadEnd(core, this, options.nonBlockingRead());
        this.writer = new WriteEnd(core, this, options.nonBlockingWrite(), options.packetMode());
    }

    /**
     * Opens a pipe with {@link PipeOptions#defaults()}: 64 KiB, blocking, no timestamps.
     *
     * @return the new pipe, both ends open
     */
    public static Pipe open() {
        return new Pipe(PipeOptions.defaults());
    }

    /**
     * Opens a pipe ({@code pipe2(2)}).
     *
     * @param options capacity, modes and limits
     * @return the new pipe, both ends open
     * @throws PipeLimitException if the shared page account is over its hard limit
     */
    public static Pipe open(PipeOptions options) {
        java.util.Objects.requireNonNull(options, "options is null (use PipeOptions.defaults())");
        return new Pipe(options);
    }

    /** @return the read handle the pipe was opened with; {@link ReadEnd#dup()} makes more */
    public ReadEnd reader() {
        return reader;
    }

    /** @return the write handle the pipe was opened with; {@link WriteEnd#dup()} makes more */
    public WriteEnd writer() {
        return writer;
    }

    /** @return the options the pipe was opened with */
    public PipeOptions options() {
        return core.options;
    }

    /** @return capacity in bytes ({@code F_GETPIPE_SZ}); a power-of-two number of pages */
    public int capacity() {
        return core.capacity();
    }

    /**
     * Changes the capacity while the pipe is in use ({@code F_SETPIPE_SZ}). The size is rounded up as Linux
     * rounds it: below a page to one page, else to a power-of-two number of pages. Queued bytes are kept in
     * order; blocked writers are woken if there is more room. On any failure nothing changes.
     *
     * @param bytes wanted capacity
     * @return the capacity now in force, in bytes
     * @throws IllegalArgumentException if {@code bytes} is negative or above the pipe's
     *                                  {@link PipeOptions#maxCapacity()} ({@code EPERM})
     * @throws IllegalStateException    if more pages hold data than would fit ({@code EBUSY}), or the
     *                                  pipe is closed on both sides
     * @throws PipeLimitException       if growing would exceed the shared account's limits ({@code EPERM})
     */
    public int setCapacity(int bytes) {
        return core.setCapacity(bytes);
    }

    /** @return a snapshot of sizes, handles and times ({@code fstat}) */
    public PipeStat stat() {
        return core.stat();
    }

    /** @return a snapshot of the pipe's counters */
    public PipeCounters counters() {
        return core.counters();
    }

    /** Zeroes the counters; the peak occupancy restarts from the current occupancy. */
    public void resetCounters() {
        core.resetCounters();
    }

    @Override
    public String toString() {
        PipeStat s = stat();
        return "Pipe[capacity=" + s.capacity() + ", queued=" + s.bytesQueued() + " bytes in " + s.slotsUsed()
                + " slots, readers=" + s.readers() + ", writers=" + s.writers() + "]";
    }

    /**
     * Linux's {@code round_pipe_size}: below one page gives one page, else the next power of two.
     *
     * @throws IllegalArgumentException if {@code bytes} is negative or above {@code max}
     */
    static int roundCapacity(int bytes, int max, String what) {
        if (bytes < 0) {
            throw new IllegalArgumentException(what + " must not be negative, was " + bytes);
        }
        if (bytes > max) {
            throw new IllegalArgumentException(what + " " + bytes + " exceeds the largest pipe of " + max + " bytes");
        }
        if (bytes <= PAGE_SIZE) {
            return PAGE_SIZE;
        }
        int p = Integer.highestOneBit(bytes);
        return p == bytes ? bytes : p << 1;
    }
}
