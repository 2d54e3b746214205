package dev.sluice.shm;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

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
 * The few C library calls the module makes, one {@code MethodHandle} per function, linked on first use (each
 * in a holder class of its own, as the kernel module does, so a JVM that never waits never links the futex).
 *
 * <p>Every call returns its C result on success and {@code -errno} on failure; {@code errno} is captured inside
 * the downcall ({@link Linker.Option#captureCallState}) because the JVM may clobber it before the next Java
 * statement. No call here is {@code critical}: {@code FUTEX_WAIT} blocks, and the others are rare.
 *
 * <p>Constants are Linux's for x86_64 and aarch64; they differ only in the {@code futex} system call number
 * and in {@code struct stat}'s layout ({@code pidfd_open}, newer, has one number on both).
 */
final class Native {
    private Native() {
    }

    static final boolean AARCH64 = "aarch64".equals(System.getProperty("os.arch"));
    static final boolean SUPPORTED = System.getProperty("os.name", "").startsWith("Linux")
            && (AARCH64 || "amd64".equals(System.getProperty("os.arch")) || "x86_64".equals(System.getProperty(
            "os.arch")));

    static final int EPERM = 1;
    static final int EINTR = 4;
    static final int ESRCH = 3;
    static final int EAGAIN = 11;
    static final int EACCES = 13;
    static final int EINVAL = 22;
    static final int ENOSYS = 38;
    static final int ETIMEDOUT = 110;

    static final long SYS_FUTEX = AARCH64 ? 98 : 202;
    /** Process-shared operations: {@code FUTEX_PRIVATE_FLAG} (128) must not be set, peers are other processes. */
    static final long FUTEX_WAIT = 0;
    static final long FUTEX_WAKE = 1;
    /** {@code pidfd_open(2)}, Linux 5.3: 434 on x86_64 and on aarch64 (the generic table) alike. */
    static final long SYS_PIDFD_OPEN = 434;

    static final int EFD_NONBLOCK = 04000;
    static final int EFD_CLOEXEC = 02000000;
    static final short POLLIN = 0x1;
    /** {@code struct pollfd}: {@code int fd; short events; short revents;}. */
    static final int POLLFD_SIZE = 8;

    static final int MFD_CLOEXEC = 1;
    static final int MFD_ALLOW_SEALING = 2;
    static final int F_ADD_SEALS = 1033;
    static final int F_GET_SEALS = 1034;
    static final int F_SEAL_SEAL = 1;
    static final int F_SEAL_SHRINK = 2;
    static final int F_SEAL_GROW = 4;

    static final int O_RDWR = 2;
    static final int O_NONBLOCK = 04000;
    static final int O_CLOEXEC = 02000000;

    static final int S_IFMT = 0170000;
    static final int S_IFREG = 0100000;

    private static final int STAT_SIZE = 144;
    private static final int STAT_MODE = AARCH64 ? 16 : 24;
    private static final int STAT_UID = AARCH64 ? 24 : 28;
    private static final int STAT_SIZE_FIELD = 48;
    private static final int STAT_DEV = 0; // st_dev and st_ino lead struct stat on both
    private static final int STAT_INO = 8;

    private static final Linker LINKER = Linker.nativeLinker();
    private static final SymbolLookup C = LINKER.defaultLookup();
    private static final Linker.Option ERRNO = Linker.Option.captureCallState("errno");
    private static final StructLayout CAPTURE = Linker.Option.captureStateLayout();
    private static final VarHandle ERRNO_H = CAPTURE.varHandle(MemoryLayout.PathElement.groupElement("errno"));

    /**
     * Per-thread scratch: the errno capture at 0, a {@code timespec} (or an eventfd's count) at 64,
     * {@code struct stat} at 128.
     */
    private static final ThreadLocal<MemorySegment> SCRATCH = ThreadLocal.withInitial(
            () -> Arena.ofAuto().allocate(128 + STAT_SIZE, 16));

    private static MethodHandle fn(String name, FunctionDescriptor d, Linker.Option... opts) {
        MemorySegment addr = C.find(name).orElseThrow(() -> new UnsupportedOperationException(
                "the C library has no " + name + " (glibc 2.33 or newer is needed)"));
        return LINKER.downcallHandle(addr, d, opts);
    }

    /** {@code long syscall(long, ...)}: every variadic argument passed as 64 bits, as the ABI wants. */
    private static final class Syscall {
        static final MethodHandle H = fn("syscall", FunctionDescriptor.of(JAVA_LONG, JAVA_LONG, JAVA_LONG, JAVA_LONG,
                JAVA_LONG, JAVA_LONG, JAVA_LONG, JAVA_LONG), ERRNO, Linker.Option.firstVariadicArg(1));
    }

    private static final class MemfdCreate {
        static final MethodHandle H = fn("memfd_create", FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_INT), ERRNO);
    }

    private static final class Ftruncate {
        static final MethodHandle H = fn("ftruncate", FunctionDescriptor.of(JAVA_INT, JAVA_INT, JAVA_LONG), ERRNO);
    }

    private static final class Fcntl {
        static final MethodHandle H = fn("fcntl", FunctionDescriptor.of(JAVA_INT, JAVA_INT, JAVA_INT, JAVA_INT),
                ERRNO, Linker.Option.firstVariadicArg(2));
    }

    private static final class Open {
        static final MethodHandle H = fn("open", FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_INT, JAVA_INT),
                ERRNO, Linker.Option.firstVariadicArg(2));
    }

    private static final class Close {
        static final MethodHandle H = fn("close", FunctionDescriptor.of(JAVA_INT, JAVA_INT), ERRNO);
    }

    private static final class Fstat {
        static final MethodHandle H = fn("fstat", FunctionDescriptor.of(JAVA_INT, JAVA_INT, ADDRESS), ERRNO);
    }

    private static final class Kill {
        static final MethodHandle H = fn("kill", FunctionDescriptor.of(JAVA_INT, JAVA_INT, JAVA_INT), ERRNO);
    }

    private static final class Eventfd {
        static final MethodHandle H = fn("eventfd", FunctionDescriptor.of(JAVA_INT, JAVA_INT, JAVA_INT), ERRNO);
    }

    private static final class Read {
        static final MethodHandle H = fn("read", FunctionDescriptor.of(JAVA_LONG, JAVA_INT, ADDRESS, JAVA_LONG),
                ERRNO);
    }

    private static final class Write {
        static final MethodHandle H = fn("write", FunctionDescriptor.of(JAVA_LONG, JAVA_INT, ADDRESS, JAVA_LONG),
                ERRNO);
    }

    private static final class Poll {
        static final MethodHandle H = fn("poll", FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_LONG, JAVA_INT), ERRNO);
    }

    private static final class Geteuid {
        static final MethodHandle H = fn("geteuid", FunctionDescriptor.of(JAVA_INT));
    }

    private static int errno(MemorySegment scratch) {
        return (int) ERRNO_H.get(scratch, 0L);
    }

    private static RuntimeException bug(Throwable t) {
        if (t instanceof RuntimeException r) {
            throw r;
        }
        if (t instanceof Error e) {
            throw e;
        }
        return new IllegalStateException("native call failed", t);
    }

    /**
     * {@code FUTEX_WAIT} on a word of a shared mapping, for at most {@code timeoutNanos}.
     *
     * @return 0 when woken (or spuriously), {@code -EAGAIN} if the word did not hold {@code expected},
     *         {@code -ETIMEDOUT}, {@code -EINTR}, or another {@code -errno}
     */
    static int futexWait(long address, int expected, long timeoutNanos) {
        MemorySegment s = SCRATCH.get();
        long ts = s.address() + 64;
        s.set(JAVA_LONG, 64, timeoutNanos / 1_000_000_000L);
        s.set(JAVA_LONG, 72, timeoutNanos % 1_000_000_000L);
        try {
            long r = (long) Syscall.H.invokeExact(s, SYS_FUTEX, address, FUTEX_WAIT, (long) expected, ts, 0L, 0L);
            return r < 0 ? -errno(s) : 0;
        } catch (Throwable t) {
            throw bug(t);
        }
    }

    /** {@code FUTEX_WAKE}. @return the number of threads woken, or {@code -errno} */
    static int futexWake(long address, int count) {
        MemorySegment s = SCRATCH.get();
        try {
            long r = (long) Syscall.H.invokeExact(s, SYS_FUTEX, address, FUTEX_WAKE, (long) count, 0L, 0L, 0L);
            return r < 0 ? -errno(s) : (int) r;
        } catch (Throwable t) {
            throw bug(t);
        }
    }

    /** @return a new memfd, or {@code -errno} */
    static int memfdCreate(String name, int flags) {
        MemorySegment s = SCRATCH.get();
        try (Arena a = Arena.ofConfined()) {
            return ret((int) MemfdCreate.H.invokeExact(s, a.allocateFrom(name), flags), s);
        } catch (Throwable t) {
            throw bug(t);
        }
    }

    static int ftruncate(int fd, long size) {
        MemorySegment s = SCRATCH.get();
        try {
            return ret((int) Ftruncate.H.invokeExact(s, fd, size), s);
        } catch (Throwable t) {
            throw bug(t);
        }
    }

    static int fcntl(int fd, int cmd, int arg) {
        MemorySegment s = SCRATCH.get();
        try {
            return ret((int) Fcntl.H.invokeExact(s, fd, cmd, arg), s);
        } catch (Throwable t) {
            throw bug(t);
        }
    }

    /** {@code open(2)}, retried on {@code EINTR}. @return the descriptor, or {@code -errno} */
    static int open(String path, int flags) {
        MemorySegment s = SCRATCH.get();
        try (Arena a = Arena.ofConfined()) {
            MemorySegment p = a.allocateFrom(path);
            for (;;) {
                int r = ret((int) Open.H.invokeExact(s, p, flags, 0), s);
                if (r != -EINTR) {
                    return r;
                }
            }
        } catch (Throwable t) {
            throw bug(t);
        }
    }

    /** {@code kill(2)}; with signal 0 it only asks whether the process exists. @return 0, or {@code -errno} */
    static int kill(int pid, int signal) {
        MemorySegment s = SCRATCH.get();
        try {
            int r = (int) Kill.H.invokeExact(s, pid, signal);
            return r < 0 ? -errno(s) : 0;
        } catch (Throwable t) {
            throw bug(t);
        }
    }

    /**
     * {@code pidfd_open(pid, 0)}: a descriptor that becomes readable when the process exits (and stays so).
     *
     * @return the descriptor (close-on-exec, as every pidfd), or {@code -errno}: {@code -ESRCH} if no process
     *         has the pid, {@code -ENOSYS} on kernels before 5.3 (or {@code -EPERM} where a seccomp filter
     *         refuses it)
     */
    static int pidfdOpen(int pid) {
        MemorySegment s = SCRATCH.get();
        try {
            long r = (long) Syscall.H.invokeExact(s, SYS_PIDFD_OPEN, (long) pid, 0L, 0L, 0L, 0L, 0L);
            return r < 0 ? -errno(s) : (int) r;
        } catch (Throwable t) {
            throw bug(t);
        }
    }

    /** @return a new eventfd (counter 0, nonblocking, close-on-exec), or {@code -errno} */
    static int eventfd() {
        MemorySegment s = SCRATCH.get();
        try {
            return ret((int) Eventfd.H.invokeExact(s, 0, EFD_NONBLOCK | EFD_CLOEXEC), s);
        } catch (Throwable t) {
            throw bug(t);
        }
    }

    /**
     * Adds 1 to an eventfd's counter, making it readable. A full counter ({@code EAGAIN}) is readable already, so
     * no error matters to a caller that only wants its poller woken.
     */
    static void eventfdSignal(int fd) {
        MemorySegment s = SCRATCH.get();
        MemorySegment one = s.asSlice(64, 8); // the timespec's place: this thread is not in a futex call now
        one.set(JAVA_LONG, 0, 1L);
        try {
            long r = (long) Write.H.invokeExact(s, fd, one, 8L);
            assert r == 8 || errno(s) == EAGAIN || errno(s) == EINTR;
        } catch (Throwable t) {
            throw bug(t);
        }
    }

    /** Resets a nonblocking eventfd's counter to 0 (reads it; {@code EAGAIN} when it already was). */
    static void eventfdDrain(int fd) {
        MemorySegment s = SCRATCH.get();
        try {
            long r = (long) Read.H.invokeExact(s, fd, s.asSlice(64, 8), 8L);
            assert r == 8 || errno(s) == EAGAIN || errno(s) == EINTR;
        } catch (Throwable t) {
            throw bug(t);
        }
    }

    /**
     * {@code poll(2)} on {@code n} {@code struct pollfd}s ({@link #POLLFD_SIZE} bytes each) in native memory.
     *
     * @param timeoutMillis -1 to wait without bound
     * @return the number of descriptors with events, 0 on timeout, or {@code -errno} ({@code -EINTR} too)
     */
    static int poll(MemorySegment fds, int n, int timeoutMillis) {
        MemorySegment s = SCRATCH.get();
        try {
            return ret((int) Poll.H.invokeExact(s, fds, (long) n, timeoutMillis), s);
        } catch (Throwable t) {
            throw bug(t);
        }
    }

    /** {@code close(2)}, not retried: Linux has released the descriptor whatever it returns. */
    static void close(int fd) {
        MemorySegment s = SCRATCH.get();
        try {
            int r = (int) Close.H.invokeExact(s, fd);
            assert r == 0 || errno(s) != 0;
        } catch (Throwable t) {
            throw bug(t);
        }
    }

    /** What {@code fstat(2)} says of a descriptor, as far as this module cares. */
    record Stat(int mode, int uid, long size, long dev, long ino) {
        boolean regular() {
            return (mode & S_IFMT) == S_IFREG;
        }
    }

    /** @return the descriptor's mode, owner, size, device and inode; null with {@code errno[0]} set on failure */
    static Stat fstat(int fd, int[] errno) {
        MemorySegment s = SCRATCH.get();
        MemorySegment st = s.asSlice(128, STAT_SIZE);
        try {
            int r = (int) Fstat.H.invokeExact(s, fd, st);
            if (r < 0) {
                errno[0] = errno(s);
                return null;
            }
        } catch (Throwable t) {
            throw bug(t);
        }
        return new Stat(st.get(JAVA_INT, STAT_MODE), st.get(JAVA_INT, STAT_UID), st.get(JAVA_LONG, STAT_SIZE_FIELD),
                st.get(JAVA_LONG, STAT_DEV), st.get(JAVA_LONG, STAT_INO));
    }

    static int geteuid() {
        try {
            return (int) Geteuid.H.invokeExact();
        } catch (Throwable t) {
            throw bug(t);
        }
    }

    private static int ret(int r, MemorySegment s) {
        return r < 0 ? -errno(s) : r;
    }

    /** @return the errno's name for messages, e.g. "EACCES (13)" */
    static String describe(int errno) {
        String name = switch (errno) {
            case EPERM -> "EPERM";
            case 2 -> "ENOENT";
            case ESRCH -> "ESRCH";
            case 9 -> "EBADF";
            case EACCES -> "EACCES";
            case 17 -> "EEXIST";
            case 21 -> "EISDIR";
            case EINVAL -> "EINVAL";
            case 24 -> "EMFILE";
            case 28 -> "ENOSPC";
            case ENOSYS -> "ENOSYS";
            default -> "errno";
        };
        return name + " (" + errno + ")";
    }
}
