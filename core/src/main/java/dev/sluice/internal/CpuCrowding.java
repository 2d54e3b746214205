package dev.sluice.internal;

import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Whether the machine has more runnable threads than CPUs: the question a Linux spinner asks before each
 * round ({@code need_resched()} in {@code mutex_spin_on_owner}), which Java cannot ask of its own CPU. On a
 * crowded machine a thread that spins burns the share of a CPU that the thread it waits for needs, and the
 * scheduler then treats it as the hog it is; a thread that sleeps instead is woken promptly (the wake-up finds
 * the CPU awake, which is what makes a spin worth it on an idle machine). So spinners ask this first, and park
 * at once while it says yes.
 *
 * <p>The answer is the fourth field of {@code /proc/loadavg} (runnable tasks, the asker included) against the
 * online CPUs, sampled at most once a millisecond by one platform thread at a time, and crowded only when
 * {@value #STREAK} samples in a row say so; everybody else reads the last answer (a volatile load). Where
 * {@code /proc/loadavg} cannot be read (not Linux), the machine is never crowded and spins behave as before.
 * The count is the host's, as is the CPU count it is compared with: in a container limited by a CPU quota
 * that the rest of the host keeps busy, spinning stops, which is what the kernel's own pipe does anyway.
 */
public final class CpuCrowding {
    /** How old a sample may be before a platform thread takes another. */
    static final long REFRESH_NANOS = 1_000_000;
    /**
     * Samples in a row that must find the machine crowded: a third runnable thread for a moment is common on an
     * idle machine, for eight milliseconds in a row rare (docs/performance.md, "No spin on a crowded machine").
     */
    static final int STREAK = 8;

    private static final CpuCrowding SYSTEM = new CpuCrowding(Path.of("/proc/loadavg"),
            Path.of("/sys/devices/system/cpu/online"));

    /** Null once reading failed (or at once, off Linux): never crowded. Only the sampling thread reads it. */
    private RandomAccessFile loadavg;
    private final int cpus;
    private final byte[] buf = new byte[128];
    private final AtomicBoolean sampling = new AtomicBoolean();
    /** Samples in a row that found the machine crowded, up to {@link #STREAK}; only the sampler touches it. */
    private int streak;
    private volatile long sampledAt;
    private volatile boolean crowded;

    /**
     * @param loadavg the {@code /proc/loadavg} to read
     * @param online  the list of online CPUs ({@code 0-3,8-11}); the JVM's processor count if unreadable
     */
    CpuCrowding(Path loadavg, Path online) {
        RandomAccessFile f;
        try {
            f = new RandomAccessFile(loadavg.toFile(), "r");
        } catch (IOException | SecurityException e) {
            f = null;
        }
        this.loadavg = f;
        this.cpus = onlineCpus(online);
        this.sampledAt = System.nanoTime() - REFRESH_NANOS;
    }

    /** @return whether this machine had more runnable threads than CPUs in the last samples (1 ms apart) */
    public static boolean crowded() {
        return SYSTEM.isCrowded();
    }

    boolean isCrowded() {
        long now = System.nanoTime();
        if (now - sampledAt >= REFRESH_NANOS && !Thread.currentThread().isVirtual()
                && sampling.compareAndSet(false, true)) {
            try {
                sample(now);
            } finally {
                sampling.set(false);
            }
        }
        return crowded;
    }

    private void sample(long now) {
        RandomAccessFile f = loadavg;
        if (f == null) {
            return;
        }
        int running;
        try {
            f.seek(0); // RandomAccessFile, not a FileChannel: an interrupt must not close it under the spinner
            running = runnable(buf, f.read(buf, 0, buf.length));
        } catch (IOException e) {
            running = -1;
        }
        if (running < 0) {
            loadavg = null; // unreadable or unparsable: stop asking, never crowded
            crowded = false;
            try {
                f.close();
            } catch (IOException ignored) {
                // nothing more to do with it
            }
            return;
        }
        // Crowded only after STREAK samples in a row say so: on an idle machine a compiler, GC or kernel thread
        // that runs for a moment beside a pair of threads spinning at each other must not make them park.
        int n = running > cpus ? Math.min(streak + 1, STREAK) : 0;
        streak = n;
        crowded = n == STREAK;
        sampledAt = now;
    }

    /**
     * @param b {@code /proc/loadavg}'s bytes ({@code 0.52 0.58 0.59 3/467 12345})
     * @param n how many there are
     * @return the runnable tasks (the number before the slash), or -1 if the text is not of that form
     */
    static int runnable(byte[] b, int n) {
        int i = 0;
        for (int spaces = 0; spaces < 3; i++) {
            if (i >= n) {
                return -1;
            }
            if (b[i] == ' ') {
                spaces++;
            }
        }
        int v = 0;
        int digits = 0;
        for (; i < n && b[i] >= '0' && b[i] <= '9' && digits < 9; i++, digits++) {
            v = v * 10 + (b[i] - '0');
        }
        return digits > 0 && i < n && b[i] == '/' ? v : -1;
    }

    /**
     * @param online a CPU list file ({@code 0-1}, {@code 0-3,8-11})
     * @return how many CPUs it lists, or {@link Runtime#availableProcessors()} if it cannot be read or parsed
     */
    static int onlineCpus(Path online) {
        try {
            int n = cpuListSize(Files.readString(online, StandardCharsets.US_ASCII).strip());
            return n > 0 ? n : Runtime.getRuntime().availableProcessors();
        } catch (IOException | RuntimeException e) {
            return Runtime.getRuntime().availableProcessors();
        }
    }

    /** @return the number of CPUs a list such as {@code 0-3,8-11} names, or -1 if it is malformed */
    static int cpuListSize(String list) {
        if (list.isEmpty()) {
            return -1;
        }
        int n = 0;
        for (String range : list.split(",")) {
            int dash = range.indexOf('-');
            try {
                int lo = Integer.parseInt(dash < 0 ? range : range.substring(0, dash));
                int hi = dash < 0 ? lo : Integer.parseInt(range.substring(dash + 1));
                if (hi < lo || lo < 0) {
                    return -1;
                }
                n += hi - lo + 1;
            } catch (NumberFormatException e) {
                return -1;
            }
        }
        return n;
    }
}
