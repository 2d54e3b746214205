package dev.sluice.kernel;

import static java.lang.foreign.ValueLayout.JAVA_INT;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.concurrent.locks.ReentrantLock;

/**
 * A child process whose standard streams, and any other descriptor, can be ends of kernel pipes: the
 * building block of {@code producer | consumer} pipelines, of protocols that pass pipes by number (GNU
 * make's jobserver), and of splicing a child's output into a file without a copy through Java. It is a
 * {@link Process}, so code written for {@link ProcessBuilder}'s children runs on it.
 *
 * <pre>{@code
 * KernelPipe p = KernelPipe.open();
 * KernelProcess ls = KernelProcess.command("ls", "-l").directory(Path.of("/tmp"))
 *         .putEnv("LC_ALL", "C").stdout(p.writer()).start();         // hands p.writer() over
 * try (KernelFile f = KernelFile.open(Path.of("ls.txt"), WRITE, CREATE, TRUNCATE_EXISTING)) {
 *     KernelSplice.drain(p.reader(), f);
 * }
 * int status = ls.waitFor();                                          // as $? in a shell
 * }</pre>
 *
 * <p>The {@link KernelProcessBuilder builder} sets the environment (inherited unless changed), the
 * working directory, each standard stream (a pipe end, a file to read, write or append to, or the JVM's
 * own), stderr merged into stdout, and extra descriptors: {@code fd(3, pipe.reader())} gives the child
 * that end as its descriptor 3.
 *
 * <p><b>How.</b> {@code posix_spawnp(3)} (vfork and exec in glibc, safe in a multithreaded JVM) with file
 * actions: {@code dup2} moves each given pipe end onto its number (a new, <em>blocking</em> open file
 * description of the same pipe, opened through {@code /proc/self/fd}: this module's own descriptors are
 * {@code O_NONBLOCK}, a flag a plain {@code dup} would share with the child, and most programs fail on
 * {@code EAGAIN}; packet mode is kept), then every other descriptor of the JVM is closed in the child, so
 * it holds exactly what it was given. Files are opened in this JVM, so a missing one fails {@code start()}
 * with its own name. Signal dispositions are reset to default and the signal mask emptied, so a writer
 * into a closed pipe dies of SIGPIPE as it would under a shell.
 *
 * <p><b>Handing over.</b> A pipe end given to the builder is <em>handed over</em>: a successful
 * {@code start()} closes this JVM's handle once the child has its copy, as a shell closes its copies
 * after forking. That is what makes end-of-stream and broken pipe behave as in a shell: the reader sees
 * EOF when the child exits, not when the JVM happens to close its handle. Keep a {@code dup()} if this
 * JVM must keep using the pipe too. A refused {@code start()} closes nothing and starts nothing.
 *
 * <p><b>Exit.</b> The child is reaped as soon as it exits, whether or not anyone waits (a {@code pidfd}
 * is watched by the module's poller thread), so no zombie is left behind. {@link #waitFor()} returns the
 * status the way a shell reports {@code $?}, and the way {@link ProcessBuilder}'s children on Linux
 * report it: the exit code, or 128 + the signal number. Waits park the thread, so they can be interrupted
 * and do not pin a virtual thread. {@link #onExit()} completes on a pool thread, never on the poller.
 *
 * <p><b>Streams.</b> The child's streams are what the builder gave it; {@link #getInputStream()},
 * {@link #getErrorStream()} and {@link #getOutputStream()} are null streams, as they are for a
 * {@code ProcessBuilder} stream that is redirected.
 */
public final class KernelProcess extends Process {
    /** Linux's highest signal number ({@code SIGRTMAX}, {@code _NSIG - 1}). */
    static final int SIGRTMAX = 64;

    private static final InputStream NULL_IN = InputStream.nullInputStream();
    private static final OutputStream NULL_OUT = new OutputStream() {
        @Override
        public void write(int b) throws IOException {
            throw new IOException("Stream closed: the child's standard input is what its builder gave it");
        }
    };

    private final int pid;
    private final String program;
    /**
     * The child's pidfd, readable once it exits: opened by the first wait or by the watcher, not by
     * {@code start()} (one native call less to link on the caller's first start); null until then, and
     * on a kernel without {@code pidfd_open}. Opened under the reap lock before the reap, so the pid is
     * still this child's.
     */
    private volatile FdCell pidfd;
    private volatile boolean pidfdTried;
    private volatile int status = -1;
    private final ReentrantLock reapLock = new ReentrantLock();
    /** Completed by the reap; users get copies of it, so none of them can complete it for the others. */
    private final CompletableFuture<KernelProcess> exit = new CompletableFuture<>();
    /** The JDK's handle of the child, made before it is reaped (afterwards its pid may be another's). */
    private volatile ProcessHandle handle;

    KernelProcess(int pid, String program) {
        this.pid = pid;
        this.program = program;
    }

    /**
     * Starts building a child process; the program is looked up on the JVM's {@code PATH} as
     * {@code execvp} does.
     *
     * @param argv the program and its arguments
     * @return a builder
     * @throws IllegalArgumentException if {@code argv} is empty or a string cannot be passed as a C string
     *                                  (a NUL, a lone surrogate, or longer than Linux takes)
     */
    public static KernelProcessBuilder command(String... argv) {
        return new KernelProcessBuilder(List.of(argv));
    }

    /**
     * A builder for a child running {@code argv}, given as a list.
     *
     * @param argv the program and its arguments
     * @return a builder
     * @throws IllegalArgumentException as {@link #command(String...)}
     */
    public static KernelProcessBuilder command(List<String> argv) {
        return new KernelProcessBuilder(List.copyOf(argv));
    }

    /**
     * Starts watching the child, so that it is reaped, and {@link #onExit()} completed, as soon as it
     * exits. The work (a pidfd, its registration with the poller) runs on a pool thread, off the path of
     * {@code start()}: the first start in a JVM then links no more native calls than the spawn needs.
     */
    void watch() {
        Watching.POOL.execute(new Runnable() { // not a lambda: see the note in LibC
            @Override
            public void run() {
                watchNow();
            }
        });
    }

    /** One daemon thread that ends when idle: it only opens pidfds and registers them. */
    private static final class Watching {
        static final java.util.concurrent.ThreadPoolExecutor POOL = new java.util.concurrent.ThreadPoolExecutor(
                1, 1, 5, TimeUnit.SECONDS, new java.util.concurrent.LinkedBlockingQueue<>(),
                Thread.ofPlatform().daemon(true).name("sluice-kernel-reaper").factory());

        static {
            POOL.allowCoreThreadTimeOut(true);
        }
    }

    private void watchNow() {
        FdCell fd = pidfd();
        if (fd == null) {
            if (status < 0) {
                // No pidfd (a kernel before 5.3): the JDK's handle watches it; it does not reap, so reap then.
                ProcessHandle.of(pid).ifPresentOrElse(h -> h.onExit().thenRun(this::tryReap), this::tryReap);
            }
            return;
        }
        if (!fd.tryAcquire()) {
            return; // reaped already
        }
        try {
            if (!tryReap()) {
                fd.addReadyWaiter(new FdCell.ReadyWaiter<>(new CompletableFuture<>(),
                        c -> tryReap() ? Boolean.TRUE : null, Boolean.TRUE));
            }
        } finally {
            fd.release();
        }
    }

    /** @return the pidfd, opened on first use while the child is not reaped; null if there is none */
    private FdCell pidfd() {
        FdCell fd = pidfd;
        if (fd != null || pidfdTried) {
            return fd;
        }
        reapLock.lock();
        try {
            if (!pidfdTried && status < 0) {
                pidfdTried = true;
                int r = LibC.pidfdOpen(pid);
                if (r >= 0) {
                    pidfd = new FdCell(r, LibC.EPOLLIN);
                }
            }
            return pidfd;
        } finally {
            reapLock.unlock();
        }
    }

    @Override
    public long pid() {
        return pid;
    }

    @Override
    public boolean isAlive() {
        return status < 0 && !tryReap();
    }

    /**
     * Waits for the child to exit.
     *
     * @return the exit status as a shell reports it: the exit code, or 128 + the number of the signal that
     *         ended it
     * @throws InterruptedException if the waiting thread is interrupted (the child keeps running)
     */
    @Override
    public int waitFor() throws InterruptedException {
        return waitNanos(0);
    }

    /**
     * Waits at most {@code timeout} for the child to exit.
     *
     * @param timeout how long to wait
     * @param unit    its unit
     * @return whether the child has exited
     * @throws InterruptedException if the waiting thread is interrupted
     */
    @Override
    public boolean waitFor(long timeout, TimeUnit unit) throws InterruptedException {
        long n = unit.toNanos(timeout);
        if (n <= 0) {
            return !isAlive();
        }
        return waitNanos(n) >= 0;
    }

    /** @return the status, or -1 if {@code timeoutNanos} (0: none) passed first */
    private int waitNanos(long timeoutNanos) throws InterruptedException {
        long deadline = timeoutNanos == 0 ? 0 : System.nanoTime() + timeoutNanos;
        if (deadline == 0 && timeoutNanos != 0) {
            deadline = 1;
        }
        for (;;) {
            if (status >= 0 || tryReap()) {
                return status;
            }
            if (Thread.interrupted()) {
                throw new InterruptedException("interrupted while waiting for process " + pid + " (" + program + ")");
            }
            if (deadline != 0 && System.nanoTime() - deadline >= 0) {
                return -1;
            }
            FdCell fd = pidfd();
            if (fd != null && fd.tryAcquire()) {
                try {
                    fd.park(deadline);
                } finally {
                    fd.release();
                }
            } else if (status < 0) {
                LockSupport.parkNanos(1_000_000); // no pidfd: look again each millisecond
            }
        }
    }

    /**
     * @return the exit status, as {@link #waitFor()} reports it
     * @throws IllegalThreadStateException if the child has not exited
     */
    @Override
    public int exitValue() {
        if (status >= 0 || tryReap()) {
            return status;
        }
        throw new IllegalThreadStateException("process " + pid + " (" + program + ") has not exited");
    }

    /**
     * A future completed, on a pool thread, with this process once it has exited and been reaped.
     * Cancelling it does not affect the process, nor the futures of other callers.
     *
     * @return a new future for each call
     */
    @Override
    public CompletableFuture<Process> onExit() {
        return exit.thenApplyAsync(p -> p);
    }

    /**
     * @return the JDK's handle of the child: {@link ProcessHandle#isAlive()}, its {@code info()},
     *         {@code children()}; made while the child's pid was still its own
     */
    @Override
    public ProcessHandle toHandle() {
        ProcessHandle h = handle;
        if (h != null) {
            return h;
        }
        reapLock.lock();
        try {
            return handleLocked();
        } finally {
            reapLock.unlock();
        }
    }

    /** Makes the handle if it is not made yet; called with the reap lock held, before any reap. */
    private ProcessHandle handleLocked() {
        if (handle == null && status < 0) {
            // Not reaped yet, so the pid is still this child's (a zombie at worst): the handle records its
            // start time, which keeps it from ever matching a later process that reuses the pid.
            handle = ProcessHandle.of(pid).orElse(null);
        }
        ProcessHandle h = handle;
        if (h == null) {
            throw new IllegalStateException("process " + pid + " (" + program + ") has no handle: /proc shows no "
                    + "such process");
        }
        return h;
    }

    private boolean tryReap() {
        // A lock, not a monitor (no monitors in this library): reaping and kill must not interleave, or a
        // signal could reach a new process that reused the pid.
        reapLock.lock();
        try (Arena arena = Arena.ofConfined()) {
            if (status >= 0) {
                return true;
            }
            if (handle == null) {
                try {
                    handleLocked();
                } catch (IllegalStateException noProc) {
                    // /proc not mounted: toHandle() will say so; reaping does not need it
                }
            }
            MemorySegment st = arena.allocate(JAVA_INT);
            int r = LibC.waitpidNoHang(pid, st);
            if (r == pid) {
                int raw = st.get(JAVA_INT, 0);
                int sig = raw & 0x7f;
                status = sig == 0 ? (raw >> 8) & 0xff : 128 + sig;
            } else if (r == -LibC.ECHILD) {
                // Reaped by someone else (SIGCHLD set to SIG_IGN, or a waitpid(-1) in native code): the
                // status is lost; report 0, as the JDK does for its own children in that case.
                status = 0;
            } else if (r < 0) {
                throw new IllegalStateException("waitpid(" + pid + ", WNOHANG) for " + program + " failed: "
                        + LibC.describe(-r));
            } else {
                return false;
            }
        } finally {
            reapLock.unlock();
        }
        FdCell fd = pidfd;
        if (fd != null) {
            fd.close();
        }
        exit.complete(this);
        return true;
    }

    /**
     * Sends a signal to the child ({@code kill(2)}), unless it has been reaped already (its pid may belong
     * to another process by then).
     *
     * @param signal the signal number, 0 to 64 (e.g. 15 for SIGTERM, 9 for SIGKILL; 0 sends none)
     * @throws IllegalArgumentException if Linux has no such signal
     * @throws IllegalStateException    if {@code kill(2)} fails (EPERM: a set-user-ID child)
     */
    public void kill(int signal) {
        if (signal < 0 || signal > SIGRTMAX) {
            throw new IllegalArgumentException("no such signal: " + signal + " (Linux signals are 1 to " + SIGRTMAX
                    + ", and 0 checks that the process exists)");
        }
        reapLock.lock();
        try {
            if (status < 0) {
                int r = LibC.kill(pid, signal);
                if (r < 0 && r != -LibC.ESRCH) {
                    throw new IllegalStateException("kill(" + pid + ", " + signal + ") of " + program + " failed: "
                            + LibC.describe(-r));
                }
            }
        } finally {
            reapLock.unlock();
        }
    }

    /** Asks the child to end: SIGTERM, as {@link Process#destroy()} does on Linux. */
    @Override
    public void destroy() {
        signalQuietly(15);
    }

    /**
     * Ends the child: SIGKILL.
     *
     * @return this process
     */
    @Override
    public KernelProcess destroyForcibly() {
        signalQuietly(9);
        return this;
    }

    private void signalQuietly(int signal) {
        try {
            kill(signal);
        } catch (IllegalStateException e) {
            // As Process.destroy: best effort (a set-user-ID child may refuse the signal).
        }
    }

    @Override
    public boolean supportsNormalTermination() {
        return true;
    }

    /** @return a null stream: the child's standard input is what its builder gave it */
    @Override
    public OutputStream getOutputStream() {
        return NULL_OUT;
    }

    /** @return a null stream: the child's standard output is what its builder gave it */
    @Override
    public InputStream getInputStream() {
        return NULL_IN;
    }

    /** @return a null stream: the child's standard error is what its builder gave it */
    @Override
    public InputStream getErrorStream() {
        return NULL_IN;
    }

    @Override
    public String toString() {
        int s = status;
        return "KernelProcess[pid " + pid + ", " + program + (s >= 0 ? ", exited " + s : "") + "]";
    }
}
