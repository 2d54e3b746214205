package dev.sluice.lab.workload;

import dev.sluice.lab.targets.Target;
import dev.sluice.lab.targets.Traffic;

import java.util.List;
import java.util.Map;
import java.util.Optional;

/** One of the kernel list's pipe workloads, re-created for in-process pipes. */
public interface Workload {

    /** {@return the name on the command line} */
    String name();

    /** {@return one line: what the original is and what this one does} */
    String description();

    /** {@return the parameters, each with its default, quick preset and range} */
    List<Param> params();

    /** {@return the figure the tables compare on} */
    Metric primary();

    /** {@return what the workload does with its pipes, so buffered targets know when to flush} */
    default Traffic traffic() {
        return Traffic.STREAM;
    }

    /**
     * {@return whether this workload runs with its peer in another JVM on a {@link
     * dev.sluice.lab.targets.CrossJvmTarget} (the others are "n/a" there)}
     */
    default boolean crossJvm() {
        return false;
    }

    /** {@return the native program that runs this workload as a reference row, if there is one} */
    default Optional<Reference> reference() {
        return Optional.empty();
    }

    /**
     * Checks what single ranges cannot ({@code bytes >= size}); called for every case before anything runs.
     *
     * @param params every parameter's value
     * @return what is wrong, naming the options, if anything is
     */
    default Optional<String> invalid(Map<String, Long> params) {
        return Optional.empty();
    }

    /**
     * Says whether this workload can run one case on a target (one without nonblocking ends or atomic writes
     * may not), before the runner tries it; by default every case can.
     *
     * @param target  the target
     * @param params  the case's parameters
     * @param threads the thread kind
     * @return why {@code target} cannot run this workload with these parameters and threads, if it cannot
     */
    default Optional<String> unsupported(Target target, Map<String, Long> params, ThreadKind threads) {
        return Optional.empty();
    }

    /**
     * Runs once and checks the result.
     *
     * @param target  the pipe to run on
     * @param params  the case's parameters
     * @param threads the thread kind
     * @return what was measured
     * @throws CheckFailure if data went missing, arrived twice, out of order or corrupted
     * @throws Exception    if the pipe failed
     */
    Outcome run(Target target, Map<String, Long> params, ThreadKind threads) throws Exception;
}
