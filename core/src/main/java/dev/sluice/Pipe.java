package dev.sluice;

/**
 * A pipe with the semantics of a Linux pipe: a read end and a write end between any number of writer and
 * reader threads, platform or virtual.
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
 * <p>{@link #open()} makes Sluice's in-process pipe, a ring of 4 KiB pages built like fs/pipe.c; the
 * {@code sluice-kernel} module opens real kernel pipes behind the same interface. What matches Linux, and
 * where to read about it:
 * <ul>
 *   <li>capacity is counted in page slots; small writes merge into the newest page, so sixteen 1-byte
 *       writes take one slot ({@link WriteEnd});</li>
 *   <li>writes of at most {@link #PIPE_BUF} bytes are atomic ({@link WriteEnd});</li>
 *   <li>reads return what is there, -1 at end-of-stream, 0 when nonblocking and empty ({@link ReadEnd});</li>
 *   <li>end-of-stream and broken pipe follow the <em>handles</em>, not threads ({@link PipeEnd});</li>
 *   <li>capacity can be read and changed while in use ({@link #capacity()}, {@link #setCapacity});</li>
 *   <li>readiness bits and a readiness future ({@link PipeEnd#poll()}, {@link PipeEnd#whenReady()});</li>
 *   <li>packet mode, timestamps, shared page accounting ({@link PipeOptions});</li>
 *   <li>splice, tee and gifted buffers between in-process pipes, and transfers to channels ({@link Splice}).</li>
 * </ul>
 * The in-process pipe's blocking calls park the thread (no monitor locks, no monitor waits), so virtual
 * threads never pin a carrier. Its {@code Pipe} object holds no resources: closing both sides' handles
 * releases the pages.
 */
public interface Pipe extends AutoCloseable {
    /** Bytes in a page slot. */
    int PAGE_SIZE = 4096;
    /** Writes of at most this many bytes are atomic (POSIX {@code PIPE_BUF}; 4096 on Linux). */
    int PIPE_BUF = 4096;

    /**
     * Opens an in-process pipe with {@link PipeOptions#defaults()}: 64 KiB, blocking, no timestamps.
     *
     * @return the new pipe, both ends open
     */
    static Pipe open() {
        return open(PipeOptions.defaults());
    }

    /**
     * Opens an in-process pipe ({@code pipe2(2)}).
     *
     * @param options capacity, modes, policies and limits
     * @return the new pipe, both ends open
     * @throws PipeLimitException if the shared page account is over its hard limit
     */
    static Pipe open(PipeOptions options) {
        java.util.Objects.requireNonNull(options, "options is null (use PipeOptions.defaults())");
        PipeAccounting account = options.accounting();
        return new dev.sluice.internal.engine.InProcessPipe(options, account == null ? null : account.charging());
    }

    /** {@return the read handle the pipe was opened with; {@link ReadEnd#dup()} and {@code reopen()} make more} */
    ReadEnd reader();

    /** {@return the write handle the pipe was opened with; {@link WriteEnd#dup()} makes more} */
    WriteEnd writer();

    /** {@return capacity in bytes ({@code F_GETPIPE_SZ}); a power-of-two number of pages} */
    int capacity();

    /**
     * Changes the capacity while the pipe is in use ({@code F_SETPIPE_SZ}). The size is rounded up as Linux
     * rounds it: below a page to one page, else to a power-of-two number of pages. Queued bytes are kept in
     * order; blocked writers are woken if there is more room. On any failure nothing changes. The same as
     * {@link #setCapacity(long) setCapacity((long) bytes)}.
     *
     * @param bytes wanted capacity
     * @return the capacity now in force, in bytes
     * @throws IllegalArgumentException if {@code bytes} is negative or above the largest allowed size
     *                                  ({@code EPERM}; for the in-process pipe
     *                                  {@link PipeOptions#maxCapacity()})
     * @throws IllegalStateException    if more pages hold data than would fit ({@code EBUSY}), or the
     *                                  pipe is closed on both sides
     * @throws PipeLimitException       if growing would exceed the shared account's limits ({@code EPERM})
     */
    int setCapacity(int bytes);

    /**
     * {@link #setCapacity(int)} for any size {@code F_SETPIPE_SZ} takes, an unsigned 32-bit one: up to
     * 2<sup>32</sup> − 1 bytes. A size above the largest pipe allowed fails as any size above the maximum
     * does, with {@link IllegalArgumentException} ({@code EPERM}), and so does one above 2<sup>32</sup> − 1
     * (which {@code fcntl} would cut to its low 32 bits); negative sizes are refused. On any failure nothing
     * changes.
     *
     * <p>The default implementation refuses what an {@code int} cannot hold and passes the rest to
     * {@link #setCapacity(int)}; Sluice's pipes refuse with the same message either way.
     *
     * @param bytes wanted capacity
     * @return the capacity now in force, in bytes
     * @throws IllegalArgumentException if {@code bytes} is negative or above the largest allowed size
     * @throws IllegalStateException    as {@link #setCapacity(int)}
     * @throws PipeLimitException       as {@link #setCapacity(int)}
     */
    default int setCapacity(long bytes) {
        if (bytes < 0) {
            throw new IllegalArgumentException("capacity must not be negative, was " + bytes);
        }
        if (bytes > Integer.MAX_VALUE) {
            throw new IllegalArgumentException("capacity " + bytes
                    + " exceeds the largest pipe this implementation allows (Linux: EPERM over pipe-max-size)");
        }
        return setCapacity((int) bytes);
    }

    /** {@return a snapshot of sizes, handles and times ({@code fstat})} */
    PipeStat stat();

    /**
     * A snapshot of the pipe's counters. The in-process pipe counts everything; a kernel pipe counts what
     * its Java side sees (bytes, calls, waits) and reports what only the kernel knows (wake-ups, pages,
     * lock contention) as -1.
     *
     * @return the counters since opening or the last {@link #resetCounters()}
     */
    PipeCounters counters();

    /** Zeroes the counters; the peak occupancy restarts from the current occupancy. */
    void resetCounters();

    /**
     * Closes the two handles the pipe was opened with, {@link #reader()} and {@link #writer()}. Handles made
     * from them with {@code dup()} or {@code reopen()} are not closed: each is closed on its own, and a side
     * stays open, as on Linux, until its last handle is. So a {@code try (Pipe p = Pipe.open()) {...}} block
     * that hands no handle on leaves nothing open. Closing twice does nothing.
     */
    @Override
    default void close() {
        reader().close();
        writer().close();
    }

    /**
     * The options of an in-process pipe, for code that wants to know its policies.
     *
     * @return the options the pipe was opened with, or {@code null} for a pipe that has none (a kernel pipe)
     */
    default PipeOptions options() {
        return null;
    }
}
