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
 * {@link Platform#checkSupported()} has passed, so the module loads on any platform. {@code read} and {@code write} use
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
    static final int EINTR = 4;
    static final int EIO = 5;
    static final int ENXIO = 6;
    static final int EBADF = 9;
    static final int ECHILD = 10;
    static final int EAGAIN = 11;
    static final int ENOMEM = 12;
    static final int EACCES = 13;
    static final int EEXIST = 17;
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
    private static final Linker LINKER = Linker.nativeLinker();
    private static final SymbolLookup C = LINKER.defaultLookup();
    private static final StructLayout CAPTURE = Linker.Option.captureStateLayout();
    private static final VarHandle ERRNO = CAPTURE.varHandle(MemoryLayout.PathElement.groupElement("errno"));
    private static final Linker.Option ERRNO_OPT = Linker.Option.captureCallState("errno");

    /** Per-thread scratch: the errno capture plus 64 bytes for small out-parameters. Freed by the GC. */
    private static final ThreadLocal<MemorySegment> SCRATCH =
            ThreadLocal.withInitial(() -> Arena.ofAuto().allocate(128, 16));

    private static MethodHandle fn(String name, FunctionDescriptor d, Linker.Option... opts) {
        MemorySegment addr = C.find(name).orElseThrow(() -> new UnsupportedOperationException(
                "the C library has no " + name + " (glibc 2.34 or newer is needed)"));
        return LINKER.downcallHandle(addr, d, opts);
    }

    private static final MethodHandle PIPE2 = fn("pipe2", FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_INT), ERRNO_OPT);
    private static final MethodHandle READ = fn("read", FunctionDescriptor.of(JAVA_LONG, JAVA_INT, ADDRESS, JAVA_LONG),
            ERRNO_OPT, Linker.Option.critical(true));
    private static final MethodHandle WRITE = fn("write", FunctionDescriptor.of(JAVA_LONG, JAVA_INT, ADDRESS, JAVA_LONG),
            ERRNO_OPT, Linker.Option.critical(true));
    private static final MethodHandle READV = fn("readv", FunctionDescriptor.of(JAVA_LONG, JAVA_INT, ADDRESS, JAVA_INT), ERRNO_OPT);
    private static final MethodHandle WRITEV = fn("writev", FunctionDescriptor.of(JAVA_LONG, JAVA_INT, ADDRESS, JAVA_INT), ERRNO_OPT);
    private static final MethodHandle CLOSE = fn("close", FunctionDescriptor.of(JAVA_INT, JAVA_INT), ERRNO_OPT);
    private static final MethodHandle FCNTL = fn("fcntl", FunctionDescriptor.of(JAVA_INT, JAVA_INT, JAVA_INT, JAVA_INT),
            ERRNO_OPT, Linker.Option.firstVariadicArg(2));
    private static final MethodHandle IOCTL = fn("ioctl", FunctionDescriptor.of(JAVA_INT, JAVA_INT, JAVA_LONG, ADDRESS),
            ERRNO_OPT, Linker.Option.firstVariadicArg(2));
    private static final MethodHandle POLL = fn("poll", FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_LONG, JAVA_INT), ERRNO_OPT);
    private static final MethodHandle FSTAT = fn("fstat", FunctionDescriptor.of(JAVA_INT, JAVA_INT, ADDRESS), ERRNO_OPT);
    private static final MethodHandle OPEN = fn("open", FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_INT, JAVA_INT),
            ERRNO_OPT, Linker.Option.firstVariadicArg(2));
    private static final MethodHandle EPOLL_CREATE1 = fn("epoll_create1", FunctionDescriptor.of(JAVA_INT, JAVA_INT), ERRNO_OPT);
    private static final MethodHandle EPOLL_CTL = fn("epoll_ctl",
            FunctionDescriptor.of(JAVA_INT, JAVA_INT, JAVA_INT, JAVA_INT, ADDRESS), ERRNO_OPT);
    private static final MethodHandle EPOLL_WAIT = fn("epoll_wait",
            FunctionDescriptor.of(JAVA_INT, JAVA_INT, ADDRESS, JAVA_INT, JAVA_INT), ERRNO_OPT);
    private static final MethodHandle SPLICE = fn("splice", FunctionDescriptor.of(JAVA_LONG, JAVA_INT, ADDRESS, JAVA_INT,
            ADDRESS, JAVA_LONG, JAVA_INT), ERRNO_OPT);
    private static final MethodHandle TEE = fn("tee", FunctionDescriptor.of(JAVA_LONG, JAVA_INT, JAVA_INT, JAVA_LONG,
            JAVA_INT), ERRNO_OPT);
    private static final MethodHandle VMSPLICE = fn("vmsplice", FunctionDescriptor.of(JAVA_LONG, JAVA_INT, ADDRESS,
            JAVA_LONG, JAVA_INT), ERRNO_OPT);
    private static final MethodHandle SOCKETPAIR = fn("socketpair", FunctionDescriptor.of(JAVA_INT, JAVA_INT, JAVA_INT,
            JAVA_INT, ADDRESS), ERRNO_OPT);
    private static final MethodHandle PIDFD_OPEN = fn("pidfd_open", FunctionDescriptor.of(JAVA_INT, JAVA_INT, JAVA_INT),
            ERRNO_OPT);
    private static final MethodHandle WAITPID = fn("waitpid", FunctionDescriptor.of(JAVA_INT, JAVA_INT, ADDRESS, JAVA_INT),
            ERRNO_OPT);
    private static final MethodHandle FA_INIT = fn("posix_spawn_file_actions_init", FunctionDescriptor.of(JAVA_INT, ADDRESS));
    private static final MethodHandle FA_DESTROY = fn("posix_spawn_file_actions_destroy", FunctionDescriptor.of(JAVA_INT, ADDRESS));
    private static final MethodHandle FA_DUP2 = fn("posix_spawn_file_actions_adddup2",
            FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_INT, JAVA_INT));
    private static final MethodHandle FA_CLOSEFROM = fn("posix_spawn_file_actions_addclosefrom_np",
            FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_INT));
    private static final MethodHandle ATTR_INIT = fn("posix_spawnattr_init", FunctionDescriptor.of(JAVA_INT, ADDRESS));
    private static final MethodHandle ATTR_DESTROY = fn("posix_spawnattr_destroy", FunctionDescriptor.of(JAVA_INT, ADDRESS));
    private static final MethodHandle ATTR_SETFLAGS = fn("posix_spawnattr_setflags",
            FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_SHORT));
    private static final MethodHandle ATTR_SETSIGMASK = fn("posix_spawnattr_setsigmask",
            FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS));
    private static final MethodHandle ATTR_SETSIGDEFAULT = fn("posix_spawnattr_setsigdefault",
            FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS));
    private static final MethodHandle SIGEMPTYSET = fn("sigemptyset", FunctionDescriptor.of(JAVA_INT, ADDRESS));
    private static final MethodHandle SIGFILLSET = fn("sigfillset", FunctionDescriptor.of(JAVA_INT, ADDRESS));
    private static final MethodHandle SIGDELSET = fn("sigdelset", FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_INT));
    private static final MethodHandle POSIX_SPAWNP = fn("posix_spawnp", FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS,
            ADDRESS, ADDRESS, ADDRESS, ADDRESS));
    private static final MethodHandle KILL = fn("kill", FunctionDescriptor.of(JAVA_INT, JAVA_INT, JAVA_INT), ERRNO_OPT);
    private static final MemorySegment ENVIRON = C.find("environ").orElseThrow().reinterpret(8);

    // ---- scratch and errno ----

    /** @return this thread's scratch segment; bytes [0,16) hold the errno capture, [64,128) are free */
    static MemorySegment scratch() {
        return SCRATCH.get();
    }

    /** @return the out-parameter area of this thread's scratch (64 bytes) */
    static MemorySegment out(MemorySegment scratch) {
        return scratch.asSlice(64, 64);
    }

    private static int errno(MemorySegment scratch) {
        return (int) ERRNO.get(scratch, 0L);
    }

    private static RuntimeException bug(Throwable t) {
        if (t instanceof RuntimeException r) {
            throw r;
        }
        if (t instanceof Error e) {
            throw e;
        }
        return new IllegalStateException("downcall failed", t);
    }

    // ---- wrappers: result, or -errno ----

    static int pipe2(MemorySegment fds, int flags) {
        MemorySegment s = scratch();
        try {
            int r;
            do {
                r = (int) PIPE2.invokeExact(s, fds, flags);
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
                r = (long) READ.invokeExact(s, fd, buf, len);
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
                r = (long) WRITE.invokeExact(s, fd, buf, len);
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
                r = (long) READV.invokeExact(s, fd, iov, n);
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
                r = (long) WRITEV.invokeExact(s, fd, iov, n);
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
            int r = (int) CLOSE.invokeExact(s, fd);
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
                r = (int) FCNTL.invokeExact(s, fd, cmd, arg);
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
            int r = (int) IOCTL.invokeExact(s, fd, FIONREAD, o);
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
                r = (int) POLL.invokeExact(s, o, 1L, 0);
            } while (r < 0 && errno(s) == EINTR);
            return r < 0 ? -errno(s) : o.get(JAVA_SHORT, 6) & 0xFFFF;
        } catch (Throwable t) {
            throw bug(t);
        }
    }

    static int fstat(int fd, MemorySegment stat) {
        MemorySegment s = scratch();
        try {
            int r = (int) FSTAT.invokeExact(s, fd, stat);
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
                r = (int) OPEN.invokeExact(s, path, flags, mode);
            } while (r < 0 && errno(s) == EINTR);
            return r < 0 ? -errno(s) : r;
        } catch (Throwable t) {
            throw bug(t);
        }
    }

    static int epollCreate() {
        MemorySegment s = scratch();
        try {
            int r = (int) EPOLL_CREATE1.invokeExact(s, EPOLL_CLOEXEC);
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
            int r = (int) EPOLL_CTL.invokeExact(s, epfd, op, fd, ev);
            return r < 0 ? -errno(s) : r;
        } catch (Throwable t) {
            throw bug(t);
        }
    }

    /** Blocks (never critical) until events arrive. @return the count, or -errno (EINTR included) */
    static int epollWait(int epfd, MemorySegment events, int max, int timeoutMs) {
        MemorySegment s = scratch();
        try {
            int r = (int) EPOLL_WAIT.invokeExact(s, epfd, events, max, timeoutMs);
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
                r = (long) SPLICE.invokeExact(s, in, offIn, out, offOut, len, flags);
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
                r = (long) TEE.invokeExact(s, in, out, len, flags);
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
                r = (long) VMSPLICE.invokeExact(s, fd, iov, n, flags);
            } while (r < 0 && errno(s) == EINTR);
            return r < 0 ? -errno(s) : r;
        } catch (Throwable t) {
            throw bug(t);
        }
    }

    static int socketpair(MemorySegment fds, int type) {
        MemorySegment s = scratch();
        try {
            int r = (int) SOCKETPAIR.invokeExact(s, AF_UNIX, type, 0, fds);
            return r < 0 ? -errno(s) : r;
        } catch (Throwable t) {
            throw bug(t);
        }
    }

    static int pidfdOpen(int pid) {
        MemorySegment s = scratch();
        try {
            int r = (int) PIDFD_OPEN.invokeExact(s, pid, 0);
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
                r = (int) WAITPID.invokeExact(s, pid, status, WNOHANG);
            } while (r < 0 && errno(s) == EINTR);
            return r < 0 ? -errno(s) : r;
        } catch (Throwable t) {
            throw bug(t);
        }
    }

    static int kill(int pid, int sig) {
        MemorySegment s = scratch();
        try {
            int r = (int) KILL.invokeExact(s, pid, sig);
            return r < 0 ? -errno(s) : r;
        } catch (Throwable t) {
            throw bug(t);
        }
    }

    /**
     * posix_spawnp with the given descriptor moves: {@code dup2(from[i], to[i])}, then every descriptor
     * from {@code closeFrom} up is closed in the child; signal dispositions are reset to default and the
     * mask emptied, so the child starts as a shell would start it (SIGPIPE kills a writer to a closed pipe).
     *
     * @return the child's pid, or -errno
     */
    static int spawn(Arena arena, String[] argv, int[] from, int[] to, int closeFrom) {
        MemorySegment fa = arena.allocate(POSIX_SPAWN_FILE_ACTIONS_SIZE, 8);
        MemorySegment attr = arena.allocate(POSIX_SPAWNATTR_SIZE, 8);
        MemorySegment sigs = arena.allocate(SIGSET_SIZE, 8);
        MemorySegment pid = arena.allocate(JAVA_INT);
        MemorySegment args = arena.allocate(ADDRESS, argv.length + 1L);
        for (int i = 0; i < argv.length; i++) {
            args.setAtIndex(ADDRESS, i, arena.allocateFrom(argv[i]));
        }
        args.setAtIndex(ADDRESS, argv.length, MemorySegment.NULL);
        try {
            int r = (int) FA_INIT.invokeExact(fa);
            if (r != 0) {
                return -r;
            }
            r = (int) ATTR_INIT.invokeExact(attr);
            if (r != 0) {
                int ignored = (int) FA_DESTROY.invokeExact(fa);
                return -r;
            }
            try {
                for (int i = 0; i < from.length && r == 0; i++) {
                    r = (int) FA_DUP2.invokeExact(fa, from[i], to[i]);
                }
                if (r == 0) {
                    r = (int) FA_CLOSEFROM.invokeExact(fa, closeFrom);
                }
                if (r == 0) {
                    int x = (int) SIGFILLSET.invokeExact(sigs);
                    // SIGKILL and SIGSTOP cannot be reset; glibc skips them, but be explicit.
                    x = (int) SIGDELSET.invokeExact(sigs, 9);
                    x = (int) SIGDELSET.invokeExact(sigs, 19);
                    r = (int) ATTR_SETSIGDEFAULT.invokeExact(attr, sigs);
                }
                if (r == 0) {
                    int x = (int) SIGEMPTYSET.invokeExact(sigs);
                    r = (int) ATTR_SETSIGMASK.invokeExact(attr, sigs);
                }
                if (r == 0) {
                    r = (int) ATTR_SETFLAGS.invokeExact(attr, (short) (POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK));
                }
                if (r == 0) {
                    MemorySegment envp = ENVIRON.get(ADDRESS, 0);
                    r = (int) POSIX_SPAWNP.invokeExact(pid, args.getAtIndex(ADDRESS, 0), fa, attr, args, envp);
                }
                return r == 0 ? pid.get(JAVA_INT, 0) : -r;
            } finally {
                int ignored = (int) FA_DESTROY.invokeExact(fa);
                ignored = (int) ATTR_DESTROY.invokeExact(attr);
            }
        } catch (Throwable t) {
            throw bug(t);
        }
    }

    // ---- errors ----

    /** @return a short name and text for an errno, for messages */
    static String describe(int errno) {
        String name = switch (errno) {
            case EPERM -> "EPERM, operation not permitted";
            case ENOENT -> "ENOENT, no such file or directory";
            case EIO -> "EIO, input/output error";
            case ENXIO -> "ENXIO, no such device or address";
            case EBADF -> "EBADF, bad file descriptor";
            case ECHILD -> "ECHILD, no child processes";
            case EAGAIN -> "EAGAIN, resource temporarily unavailable";
            case ENOMEM -> "ENOMEM, out of memory";
            case EACCES -> "EACCES, permission denied";
            case EBUSY -> "EBUSY, device or resource busy";
            case EEXIST -> "EEXIST, file exists";
            case EISDIR -> "EISDIR, is a directory";
            case EINVAL -> "EINVAL, invalid argument";
            case ENFILE -> "ENFILE, too many open files in system";
            case EMFILE -> "EMFILE, too many open files";
            case ENOSPC -> "ENOSPC, no space left on device";
            case ESPIPE -> "ESPIPE, illegal seek";
            case EROFS -> "EROFS, read-only file system";
            case EPIPE -> "EPIPE, broken pipe";
            default -> "errno " + errno;
        };
        return name;
    }
}
