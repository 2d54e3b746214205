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
 * profiler after the trial's tear-down on the last iteration, when the child has been closed: that iteration has
 * no figures, so the averages are over the others (4 of {@code -i 5}); a child started during an iteration (the
 * first warm-up) is not counted in it.
 */
public final class CrossJvmCpu implements InternalProfiler {
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

    @Override
    public void beforeIteration(BenchmarkParams benchmarkParams, IterationParams iterationParams) {
        children0.clear();
        ProcessHandle.current().children().forEach(p -> children0.put(p.pid(), Cpu.processNanos(p.pid())));
        self0 = Cpu.selfNanos();
        wall0 = System.nanoTime();
    }

    @Override
    public Collection<? extends Result> afterIteration(BenchmarkParams benchmarkParams,
                                                       IterationParams iterationParams, IterationResult result) {
        double wall = System.nanoTime() - wall0;
        long self = Cpu.selfNanos() - self0;
        long child = 0;
        for (Map.Entry<Long, Long> e : children0.entrySet()) {
            long now = Cpu.processNanos(e.getKey());
            if (now < 0 || e.getValue() < 0) {
                // Gone: the last iteration ends after the trial's tear-down, which closed the child (and took
                // time of its own). Nothing is reported for it rather than a child that seems to have slept.
                return List.of();
            }
            child += now - e.getValue();
        }
        return List.of(new ScalarResult("cpu.child", child / wall, "cores", AggregationPolicy.AVG),
                new ScalarResult("cpu.parent", self / wall, "cores", AggregationPolicy.AVG));
    }
}
