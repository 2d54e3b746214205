package dev.sluice.lab.measure;

import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandle;
import java.util.Locale;
import java.util.Optional;

/**
 * {@code getrusage(2)} through FFM. Only Linux on x86_64 and aarch64 is supported: there {@code struct rusage}
 * is two {@code struct timeval} (two 8-byte longs each) followed by fourteen longs, of which
 * {@code ru_nvcsw} and {@code ru_nivcsw} are the last two. Anywhere else, or if the native call cannot be
 * bound (no {@code --enable-native-access}), {@link #available()} explains why and figures are "n/a".
 */
@SuppressWarnings("restricted") // getrusage is the point; the jar and ./sluice grant native access
public final class Rusage {
    /** {@code who} for this process: every thread of the JVM, the workload's and the lab's. */
    public static final int RUSAGE_SELF = 0;
    /** {@code who} for the child processes that have ended and been waited for (a perf bench reference run). */
    public static final int RUSAGE_CHILDREN = -1;

    private static final long SIZE = 144;
    private static final long UTIME = 0;
    private static final long STIME = 16;
    private static final long NVCSW = 128;
    private static final long NIVCSW = 136;

    private static final MethodHandle GETRUSAGE;
    private static final String WHY_NOT;

    static {
        MethodHandle h = null;
        String why = null;
        String os = System.getProperty("os.name", "").toLowerCase(Locale.ROOT);
        String arch = System.getProperty("os.arch", "").toLowerCase(Locale.ROOT);
        if (!os.contains("linux")) {
            why = "getrusage layout known only for Linux (this is " + os + ")";
        } else if (!(arch.equals("amd64") || arch.equals("x86_64") || arch.equals("aarch64"))) {
            why = "struct rusage layout not checked for " + arch;
        } else {
            try {
                Linker linker = Linker.nativeLinker();
                h = linker.downcallHandle(linker.defaultLookup().find("getrusage").orElseThrow(),
                        FunctionDescriptor.of(ValueLayout.JAVA_INT, ValueLayout.JAVA_INT, ValueLayout.ADDRESS));
            } catch (RuntimeException | LinkageError e) {
                why = "getrusage through FFM failed: " + e;
            }
        }
        GETRUSAGE = h;
        WHY_NOT = why;
    }

    private Rusage() {
    }

    /**
     * One reading.
     *
     * @param userNanos  user CPU time
     * @param sysNanos   system CPU time
     * @param voluntary  voluntary context switches (the task blocked: waits on a pipe)
     * @param involuntary involuntary context switches (preempted)
     */
    public record Sample(long userNanos, long sysNanos, long voluntary, long involuntary) {
        /**
         * {@return what happened between two readings: each figure of this one less that of {@code o}}
         *
         * @param o the earlier reading
         */
        public Sample minus(Sample o) {
            return new Sample(userNanos - o.userNanos, sysNanos - o.sysNanos, voluntary - o.voluntary,
                    involuntary - o.involuntary);
        }
    }

    /** {@return empty if getrusage works here, else why not} */
    public static Optional<String> available() {
        return Optional.ofNullable(WHY_NOT);
    }

    /**
     * {@return the reading, or empty when getrusage is not available or fails}
     *
     * @param who {@link #RUSAGE_SELF} or {@link #RUSAGE_CHILDREN}
     */
    public static Optional<Sample> read(int who) {
        if (GETRUSAGE == null) {
            return Optional.empty();
        }
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment s = arena.allocate(SIZE, 8);
            int rc = (int) GETRUSAGE.invokeExact(who, s);
            if (rc != 0) {
                return Optional.empty();
            }
            return Optional.of(new Sample(timeval(s, UTIME), timeval(s, STIME),
                    s.get(ValueLayout.JAVA_LONG, NVCSW), s.get(ValueLayout.JAVA_LONG, NIVCSW)));
        } catch (Throwable t) {
            return Optional.empty();
        }
    }

    private static long timeval(MemorySegment s, long off) {
        return s.get(ValueLayout.JAVA_LONG, off) * 1_000_000_000L + s.get(ValueLayout.JAVA_LONG, off + 8) * 1_000L;
    }
}
