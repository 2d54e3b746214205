package dev.sluice.crossjvm;

import java.util.concurrent.atomic.AtomicLongArray;

/**
 * How far apart two CPUs are now: the round trip of one cache line between two spinning threads, in
 * nanoseconds. On a 2-core virtual machine the scheduler puts the two threads on the two CPUs, so this is the
 * distance every byte moved between two threads or two processes pays; it changes when the host moves the
 * virtual CPUs (see docs/performance.md, "Two machines in one"). Meaningless beside busy threads, which take
 * the CPUs from the probe.
 */
public final class CpuDistance {
    /** Round trips of the first call's warm-up, so that both loops run compiled afterwards. */
    private static final int WARM_UP_TRIPS = 100_000;
    private static final int PROBES = 3;
    private static final int PROBE_TRIPS = 4_000;
    /** Whether a warm-up has run (a race at most repeats it). */
    private static volatile boolean warm;

    private CpuDistance() {
    }

    /**
     * The distance now, in a few milliseconds: the least of three short probes (a thread of the machine's
     * other work, or a timer, only adds to one), after a warm-up on the first call (interpreted loops read
     * several times too high).
     *
     * @return nanoseconds per round trip
     * @throws InterruptedException if interrupted while joining the other thread
     */
    public static double now() throws InterruptedException {
        if (!warm) {
            roundTripNanos(WARM_UP_TRIPS);
            warm = true;
        }
        double least = Double.MAX_VALUE;
        for (int i = 0; i < PROBES; i++) {
            least = Math.min(least, roundTripNanos(PROBE_TRIPS));
        }
        return least;
    }

    /**
     * Bounces a cache line between this thread and a new one {@code n} times.
     *
     * @param n round trips
     * @return nanoseconds per round trip
     * @throws InterruptedException if interrupted while joining the other thread
     */
    public static double roundTripNanos(int n) throws InterruptedException {
        AtomicLongArray line = new AtomicLongArray(32); // slots 0 and 16: two lines apart, no false sharing
        Thread echo = Thread.ofPlatform().daemon().start(() -> {
            for (long i = 1; i <= n; i++) {
                while (line.get(0) != i) {
                    Thread.onSpinWait();
                }
                line.set(16, i);
            }
        });
        long t0 = System.nanoTime();
        for (long i = 1; i <= n; i++) {
            line.set(0, i);
            while (line.get(16) != i) {
                Thread.onSpinWait();
            }
        }
        long t = System.nanoTime() - t0;
        echo.join();
        return t / (double) n;
    }
}
