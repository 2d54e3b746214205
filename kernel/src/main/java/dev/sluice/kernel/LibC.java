package dev.sluice.kernel;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;
import static java.lang.foreign.ValueLayout.JAVA_SHORT;

import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemoryLayout;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.StructLayout;
import java.lang.foreign.SymbolLookup;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.VarHandle;

/**
 * The C library calls the kernel module makes, one {@code static final MethodHandle} per function, and
 * the Linux constants they need (x86_64 and aarch64 values; they differ only in {@code O_DIRECT}).
 *
 * <p>Every call returns the C result when it succeeded and {@code -errno} when it failed, so callers never
 * read {@code errno} themselves (the JVM may clobber it between a downcall and the next Java statement;
 * {@link Linker.Option#captureCallState} saves it inside the downcall). {@code EINTR} is retried here:
 * the JVM's own signals must never surface as errors.
 *
 * <p>This class is initialised only when a kernel pipe is first opened, after
 * {@link Platform#checkSupported()} has passed, so the module loads on any platform; each function is
 * linked when it is first called (see the holder classes below). {@code read} and {@code write} use
 * {@link Linker.Option#critical(boolean) critical(true)} so that heap arrays are passed without a copy:
 * that is allowed only because every descriptor the module makes is {@code O_NONBLOCK}, so those calls
 * never block (a critical call holds off safepoints for its whole duration). Calls that can block
 * ({@code epoll_wait}, {@code waitpid} without {@code WNOHANG}) are never critical.
 */
final class LibC {
    private LibC() {
    }

    static final boolean AARCH64 = Platform.ARCH.equals("aarch64");

    // ---- constants (asm-generic/fcntl.h; x86_64 and aarch64 share all but O_DIRECT) ----
    static final int O_RDONLY = 0;
    static final int O_WRONLY = 01;
    static final int O_RDWR = 02;
    static final int O_CREAT = 0100;
    static final int O_EXCL = 0200;
    static final int O_TRUNC = 01000;
    static final int O_APPEND = 02000;
    static final int O_NONBLOCK = 04000;
    static final int O_DIRECT = AARCH64 ? 0200000 : 040000;
    static final int O_NOATIME = 01000000;
    static final int O_CLOEXEC = 02000000;

    static final int F_GETFL = 3;
    static final int F_SETFL = 4;
    static final int F_DUPFD_CLOEXEC = 1030;
    static final int F_SETPIPE_SZ = 1031;
    static final int F_GETPIPE_SZ = 1032;
    static final long FIONREAD = 0x541B;

    static final short POLLIN = 0x1;
    static final short POLLOUT = 0x4;
    static final short POLLERR = 0x8;
    static final short POLLHUP = 0x10;
    static final short POLLNVAL = 0x20;

    static final int EPOLLIN = 0x1;
    static final int EPOLLOUT = 0x4;
    static final int EPOLLONESHOT = 0x40000000;
    static final int EPOLL_CTL_ADD = 1;
    static final int EPOLL_CTL_DEL = 2;
    static final int EPOLL_CTL_MOD = 3;
    static final int EPOLL_CLOEXEC = O_CLOEXEC;

    static final int EPERM = 1;
    static final int ENOENT = 2;
    static final int ESRCH = 3;
    static final int EINTR = 4;
    static final int EIO = 5;
    static final int ENXIO = 6;
    static final int E2BIG = 7;
    static final int EBADF = 9;
    static final int ECHILD = 10;
    static final int EAGAIN = 11;
    static final int ENOMEM = 12;
    static final int EACCES = 13;
    static final int EEXIST = 17;
    static final int ENOTDIR = 20;
    static final int EISDIR = 21;
    static final int EINVAL = 22;
    static final int ENFILE = 23;
    static final int EMFILE = 24;
    static final int ENOSPC = 28;
    static final int ESPIPE = 29;
    static final int EROFS = 30;
    static final int EPIPE = 32;
    static final int EBUSY = 16;

    static final int AF_UNIX = 1;
    static final int SOCK_STREAM = 1;
    static final int SOCK_NONBLOCK = O_NONBLOCK;
    static final int SOCK_CLOEXEC = O_CLOEXEC;

    static final int WNOHANG = 1;
    static final short POSIX_SPAWN_SETSIGMASK = 0x08;
    static final short POSIX_SPAWN_SETSIGDEF = 0x04;

    /** {@code struct stat} (x86_64 and aarch64): st_atim @72, st_mtim @88, st_ctim @104, 144 bytes. */
    static final int STAT_SIZE = 144;
    static final int STAT_ATIM = 72;
    static final int STAT_MTIM = 88;
    static final int STAT_CTIM = 104;
    /** {@code struct epoll_event} is packed on x86_64 (12 bytes: u32 events, u64 data @4), 16 on aarch64. */
    static final int EPOLL_EVENT_SIZE = AARCH64 ? 16 : 12;
    static final int EPOLL_EVENT_DATA = AARCH64 ? 8 : 4;
    static final int POSIX_SPAWN_FILE_ACTIONS_SIZE = 80;
    static final int POSIX_SPAWNATTR_SIZE = 336;
    static final int SIGSET_SIZE = 128;

    /** {@code struct iovec}: base pointer, length. */
    static final int IOVEC_SIZE = 16;

    // ---- handles ----
    //
    // Each handle lives in a holder class of its own, so it is linked on first use (the JVM initialises a
    // class when it is first touched) and stays a constant the JIT can fold. Linking is what costs at
    // start-up (a new function shape spins a stub, several milliseconds each); linking every handle up
    // front made the first pipe or process pay for all of them. The linker itself and the C library's
    // lookup are made once, by the first call of any kind.

    private static final Linker LINKER = Linker.nativeLinker();
    private static final SymbolLookup C = LINKER.defaultLookup();
    private static final Linker.Option ERRNO_OPT = Linker.Option.captureCallState("errno");
    private static final Linker.Option CRITICAL = Linker.Option.critical(true);

    /**
     * Per-thread scratch: the errno capture plus 64 bytes for small out-parameters. Freed by the GC. (No
     * lambdas on the paths of a first pipe or process, here and elsewhere: the first lambda in a JVM
     * spins its metafactory, milliseconds that a first start would pay.)
     */
    private static final ThreadLocal<MemorySegment> SCRATCH = new ThreadLocal<>() {
        @Override
        protected MemorySegment initialValue() {
            return Arena.ofAuto().allocate(128, 16);
        }
    };

    private static MethodHandle fn(String name, FunctionDescriptor d, Linker.Option... opts) {
        MemorySegment addr = C.find(name).orElse(null);
        if (addr == null) {
            throw new UnsupportedOperationException("the C library has no " + name + " (glibc 2.34 or newer is "
                    + "needed)");
        }
        return LINKER.downcallHandle(addr, d, opts);
    }

    private static FunctionDescriptor of(MemoryLayout res, MemoryLayout... args) {
        return FunctionDescriptor.of(res, args);
    }

    private static final class Pipe2 {
        static final MethodHandle H = fn("pipe2", of(JAVA_INT, ADDRESS, JAVA_INT), ERRNO_OPT);
    }

    private static final class Read {
        static final MethodHandle H = fn("read", of(JAVA_LONG, JAVA_INT, ADDRESS, JAVA_LONG), ERRNO_OPT, CRITICAL);
    }

    private static final class Write {
        static final MethodHandle H = fn("write", of(JAVA_LONG, JAVA_INT, ADDRESS, JAVA_LONG), ERRNO_OPT, CRITICAL);
    }

    private static final class Readv {
        static final MethodHandle H = fn("readv", of(JAVA_LONG, JAVA_INT, ADDRESS, JAVA_INT), ERRNO_OPT);
    }

    private static final class Writev {
        static final MethodHandle H = fn("writev", of(JAVA_LONG, JAVA_INT, ADDRESS, JAVA_INT), ERRNO_OPT);
    }

    private static final class Close {
        static final MethodHandle H = fn("close", of(JAVA_INT, JAVA_INT), ERRNO_OPT);
    }

    private static final class Fcntl {
        static final MethodHandle H = fn("fcntl", of(JAVA_INT, JAVA_INT, JAVA_INT, JAVA_INT),
                ERRNO_OPT, Linker.Option.firstVariadicArg(2));
    }

    private static final class Ioctl {
        static final MethodHandle H = fn("ioctl", of(JAVA_INT, JAVA_INT, JAVA_LONG, ADDRESS),
                ERRNO_OPT, Linker.Option.firstVariadicArg(2));
    }

    private static final class Poll {
        static final MethodHandle H = fn("poll", of(JAVA_INT, ADDRESS, JAVA_LONG, JAVA_INT), ERRNO_OPT);
    }

    private static final class Fstat {
        static final MethodHandle H = fn("fstat", of(JAVA_INT, JAVA_INT, ADDRESS), ERRNO_OPT);
    }

    private static final class Open {
        static final MethodHandle H = fn("open", of(JAVA_INT, ADDRESS, JAVA_INT, JAVA_INT),
                ERRNO_OPT, Linker.Option.firstVariadicArg(2));
    }

    private static final class EpollCreate {
        static final MethodHandle H = fn("epoll_create1", of(JAVA_INT, JAVA_INT), ERRNO_OPT);
    }

    private static final class EpollCtl {
        static final MethodHandle H = fn("epoll_ctl", of(JAVA_INT, JAVA_INT, JAVA_INT, JAVA_INT, ADDRESS), ERRNO_OPT);
    }

    private static final class EpollWait {
        static final MethodHandle H = fn("epoll_wait", of(JAVA_INT, JAVA_INT, ADDRESS, JAVA_INT, JAVA_INT), ERRNO_OPT);
    }

    private static final class Splice {
        static final MethodHandle H = fn("splice",
                of(JAVA_LONG, JAVA_INT, ADDRESS, JAVA_INT, ADDRESS, JAVA_LONG, JAVA_INT), ERRNO_OPT);
    }

    private static final class Tee {
        static final MethodHandle H = fn("tee", of(JAVA_LONG, JAVA_INT, JAVA_INT, JAVA_LONG, JAVA_INT), ERRNO_OPT);
    }

    private static final class Vmsplice {
        static final MethodHandle H = fn("vmsplice", of(JAVA_LONG, JAVA_INT, ADDRESS, JAVA_LONG, JAVA_INT),
                ERRNO_OPT);
    }

    private static final class Socketpair {
        static final MethodHandle H = fn("socketpair", of(JAVA_INT, JAVA_INT, JAVA_INT, JAVA_INT, ADDRESS),
                ERRNO_OPT);
    }

    private static final class PidfdOpen {
        static final MethodHandle H = fn("pidfd_open", of(JAVA_INT, JAVA_INT, JAVA_INT), ERRNO_OPT);
    }

    private static final class Waitpid {
        static final MethodHandle H = fn("waitpid", of(JAVA_INT, JAVA_INT, ADDRESS, JAVA_INT), ERRNO_OPT);
    }

    private static final class Kill {
        static final MethodHandle H = fn("kill", of(JAVA_INT, JAVA_INT, JAVA_INT), ERRNO_OPT);
    }

    /** {@code strerrorname_np} and {@code strerrordesc_np} (glibc 2.32): only failures link them. */
    private static final class ErrnoNames {
        static final MethodHandle NAME = fn("strerrorname_np", of(ADDRESS, JAVA_INT));
        static final MethodHandle DESC = fn("strerrordesc_np", of(ADDRESS, JAVA_INT));
    }

    /**
     * posix_spawn and its file actions and attributes. These report errors as their result, not in
     * {@code errno}, so they need no capture. Shapes are shared where the C signatures allow, since a
     * shape already linked costs almost nothing to link again.
     */
    private static final class Spawn {
        static final FunctionDescriptor A = of(JAVA_INT, ADDRESS);
        static final FunctionDescriptor AI = of(JAVA_INT, ADDRESS, JAVA_INT);
        static final MethodHandle FA_INIT = fn("posix_spawn_file_actions_init", A);
        static final MethodHandle FA_DESTROY = fn("posix_spawn_file_actions_destroy", A);
        static final MethodHandle FA_CLOSE = fn("posix_spawn_file_actions_addclose", AI);
        static final MethodHandle FA_CLOSEFROM = fn("posix_spawn_file_actions_addclosefrom_np", AI);
        static final MethodHandle SPAWNP = fn("posix_spawnp", of(JAVA_INT, ADDRESS, ADDRESS, ADDRESS, ADDRESS,
                ADDRESS, ADDRESS));
        static final MemorySegment ENVIRON = C.find("environ").orElseThrow().reinterpret(8);
    }

    /** Only a child given descriptors needs it. */
    private static final class SpawnDup2 {
        static final MethodHandle H = fn("posix_spawn_file_actions_adddup2",
                of(JAVA_INT, ADDRESS, JAVA_INT, JAVA_INT));
    }

    /** Only a child given a working directory needs it (glibc 2.29). */
    private static final class SpawnChdir {
        static final MethodHandle H = fn("posix_spawn_file_actions_addchdir_np", of(JAVA_INT, ADDRESS, ADDRESS));
    }

    // ---- scratch and errno ----

    /** @return this thread's scratch segment; bytes [0,16) hold the errno capture, [64,128) are free */
    static MemorySegment scratch() {
        return SCRATCH.get();
    }

    /** @return the out-parameter area of this thread's scratch (64 bytes) */
    static MemorySegment out(MemorySegment scratch) {
        return scratch.asSlice(64, 64);
    }

    /** The errno var handle, made with the first call that captures errno. */
    private static final class Errno {
        static final StructLayout CAPTURE = Linker.Option.captureStateLayout();
        static final VarHandle H = CAPTURE.varHandle(MemoryLayout.PathElement.groupElement("errno"));
    }

    private static int errno(MemorySegment scratch) {
        return (int) Errno.H.get(scratch, 0L);
    }

    private static RuntimeException bug(Throwable t) {
        if (t instanceof RuntimeException r) {
            throw r;
        }
        if (t instanceof Error e) {
            throw e;
        }
        return new IllegalStateException("a native call threw " + t, t);
    }

    // ---- wrappers: result, or -errno ----

    static int pipe2(MemorySegment fds, int flags) {
        MemorySegment s = scratch();
        try {
            int r;
            do {
                r = (int) Pipe2.H.invokeExact(s, fds, flags);
            } while (r < 0 && errno(s) == EINTR);
            return r < 0 ? -errno(s) : r;
        } catch (Throwable t) {
            throw bug(t);
        }
    }

    static long read(int fd, MemorySegment buf, long len) {
        MemorySegment s = scratch();
        try {
            long r;
            do {
                r = (long) Read.H.invokeExact(s, fd, buf, len);
            } while (r < 0 && errno(s) == EINTR);
            return r < 0 ? -errno(s) : r;
        } catch (Throwable t) {
            throw bug(t);
        }
    }

    static long write(int fd, MemorySegment buf, long len) {
        MemorySegment s = scratch();
        try {
            long r;
            do {
                r = (long) Write.H.invokeExact(s, fd, buf, len);
            } while (r < 0 && errno(s) == EINTR);
            return r < 0 ? -errno(s) : r;
        } catch (Throwable t) {
            throw bug(t);
        }
    }

    static long readv(int fd, MemorySegment iov, int n) {
        MemorySegment s = scratch();
        try {
            long r;
            do {
                r = (long) Readv.H.invokeExact(s, fd, iov, n);
            } while (r < 0 && errno(s) == EINTR);
            return r < 0 ? -errno(s) : r;
        } catch (Throwable t) {
            throw bug(t);
        }
    }

    static long writev(int fd, MemorySegment iov, int n) {
        MemorySegment s = scratch();
        try {
            long r;
            do {
                r = (long) Writev.H.invokeExact(s, fd, iov, n);
            } while (r < 0 && errno(s) == EINTR);
            return r < 0 ? -errno(s) : r;
        } catch (Throwable t) {
            throw bug(t);
        }
    }

    /** close(2) is not retried on EINTR: Linux has released the descriptor whatever it returns. */
    static int close(int fd) {
        MemorySegment s = scratch();
        try {
            int r = (int) Close.H.invokeExact(s, fd);
            return r < 0 ? -errno(s) : r;
        } catch (Throwable t) {
            throw bug(t);
        }
    }

    static int fcntl(int fd, int cmd, int arg) {
        MemorySegment s = scratch();
        try {
            int r;
            do {
                r = (int) Fcntl.H.invokeExact(s, fd, cmd, arg);
            } while (r < 0 && errno(s) == EINTR);
            return r < 0 ? -errno(s) : r;
        } catch (Throwable t) {
            throw bug(t);
        }
    }

    /** @return FIONREAD's count, or -errno */
    static int fionread(int fd) {
        MemorySegment s = scratch();
        MemorySegment o = out(s);
        try {
            int r = (int) Ioctl.H.invokeExact(s, fd, FIONREAD, o);
            return r < 0 ? -errno(s) : o.get(JAVA_INT, 0);
        } catch (Throwable t) {
            throw bug(t);
        }
    }

    /** poll(2) of one descriptor with a zero timeout. @return revents, or -errno */
    static int pollNow(int fd, short events) {
        MemorySegment s = scratch();
        MemorySegment o = out(s);
        try {
            o.set(JAVA_INT, 0, fd);
            o.set(JAVA_SHORT, 4, events);
            o.set(JAVA_SHORT, 6, (short) 0);
            int r;
            do {
                r = (int) Poll.H.invokeExact(s, o, 1L, 0);
            } while (r < 0 && errno(s) == EINTR);
            return r < 0 ? -errno(s) : o.get(JAVA_SHORT, 6) & 0xFFFF;
        } catch (Throwable t) {
            throw bug(t);
        }
    }

    static int fstat(int fd, MemorySegment stat) {
        MemorySegment s = scratch();
        try {
            int r = (int) Fstat.H.invokeExact(s, fd, stat);
            return r < 0 ? -errno(s) : r;
        } catch (Throwable t) {
            throw bug(t);
        }
    }

    static int open(MemorySegment path, int flags, int mode) {
        MemorySegment s = scratch();
        try {
            int r;
            do {
                r = (int) Open.H.invokeExact(s, path, flags, mode);
            } while (r < 0 && errno(s) == EINTR);
            return r < 0 ? -errno(s) : r;
        } catch (Throwable t) {
            throw bug(t);
        }
    }

    static int epollCreate() {
        MemorySegment s = scratch();
        try {
            int r = (int) EpollCreate.H.invokeExact(s, EPOLL_CLOEXEC);
            return r < 0 ? -errno(s) : r;
        } catch (Throwable t) {
            throw bug(t);
        }
    }

    static int epollCtl(int epfd, int op, int fd, int events, long data) {
        MemorySegment s = scratch();
        MemorySegment ev = out(s);
        try {
            ev.set(JAVA_INT, 0, events);
            ev.set(JAVA_LONG.withByteAlignment(1), EPOLL_EVENT_DATA, data);
            int r = (int) EpollCtl.H.invokeExact(s, epfd, op, fd, ev);
            return r < 0 ? -errno(s) : r;
        } catch (Throwable t) {
            throw bug(t);
        }
    }

    /** Blocks (never critical) until events arrive. @return the count, or -errno (EINTR included) */
    static int epollWait(int epfd, MemorySegment events, int max, int timeoutMs) {
        MemorySegment s = scratch();
        try {
            int r = (int) EpollWait.H.invokeExact(s, epfd, events, max, timeoutMs);
            return r < 0 ? -errno(s) : r;
        } catch (Throwable t) {
            throw bug(t);
        }
    }

    static long splice(int in, MemorySegment offIn, int out, MemorySegment offOut, long len, int flags) {
        MemorySegment s = scratch();
        try {
            long r;
            do {
                r = (long) Splice.H.invokeExact(s, in, offIn, out, offOut, len, flags);
            } while (r < 0 && errno(s) == EINTR);
            return r < 0 ? -errno(s) : r;
        } catch (Throwable t) {
            throw bug(t);
        }
    }

    static long tee(int in, int out, long len, int flags) {
        MemorySegment s = scratch();
        try {
            long r;
            do {
                r = (long) Tee.H.invokeExact(s, in, out, len, flags);
            } while (r < 0 && errno(s) == EINTR);
            return r < 0 ? -errno(s) : r;
        } catch (Throwable t) {
            throw bug(t);
        }
    }

    static long vmsplice(int fd, MemorySegment iov, long n, int flags) {
        MemorySegment s = scratch();
        try {
            long r;
            do {
                r = (long) Vmsplice.H.invokeExact(s, fd, iov, n, flags);
            } while (r < 0 && errno(s) == EINTR);
            return r < 0 ? -errno(s) : r;
        } catch (Throwable t) {
            throw bug(t);
        }
    }

    static int socketpair(MemorySegment fds, int type) {
        MemorySegment s = scratch();
        try {
            int r = (int) Socketpair.H.invokeExact(s, AF_UNIX, type, 0, fds);
            return r < 0 ? -errno(s) : r;
        } catch (Throwable t) {
            throw bug(t);
        }
    }

    static int pidfdOpen(int pid) {
        MemorySegment s = scratch();
        try {
            int r = (int) PidfdOpen.H.invokeExact(s, pid, 0);
            return r < 0 ? -errno(s) : r;
        } catch (Throwable t) {
            throw bug(t);
        }
    }

    /** waitpid with WNOHANG. @return the pid if reaped (status in {@code status}), 0 if still running, or -errno */
    static int waitpidNoHang(int pid, MemorySegment status) {
        MemorySegment s = scratch();
        try {
            int r;
            do {
                r = (int) Waitpid.H.invokeExact(s, pid, status, WNOHANG);
            } while (r < 0 && errno(s) == EINTR);
            return r < 0 ? -errno(s) : r;
        } catch (Throwable t) {
            throw bug(t);
        }
    }

    static int kill(int pid, int sig) {
        MemorySegment s = scratch();
        try {
            int r = (int) Kill.H.invokeExact(s, pid, sig);
            return r < 0 ? -errno(s) : r;
        } catch (Throwable t) {
            throw bug(t);
        }
    }

    /**
     * posix_spawnp: in the child, {@code dup2(from[i], to[i])} in order, then {@code close(c)} for each
     * of {@code close}, then every descriptor from {@code closeFrom} up is closed, then the working
     * directory changes to {@code dir} (unless it is NULL); signal dispositions are reset to default and
     * the mask emptied, so the child starts as a shell would start it (SIGPIPE kills a writer to a closed
     * pipe).
     *
     * @param argv the program's arguments, a NULL-terminated array of C strings; {@code argv[0]} is the
     *             program, looked up on the JVM's {@code PATH} as {@code execvp} does
     * @param envp the environment, a NULL-terminated array of C strings, or NULL for this process's
     * @return the child's pid, or -errno
     */
    static int spawn(Arena arena, MemorySegment argv, MemorySegment envp, int[] from, int[] to, int[] close,
            MemorySegment dir, int closeFrom) {
        MemorySegment fa = arena.allocate(POSIX_SPAWN_FILE_ACTIONS_SIZE, 8);
        MemorySegment attr = spawnAttributes(arena);
        MemorySegment pid = arena.allocate(JAVA_INT);
        try {
            int r = (int) Spawn.FA_INIT.invokeExact(fa);
            if (r != 0) {
                return -r;
            }
            try {
                r = fileActions(fa, from, to, close, dir, closeFrom);
                if (r == 0) {
                    MemorySegment env = envp.equals(MemorySegment.NULL) ? Spawn.ENVIRON.get(ADDRESS, 0) : envp;
                    r = (int) Spawn.SPAWNP.invokeExact(pid, argv.getAtIndex(ADDRESS, 0), fa, attr, argv, env);
                }
                return r == 0 ? pid.get(JAVA_INT, 0) : -r;
            } finally {
                int ignored = (int) Spawn.FA_DESTROY.invokeExact(fa);
            }
        } catch (Throwable t) {
            throw bug(t);
        }
    }

    private static int fileActions(MemorySegment fa, int[] from, int[] to, int[] close, MemorySegment dir,
            int closeFrom) throws Throwable {
        int r = 0;
        for (int i = 0; i < from.length && r == 0; i++) {
            r = (int) SpawnDup2.H.invokeExact(fa, from[i], to[i]);
        }
        for (int i = 0; i < close.length && r == 0; i++) {
            r = (int) Spawn.FA_CLOSE.invokeExact(fa, close[i]);
        }
        if (r == 0) {
            r = (int) Spawn.FA_CLOSEFROM.invokeExact(fa, closeFrom);
        }
        if (r == 0 && !dir.equals(MemorySegment.NULL)) {
            r = (int) SpawnChdir.H.invokeExact(fa, dir);
        }
        return r;
    }

    /** {@code posix_spawnattr_t} (glibc's {@code <spawn.h>}): {@code short __flags} @0, then at @8 the
     *  default-signal set {@code __sd} and at @136 the mask {@code __ss}, 128 bytes each; 336 in all. */
    private static final int ATTR_FLAGS = 0;
    private static final int ATTR_SIGDEFAULT = 8;
    private static final int ATTR_SIGMASK = 8 + SIGSET_SIZE;

    /**
     * The spawn attributes, every signal back to its default and none blocked, written here rather than
     * with the {@code posix_spawnattr_*} calls: the struct is public in {@code <spawn.h>} (programs
     * allocate it themselves, so its layout is glibc's binary interface), {@code posix_spawnattr_init}
     * only zeroes it and {@code posix_spawnattr_destroy} does nothing, and six handles fewer to link make
     * the first start cheaper. A {@code sigset_t} is a bit array, signal {@code s} at bit {@code s - 1}.
     * Like glibc's {@code sigfillset}, the default set leaves out the C library's own signals (32 and 33,
     * used by its threads), and SIGKILL and SIGSTOP, which cannot be changed; the mask stays empty.
     */
    private static MemorySegment spawnAttributes(Arena arena) {
        MemorySegment attr = arena.allocate(POSIX_SPAWNATTR_SIZE, 8); // zeroed, as posix_spawnattr_init does
        long bits = -1L;
        for (int sig : new int[] {9, 19, 32, 33}) {
            bits &= ~(1L << (sig - 1));
        }
        attr.set(JAVA_LONG, ATTR_SIGDEFAULT, bits); // signals 1..64; the rest is beyond the kernel's _NSIG
        attr.set(JAVA_SHORT, ATTR_FLAGS, (short) (POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK));
        assert attr.get(JAVA_LONG, ATTR_SIGMASK) == 0;
        return attr;
    }

    // ---- errors ----

    /**
     * The errno's name and the C library's text for it, for messages: {@code "EBADF (Bad file
     * descriptor)"}. From glibc's {@code strerrorname_np} and {@code strerrordesc_np}, so every errno the
     * C library knows has its name; they are linked only when the first failure is described.
     *
     * @param errno a positive errno value
     * @return the name and text, or {@code "errno N"} for a number the C library does not know
     */
    static String describe(int errno) {
        try {
            MemorySegment name = (MemorySegment) ErrnoNames.NAME.invokeExact(errno);
            MemorySegment desc = (MemorySegment) ErrnoNames.DESC.invokeExact(errno);
            if (name.equals(MemorySegment.NULL)) {
                return "errno " + errno + " (unknown to the C library)";
            }
            String n = name.reinterpret(64).getString(0);
            return desc.equals(MemorySegment.NULL) ? n : n + " (" + desc.reinterpret(256).getString(0) + ")";
        } catch (Throwable t) {
            throw bug(t);
        }
    }
}
