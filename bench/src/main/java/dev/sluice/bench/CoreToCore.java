package dev.sluice.bench;

import java.util.Collection;
import java.util.List;
import java.util.concurrent.atomic.AtomicLongArray;
import org.openjdk.jmh.infra.BenchmarkParams;
import org.openjdk.jmh.infra.IterationParams;
import org.openjdk.jmh.profile.InternalProfiler;
import org.openjdk.jmh.results.AggregationPolicy;
import org.openjdk.jmh.results.IterationResult;
import org.openjdk.jmh.results.Result;
import org.openjdk.jmh.results.ScalarResult;

/**
 * How far apart the machine's two CPUs are now: the round trip of one cache line between two spinning threads,
 * in nanoseconds. On the project's 2-core guests it is two-valued, about 130 ns or about 430 ns, and flips every
 * few seconds to minutes as the host moves the virtual CPUs; everything that moves bytes between two threads on
 * the two CPUs follows it (a stream of 4 KiB writes between virtual threads, or between two JVMs through a
 * shared-memory pipe, runs at about 7.5 or about 2 GB/s). See docs/performance.md, "Two machines in one".
 *
 * <p>As a JMH profiler ({@code -prof dev.sluice.bench.CoreToCore}) it measures before and after each iteration
 * (about 20 ms each, not timed) and reports {@code c2c.ns}, the mean of the two, per iteration in the JSON
 * output; an iteration whose two figures differ much straddled a move. Meaningless beside busy threads, which
 * take the CPUs from the probe. As a program it prints the round trip four times a second:
 *
 * <pre>{@code
 * java -cp bench/target/benchmarks.jar dev.sluice.bench.CoreToCore 30     # 30 seconds
 * }</pre>
 */
public final class CoreToCore implements InternalProfiler {
    private static final int ROUND_TRIPS = 50_000;
    private double before;

    /** Made by JMH for {@code -prof}. */
    public CoreToCore() {
    }

    /**
     * Bounces a cache line between this thread and a new one {@code n} times.
     *
     * @param n round trips
     * @return nanoseconds per round trip
     * @throws InterruptedException if interrupted while joining the other thread
     */
    static double roundTripNanos(int n) throws InterruptedException {
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

    /**
     * Prints the round trip four times a second.
     *
     * @param args seconds to run (default 10)
     * @throws InterruptedException if interrupted
     */
    public static void main(String[] args) throws InterruptedException {
        int seconds = args.length > 0 ? Integer.parseInt(args[0]) : 10;
        roundTripNanos(ROUND_TRIPS); // compiled before the first figure
        for (int i = 0; i < seconds * 4; i++) {
            System.out.printf("%.0f%s", roundTripNanos(ROUND_TRIPS), (i + 1) % 20 == 0 ? "\n" : " ");
            System.out.flush();
            Thread.sleep(200);
        }
        System.out.println();
    }

    @Override
    public String getDescription() {
        return "cache-line round trip between the two CPUs before and after each iteration, in ns";
    }

    @Override
    public void beforeIteration(BenchmarkParams benchmarkParams, IterationParams iterationParams) {
        before = measure();
    }

    @Override
    public Collection<? extends Result> afterIteration(BenchmarkParams benchmarkParams,
                                                       IterationParams iterationParams, IterationResult result) {
        double after = measure();
        return List.of(new ScalarResult("c2c.ns", (before + after) / 2, "ns", AggregationPolicy.AVG),
                new ScalarResult("c2c.change", Math.abs(after - before), "ns", AggregationPolicy.AVG));
    }

    private static double measure() {
        try {
            return roundTripNanos(ROUND_TRIPS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return Double.NaN;
        }
    }
}
