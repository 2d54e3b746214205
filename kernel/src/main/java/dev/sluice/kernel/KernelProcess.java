package dev.sluice.kernel;

import static java.lang.foreign.ValueLayout.JAVA_INT;

import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.channels.ClosedChannelException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * A child process whose standard input, output or error is an end of a kernel pipe: the building block of
 * {@code producer | consumer} pipelines, and of splicing a child's output into a file without a copy
 * through Java.
 *
 * <pre>{@code
 * KernelPipe p = KernelPipe.open();
 * KernelProcess ls = KernelProcess.command("ls", "-l").stdout(p.writer()).start();  // hands p.writer() over
 * try (KernelFile f = KernelFile.open(Path.of("ls.txt"), WRITE, CREATE, TRUNCATE_EXISTING)) { KernelSplice.drain(p.reader(), f); }
 * int status = ls.waitFor();                                                         // as $? in a shell
 * }</pre>
 *
 * <p><b>How.</b> {@code posix_spawnp(3)} (vfork and exec in glibc, safe in a multithreaded JVM) with file
 * actions: {@code dup2} moves each given pipe end onto 0, 1 or 2 (a new, <em>blocking</em> open file
 * description of the same pipe, opened through {@code /proc/self/fd}: this module's own descriptors are
 * {@code O_NONBLOCK}, a flag a plain {@code dup} would share with the child, and most programs fail on
 * {@code EAGAIN}; packet mode is kept), then
 * {@code addclosefrom_np(3)} closes every other descriptor the JVM has, so the child holds exactly what
 * it was given. Signal dispositions are reset to default and the signal mask emptied, so a writer into a
 * closed pipe dies of SIGPIPE as it would under a shell (the JVM's own handling does not leak into it).
 * A stream not given is inherited from the JVM.
 *
 * <p><b>Handing over.</b> An end passed to {@link Builder#stdin}, {@link Builder#stdout} or
 * {@link Builder#stderr} is <em>handed over</em>: {@link Builder#start()} closes this JVM's handle once
 * the child has its copy, as a shell closes its copies after forking. That is what makes end-of-stream
 * and broken pipe behave as in a shell: the reader sees EOF when the child exits, not when the JVM
 * happens to close its handle. Keep a {@code dup()} if this JVM must keep writing too.
 *
 * <p><b>Exit status.</b> {@link #waitFor()} reaps the child with {@code waitpid(2)} and returns the status
 * the way a shell reports {@code $?}: the exit code, or 128 + the signal number. The wait parks the
 * thread (a {@code pidfd} is watched by the same poller as the pipes), so it can be interrupted and does
 * not pin a virtual thread. A child must be waited for, or it stays a zombie until the JVM exits.
 */
public final class KernelProcess {
    private final int pid;
    private final FdCell pidfd;
    private volatile int status = -1;
    private final java.util.concurrent.locks.ReentrantLock reapLock = new java.util.concurrent.locks.ReentrantLock();

    private KernelProcess(int pid, FdCell pidfd) {
        this.pid = pid;
        this.pidfd = pidfd;
    }

    /**
     * Starts building a child process; the program is looked up on {@code PATH} as {@code execvp} does.
     *
     * @param argv the program and its arguments
     * @return a builder
     */
    public static Builder command(String... argv) {
        return new Builder(List.of(argv));
    }

    /**
     * @param argv the program and its arguments
     * @return a builder
     */
    public static Builder command(List<String> argv) {
        return new Builder(List.copyOf(argv));
    }

    /** Chooses the child's standard streams; see {@link KernelProcess}. */
    public static final class Builder {
        private final List<String> argv;
        private KernelEnd stdin;
        private KernelEnd stdout;
        private KernelEnd stderr;

        private Builder(List<String> argv) {
            if (argv.isEmpty()) {
                throw new IllegalArgumentException("command is empty");
            }
            this.argv = argv;
        }

        /**
         * @param end the read end the child reads as its standard input; handed over at {@link #start()}
         * @return this builder
         */
        public Builder stdin(dev.sluice.ReadEnd end) {
            this.stdin = own(end);
            return this;
        }

        /**
         * @param end the write end the child writes its standard output to; handed over at {@link #start()}
         * @return this builder
         */
        public Builder stdout(dev.sluice.WriteEnd end) {
            this.stdout = own(end);
            return this;
        }

        /**
         * @param end the write end the child writes its standard error to; handed over at {@link #start()}
         *            (it may be the same handle as for {@link #stdout}, as {@code 2>&1})
         * @return this builder
         */
        public Builder stderr(dev.sluice.WriteEnd end) {
            this.stderr = own(end);
            return this;
        }

        private static int reopenBlocking(KernelEnd e, List<Integer> reopened) throws IOException {
            boolean write = e instanceof KernelWriteEnd;
            int flags = (write ? LibC.O_WRONLY : LibC.O_RDONLY) | LibC.O_CLOEXEC;
            int fd;
            try (Arena arena = Arena.ofConfined()) {
                fd = LibC.open(arena.allocateFrom("/proc/self/fd/" + e.fd()), flags, 0);
            }
            if (fd < 0) {
                throw new IOException("cannot reopen " + e + " for a child: " + LibC.describe(-fd));
            }
            reopened.add(fd);
            if (write && ((KernelWriteEnd) e).isPacketMode()) {
                // open(2) refuses O_DIRECT on a pipe (EINVAL); F_SETFL accepts it.
                int r = LibC.fcntl(fd, LibC.F_SETFL, LibC.O_WRONLY | LibC.O_DIRECT);
                if (r < 0) {
                    throw new IOException("cannot set packet mode for a child: " + LibC.describe(-r));
                }
            }
            return fd;
        }

        private static KernelEnd own(dev.sluice.PipeEnd end) {
            Objects.requireNonNull(end, "pipe end is null");
            if (end instanceof KernelEnd k) {
                return k;
            }
            throw new IllegalArgumentException("a child process needs a kernel pipe end, not " + end);
        }

        /**
         * Spawns the child and closes the handed-over ends in this JVM.
         *
         * @return the running child
         * @throws ClosedChannelException if a handed-over end is already closed (nothing is started)
         * @throws IOException            if the program cannot be started (the message names the errno)
         */
        public KernelProcess start() throws IOException {
            Platform.checkSupported();
            List<KernelEnd> held = new ArrayList<>();
            List<Integer> reopened = new ArrayList<>();
            try {
                List<Integer> from = new ArrayList<>();
                List<Integer> to = new ArrayList<>();
                KernelEnd[] ends = {stdin, stdout, stderr};
                for (int target = 0; target < 3; target++) {
                    KernelEnd e = ends[target];
                    if (e == null) {
                        continue;
                    }
                    if (!held.contains(e)) {
                        e.cell.acquire();
                        held.add(e);
                    }
                    e.pipe.export(); // the child will change the pipe: this JVM's waiters need epoll
                    // The child must not share our O_NONBLOCK: O_NONBLOCK belongs to the open file description,
                    // which dup2 shares, and a child such as tr or yes fails on EAGAIN. So hand it a new,
                    // blocking description of the same pipe, opened through /proc/self/fd (O_DIRECT kept).
                    // New descriptors are >= 3 (the JVM keeps 0-2 open), so no dup2 overwrites a later source.
                    from.add(reopenBlocking(e, reopened));
                    to.add(target);
                }
                int pid;
                try (Arena arena = Arena.ofConfined()) {
                    pid = LibC.spawn(arena, argv.toArray(String[]::new),
                            from.stream().mapToInt(Integer::intValue).toArray(),
                            to.stream().mapToInt(Integer::intValue).toArray(), 3);
                }
                if (pid < 0) {
                    throw new IOException("cannot start " + argv + ": " + LibC.describe(-pid));
                }
                int pfd = LibC.pidfdOpen(pid);
                if (pfd < 0) {
                    // Cannot watch it (very old kernel): still a child we must reap; waitFor polls then.
                    return new KernelProcess(pid, null);
                }
                return new KernelProcess(pid, new FdCell(pfd, LibC.EPOLLIN));
            } finally {
                for (int fd : reopened) {
                    LibC.close(fd); // the child has its copies; ours would keep the pipe's side open
                }
                for (KernelEnd e : held) {
                    e.cell.release();
                }
                // Handed over whether or not the spawn worked: the caller gave them away.
                for (KernelEnd e : held) {
                    e.close();
                }
            }
        }
    }

    /** @return the child's process id */
    public long pid() {
        return pid;
    }

    /** @return whether the child has not been reaped yet (it may have exited and wait to be reaped) */
    public boolean isAlive() {
        return status < 0 && !tryReap();
    }

    /**
     * Waits for the child to exit and reaps it.
     *
     * @return the exit status as a shell reports it: the exit code, or 128 + the number of the signal that
     *         ended it
     * @throws InterruptedException if the waiting thread is interrupted (the child keeps running)
     */
    public int waitFor() throws InterruptedException {
        return waitFor(0);
    }

    /**
     * Waits at most {@code timeout} for the child to exit.
     *
     * @param timeout how long to wait
     * @return the status as {@link #waitFor()}, or -1 if the child is still running
     * @throws InterruptedException if the waiting thread is interrupted
     */
    public int waitFor(Duration timeout) throws InterruptedException {
        long n = dev.sluice.internal.Checks.timeoutNanos(timeout);
        int s = waitFor(n == 0 ? 1 : n);
        return s;
    }

    private int waitFor(long timeoutNanos) throws InterruptedException {
        long deadline = timeoutNanos == 0 ? 0 : System.nanoTime() + timeoutNanos;
        for (;;) {
            if (status >= 0 || tryReap()) {
                return status;
            }
            if (Thread.interrupted()) {
                throw new InterruptedException("interrupted while waiting for process " + pid);
            }
            if (deadline != 0 && System.nanoTime() - deadline >= 0) {
                return -1;
            }
            if (pidfd != null && pidfd.tryAcquire()) {
                try {
                    pidfd.park(deadline);
                } finally {
                    pidfd.release();
                }
            } else {
                java.util.concurrent.locks.LockSupport.parkNanos(1_000_000); // no pidfd: poll each ms
            }
        }
    }

    private boolean tryReap() {
        // A lock, not a monitor (no monitors in this library): reaping and kill must not interleave, or a
        // signal could reach a new process that reused the pid.
        reapLock.lock();
        try (Arena arena = Arena.ofConfined()) {
            if (status >= 0) {
                return true;
            }
            MemorySegment st = arena.allocate(JAVA_INT);
            int r = LibC.waitpidNoHang(pid, st);
            if (r == pid) {
                int raw = st.get(JAVA_INT, 0);
                int sig = raw & 0x7f;
                status = sig == 0 ? (raw >> 8) & 0xff : 128 + sig;
                if (pidfd != null) {
                    pidfd.close();
                }
                return true;
            }
            if (r < 0) {
                throw new IllegalStateException("waitpid(" + pid + ") failed: " + LibC.describe(-r));
            }
            return false;
        } finally {
            reapLock.unlock();
        }
    }

    /**
     * Sends a signal to the child ({@code kill(2)}), unless it has been reaped already (its pid may belong
     * to another process by then).
     *
     * @param signal the signal number, e.g. 15 for SIGTERM, 9 for SIGKILL
     */
    public void kill(int signal) {
        reapLock.lock();
        try {
            if (status < 0) {
                LibC.kill(pid, signal);
            }
        } finally {
            reapLock.unlock();
        }
    }

    @Override
    public String toString() {
        return "KernelProcess[pid " + pid + (status >= 0 ? ", exited " + status : "") + "]";
    }
}
