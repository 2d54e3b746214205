package dev.sluice.crossjvm;

import java.io.IOException;
import java.io.InputStream;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/** CPU time used by a process: to show what a peer costs while it works and while it waits. */
public final class Cpu {
    /** Linux reports process times in clock ticks of 1/100 s ({@code USER_HZ}, fixed for user space). */
    private static final long NANOS_PER_TICK = 10_000_000L;

    private Cpu() {
    }

    /**
     * The CPU time (user + system, every thread, living and ended) a process has used, from
     * {@code /proc/<pid>/stat}. Linux derives it from the scheduler's exact run time, reported in 10 ms ticks.
     *
     * @param pid the process
     * @return nanoseconds, in steps of 10 ms; -1 if the process is gone or has no such file
     */
    public static long processNanos(long pid) {
        String stat;
        try (InputStream in = Files.newInputStream(Path.of("/proc/" + pid + "/stat"))) {
            // Not Files.readString: procfs files report a size of 0 (as the shm module's Procs notes).
            stat = new String(in.readAllBytes(), StandardCharsets.US_ASCII);
        } catch (IOException e) {
            return -1;
        }
        // The name (field 2) is in parentheses and may hold spaces: count fields after the last ')'.
        String[] f = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
        return (Long.parseLong(f[11]) + Long.parseLong(f[12])) * NANOS_PER_TICK; // utime, stime: fields 14, 15
    }

    /** {@return the CPU time this JVM has used, in nanoseconds (exact: the OS's process CPU clock)} */
    public static long selfNanos() {
        return ((com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean())
                .getProcessCpuTime();
    }
}
