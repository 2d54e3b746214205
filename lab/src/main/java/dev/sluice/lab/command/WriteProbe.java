package dev.sluice.lab.command;

import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemoryLayout;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.StructLayout;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.VarHandle;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;

/**
 * Whether a character device takes writes, found by a {@code write(2)} of no bytes through FFM. Opening cannot
 * tell: {@code /dev/full} opens for writing and refuses every write ({@code ENOSPC}), one of no bytes too, while
 * {@code /dev/null} or a terminal accept it and show nothing. The JDK makes no system call for a write of
 * nothing, hence FFM. Off Linux, or without native access, there is no probe and the open is the whole check.
 */
@SuppressWarnings("restricted") // the jar and ./sluice grant native access, as for getrusage
final class WriteProbe {
    // Linux's values, the same on x86_64 and aarch64.
    private static final int O_WRONLY = 01;
    private static final int O_NOCTTY = 0400;
    private static final int O_APPEND = 02000;
    private static final int O_NONBLOCK = 04000;
    private static final int O_CLOEXEC = 02000000;
    private static final int S_IFMT = 0170000;
    private static final int S_IFCHR = 0020000;

    private static final MethodHandle OPEN;
    private static final MethodHandle WRITE;
    private static final MethodHandle CLOSE;
    private static final MethodHandle STRERROR;
    private static final StructLayout STATE = Linker.Option.captureStateLayout();
    private static final VarHandle ERRNO = STATE.varHandle(MemoryLayout.PathElement.groupElement("errno"));

    static {
        MethodHandle open = null;
        MethodHandle write = null;
        MethodHandle close = null;
        MethodHandle strerror = null;
        if (System.getProperty("os.name", "").toLowerCase(Locale.ROOT).contains("linux")) {
            try {
                Linker linker = Linker.nativeLinker();
                Linker.Option errno = Linker.Option.captureCallState("errno");
                var lib = linker.defaultLookup();
                // open(2) is variadic; called without a mode (no O_CREAT), its two fixed arguments are all it needs.
                open = linker.downcallHandle(lib.find("open").orElseThrow(), FunctionDescriptor.of(
                        ValueLayout.JAVA_INT, ValueLayout.ADDRESS, ValueLayout.JAVA_INT), errno);
                write = linker.downcallHandle(lib.find("write").orElseThrow(), FunctionDescriptor.of(
                        ValueLayout.JAVA_LONG, ValueLayout.JAVA_INT, ValueLayout.ADDRESS, ValueLayout.JAVA_LONG),
                        errno);
                close = linker.downcallHandle(lib.find("close").orElseThrow(),
                        FunctionDescriptor.of(ValueLayout.JAVA_INT, ValueLayout.JAVA_INT));
                strerror = linker.downcallHandle(lib.find("strerror").orElseThrow(),
                        FunctionDescriptor.of(ValueLayout.ADDRESS, ValueLayout.JAVA_INT));
            } catch (RuntimeException | LinkageError e) {
                open = null; // no probe: the open in Outputs stays the check
            }
        }
        OPEN = open;
        WRITE = write;
        CLOSE = close;
        STRERROR = strerror;
    }

    private WriteProbe() {
    }

    /**
     * @param file a file that exists and opened for writing
     * @return why a character device refuses writes ({@code "No space left on device"}), or null if it takes
     *         them, {@code file} is no character device, or there is no probe here
     */
    static String refusal(Path file) {
        if (OPEN == null || !isCharacterDevice(file)) {
            return null;
        }
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment state = arena.allocate(STATE);
            int fd = (int) OPEN.invokeExact(state, arena.allocateFrom(file.toString()),
                    O_WRONLY | O_APPEND | O_NOCTTY | O_NONBLOCK | O_CLOEXEC);
            if (fd < 0) {
                return describe((int) ERRNO.get(state, 0L));
            }
            long r = (long) WRITE.invokeExact(state, fd, arena.allocate(1), 0L);
            int errno = (int) ERRNO.get(state, 0L);
            int ignored = (int) CLOSE.invokeExact(fd);
            return r < 0 ? describe(errno) : null;
        } catch (Throwable t) {
            return null; // the probe failed, not the device: the open already succeeded
        }
    }

    private static boolean isCharacterDevice(Path file) {
        try {
            return ((Integer) Files.getAttribute(file, "unix:mode") & S_IFMT) == S_IFCHR;
        } catch (IOException | RuntimeException e) {
            return false;
        }
    }

    private static String describe(int errno) throws Throwable {
        MemorySegment s = (MemorySegment) STRERROR.invokeExact(errno);
        return s.reinterpret(256).getString(0);
    }
}
