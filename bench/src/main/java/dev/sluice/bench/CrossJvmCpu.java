package dev.sluice.bench;

import dev.sluice.crossjvm.Cpu;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.openjdk.jmh.infra.BenchmarkParams;
import org.openjdk.jmh.infra.IterationParams;
import org.openjdk.jmh.profile.InternalProfiler;
import org.openjdk.jmh.results.AggregationPolicy;
import org.openjdk.jmh.results.IterationResult;
import org.openjdk.jmh.results.Result;
import org.openjdk.jmh.results.ScalarResult;

/**
 * A JMH profiler ({@code -prof dev.sluice.bench.CrossJvmCpu}): the CPU the benchmark's JVM and its child
 * processes (a cross-JVM peer) used during each iteration, in cores (CPU seconds per second of the iteration;
 * 2 would be both cores of a 2-core machine), averaged over the iterations. {@code cpu.parent} is this JVM's own
 * exact CPU clock, busy threads and JMH included; {@code cpu.child} is every child's user + system time from
 * {@code /proc/<pid>/stat} (exact run time, in 10 ms steps: ±0.01 core in a 1 s iteration). JMH calls the
 * profiler after the trial's tear-down on the last iteration, when the child has been closed: that iteration's
 * figures end where the tear-down began ({@link #childClosing}). A child started during an iteration (the first
 * warm-up) is not counted in it.
 */
public final class CrossJvmCpu implements InternalProfiler {
    /** What {@link #childClosing} saw: the child's pid and CPU time, this JVM's CPU time, the clock. */
    private static volatile long[] lastLook;
    private long wall0;
    private long self0;
    private final Map<Long, Long> children0 = new HashMap<>();

    /** Made by JMH for {@code -prof}. */
    public CrossJvmCpu() {
    }

    @Override
    public String getDescription() {
        return "CPU of this JVM and of its child processes (a cross-JVM peer), in cores";
    }

    /**
     * Called by a benchmark's tear-down just before it closes its child: JMH calls the profiler after the tear-down
     * on the last iteration, when the child is gone, so that iteration's figures are taken from here.
     *
     * @param pid      the child
     * @param childCpu its CPU time now ({@link Cpu#processNanos})
     */
    static void childClosing(long pid, long childCpu) {
        lastLook = new long[] {pid, childCpu, Cpu.selfNanos(), System.nanoTime()};
    }

    @Override
    public void beforeIteration(BenchmarkParams benchmarkParams, IterationParams iterationParams) {
        lastLook = null;
        children0.clear();
        ProcessHandle.current().children().forEach(p -> children0.put(p.pid(), Cpu.processNanos(p.pid())));
        self0 = Cpu.selfNanos();
        wall0 = System.nanoTime();
    }

    @Override
    public Collection<? extends Result> afterIteration(BenchmarkParams benchmarkParams,
                                                       IterationParams iterationParams, IterationResult result) {
        long end = System.nanoTime();
        long selfNow = Cpu.selfNanos();
        long child = 0;
        for (Map.Entry<Long, Long> e : children0.entrySet()) {
            long now = Cpu.processNanos(e.getKey());
            long[] look = lastLook;
            if (now < 0 && look != null && look[0] == e.getKey()) {
                now = look[1]; // closed by the tear-down: as it was at the end of the measured time
                selfNow = look[2];
                end = look[3];
            }
            if (now < 0 || e.getValue() < 0) {
                return List.of(); // gone without a last look: no figures rather than a child that seems idle
            }
            child += now - e.getValue();
        }
        double wall = end - wall0;
        long self = selfNow - self0;
        return List.of(new ScalarResult("cpu.child", child / wall, "cores", AggregationPolicy.AVG),
                new ScalarResult("cpu.parent", self / wall, "cores", AggregationPolicy.AVG));
    }
}
