package dev.sluice.kernel;

import java.io.IOException;
import java.lang.ProcessBuilder.Redirect;
import java.lang.foreign.Arena;
import java.nio.channels.ClosedChannelException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The descriptors of one {@link KernelProcessBuilder#start()}: which descriptor of this JVM becomes
 * which descriptor of the child, and the cleaning up afterwards, whether or not the child started.
 *
 * <p>The child gets fresh descriptors, never this JVM's own: a pipe end is re-opened through
 * {@code /proc/self/fd} (a new, blocking open file description of the same pipe), a file is opened here.
 * Each of them is moved above the highest number the child is to have, so that no {@code dup2} in the
 * child overwrites a source that a later one still needs. In the child, after the moves, every number up
 * to the highest that it is not given is closed, and everything above it ({@code closefrom}), so it holds
 * exactly what it was given (and this JVM's 0-2 where it inherits them).
 */
final class Spawn {
    private static final String[] STREAM = {"standard input", "standard output", "standard error"};

    private final String program;
    /** The caller's ends this start uses, each with a use held until {@link #release()}. */
    private final List<KernelEnd> held = new ArrayList<>();
    /** Descriptors opened for the child; closed in this JVM after the spawn, whatever happened. */
    private final List<Integer> opened = new ArrayList<>();
    private final Map<KernelEnd, Integer> reopened = new HashMap<>();
    private final List<Integer> from = new ArrayList<>();
    private final List<Integer> to = new ArrayList<>();
    private int maxTarget = 2;

    Spawn(String program) {
        this.program = program;
    }

    /** Starts a use of every end the child is to get. @throws ClosedChannelException if one is closed */
    void acquire(Object[] std, boolean mergeErr, TreeMap<Integer, KernelEnd> extra) throws ClosedChannelException {
        for (int t = 0; t < 3; t++) {
            if (std[t] instanceof KernelEnd e && !(t == 2 && mergeErr)) {
                hold(e);
            }
        }
        for (KernelEnd e : extra.values()) {
            hold(e);
        }
    }

    private void hold(KernelEnd e) throws ClosedChannelException {
        if (!held.contains(e)) {
            e.cell.acquire();
            held.add(e);
        }
    }

    /** Opens the child's descriptors and plans its moves. */
    void openSources(Object[] std, boolean mergeErr, TreeMap<Integer, KernelEnd> extra) throws IOException {
        if (!extra.isEmpty()) {
            maxTarget = extra.lastKey();
        }
        for (int t = 0; t < 3; t++) {
            if (t == 2 && mergeErr) {
                continue;
            }
            if (std[t] instanceof KernelEnd e) {
                move(reopen(e), t);
            } else if (std[t] instanceof Redirect r) {
                move(openFile(r, t), t);
            }
        }
        for (Map.Entry<Integer, KernelEnd> x : extra.entrySet()) {
            move(reopen(x.getValue()), x.getKey());
        }
        if (mergeErr) {
            from.add(1); // 2>&1, after 1 is in place
            to.add(2);
        }
        for (KernelEnd e : held) {
            e.pipe.export(); // the child will change the pipe: this JVM's waiters need epoll from now on
        }
    }

    private void move(int fd, int target) {
        from.add(fd);
        to.add(target);
    }

    /**
     * A new, blocking open file description of the end's pipe: this module's descriptors are
     * {@code O_NONBLOCK}, a flag of the description that {@code dup2} would share with the child, and most
     * programs fail on {@code EAGAIN}. Packet mode ({@code O_DIRECT}) is carried over.
     */
    private int reopen(KernelEnd e) throws IOException {
        Integer known = reopened.get(e);
        if (known != null) {
            return known;
        }
        boolean write = e instanceof KernelWriteEnd;
        int flags = (write ? LibC.O_WRONLY : LibC.O_RDONLY) | LibC.O_CLOEXEC;
        int fd;
        try (Arena arena = Arena.ofConfined()) {
            fd = LibC.open(arena.allocateFrom("/proc/self/fd/" + e.fd()), flags, 0);
        }
        if (fd < 0) {
            throw new IOException("cannot start " + program + ": open(/proc/self/fd/" + e.fd() + ") of " + e
                    + " for the child failed: " + LibC.describe(-fd));
        }
        fd = keep(fd);
        if (write && ((KernelWriteEnd) e).isPacketMode()) {
            // open(2) refuses O_DIRECT on a pipe (EINVAL); F_SETFL accepts it.
            int r = LibC.fcntl(fd, LibC.F_SETFL, LibC.O_WRONLY | LibC.O_DIRECT);
            if (r < 0) {
                throw new IOException("cannot start " + program + ": fcntl(F_SETFL, O_DIRECT) for the child's copy "
                        + "of " + e + " failed: " + LibC.describe(-r));
            }
        }
        reopened.put(e, fd);
        return fd;
    }

    private int openFile(Redirect r, int stream) throws IOException {
        int flags = LibC.O_CLOEXEC | switch (r.type()) {
            case READ -> LibC.O_RDONLY;
            case APPEND -> LibC.O_WRONLY | LibC.O_CREAT | LibC.O_APPEND;
            default -> LibC.O_WRONLY | LibC.O_CREAT | LibC.O_TRUNC;
        };
        String path = r.file().getPath();
        int fd;
        try (Arena arena = Arena.ofConfined()) {
            fd = LibC.open(CStrings.toC(arena, CStrings.encode(path, "file")), flags, 0666);
        }
        if (fd < 0) {
            throw new IOException("cannot start " + program + ": open(" + path + ") for its " + STREAM[stream]
                    + " failed: " + LibC.describe(-fd));
        }
        return keep(fd);
    }

    /** Records an opened descriptor, first moving it above every number the child is to have. */
    private int keep(int fd) {
        opened.add(fd);
        if (fd > maxTarget) {
            return fd;
        }
        int high = LibC.fcntl(fd, LibC.F_DUPFD_CLOEXEC, maxTarget + 1);
        if (high == -LibC.EINVAL) {
            throw new IllegalArgumentException("descriptor " + maxTarget + " is above this process's open-file "
                    + "limit (RLIMIT_NOFILE), so a child cannot be given it");
        }
        if (high < 0) {
            throw new IllegalStateException("cannot start " + program + ": fcntl(F_DUPFD_CLOEXEC, " + (maxTarget + 1)
                    + ") failed: " + LibC.describe(-high));
        }
        opened.add(high);
        return high;
    }

    int[] from() {
        return ints(from);
    }

    int[] to() {
        return ints(to);
    }

    /** A loop, not a stream: see the lambdas note in {@link LibC}. */
    private static int[] ints(List<Integer> list) {
        int[] a = new int[list.size()];
        for (int i = 0; i < a.length; i++) {
            a[i] = list.get(i);
        }
        return a;
    }

    int maxTarget() {
        return maxTarget;
    }

    /**
     * @return the numbers from 3 to the highest target that the child is not given, to close in it: all
     *         of them for a small range, else those open in this JVM now (only those can be inherited)
     */
    int[] closeInChild() throws IOException {
        java.util.Set<Integer> targets = new java.util.HashSet<>(to);
        List<Integer> c = new ArrayList<>();
        if (maxTarget <= 1024) {
            for (int n = 3; n <= maxTarget; n++) {
                if (!targets.contains(n)) {
                    c.add(n);
                }
            }
        } else {
            try (var dir = java.nio.file.Files.newDirectoryStream(java.nio.file.Path.of("/proc/self/fd"))) {
                for (java.nio.file.Path p : dir) {
                    int n = Integer.parseInt(p.getFileName().toString());
                    if (n >= 3 && n <= maxTarget && !targets.contains(n)) {
                        c.add(n);
                    }
                }
            }
        }
        return ints(c);
    }

    /** After a successful spawn: the child has its copies, so this JVM's handles are closed. */
    void handOver() {
        for (KernelEnd e : held) {
            e.close();
        }
    }

    /** Closes what was opened for the child and ends the uses; runs whether or not the spawn worked. */
    void release() {
        for (int fd : opened) {
            LibC.close(fd); // ours would keep the pipe's side open: the reader would never see EOF
        }
        for (KernelEnd e : held) {
            e.cell.release();
        }
    }
}
