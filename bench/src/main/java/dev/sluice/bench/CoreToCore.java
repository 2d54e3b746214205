package dev.sluice.bench;

import dev.sluice.crossjvm.CpuDistance;
import java.util.Collection;
import java.util.List;
import org.openjdk.jmh.infra.BenchmarkParams;
import org.openjdk.jmh.infra.IterationParams;
import org.openjdk.jmh.profile.InternalProfiler;
import org.openjdk.jmh.results.AggregationPolicy;
import org.openjdk.jmh.results.IterationResult;
import org.openjdk.jmh.results.Result;
import org.openjdk.jmh.results.ScalarResult;

/**
 * How far apart the machine's two CPUs are now ({@link CpuDistance}): the round trip of one cache line between
 * two spinning threads, in nanoseconds. On the project's 2-core guests it takes one of two values and flips every
 * few seconds to minutes as the host moves the virtual CPUs; everything that moves bytes between two threads on
 * the two CPUs follows it, a stream between two JVMs by a factor of three or four. See docs/performance.md, "Two
 * machines in one".
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
     * Prints the round trip four times a second.
     *
     * @param args seconds to run (default 10)
     * @throws InterruptedException if interrupted
     */
    public static void main(String[] args) throws InterruptedException {
        int seconds = args.length > 0 ? Integer.parseInt(args[0]) : 10;
        CpuDistance.roundTripNanos(ROUND_TRIPS); // compiled before the first figure
        for (int i = 0; i < seconds * 4; i++) {
            System.out.printf("%.0f%s", CpuDistance.roundTripNanos(ROUND_TRIPS), (i + 1) % 20 == 0 ? "\n" : " ");
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
            return CpuDistance.roundTripNanos(ROUND_TRIPS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return Double.NaN;
        }
    }
}
