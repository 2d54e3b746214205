package dev.sluice.lab.workload;

import dev.sluice.lab.targets.Target;

import java.util.List;
import java.util.Map;
import java.util.Optional;

/** One of the kernel list's pipe workloads, re-created for in-process pipes. */
public interface Workload {

    String name();

    /** @return one line: what the original is and what this one does */
    String description();

    List<Param> params();

    Metric primary();

    /** @return whether {@code perf bench} has this workload, so the perf target can run it */
    default boolean hasPerfEquivalent() {
        return false;
    }

    /**
     * @return why {@code target} cannot run this workload with these parameters and threads, if it cannot
     */
    default Optional<String> unsupported(Target target, Map<String, Long> params, ThreadKind threads) {
        return Optional.empty();
    }

    /**
     * Runs once and checks the result.
     *
     * @throws CheckFailure if data went missing, arrived twice, out of order or corrupted
     * @throws Exception    if the pipe failed
     */
    Outcome run(Target target, Map<String, Long> params, ThreadKind threads) throws Exception;
}
