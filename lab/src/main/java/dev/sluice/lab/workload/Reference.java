package dev.sluice.lab.workload;

import java.util.Map;
import java.util.Optional;

/**
 * A native program that runs a workload its own way, as a reference row beside the pipes (perf bench): it
 * opens no pipe of the lab's and is not a target.
 */
public interface Reference {
    /** {@return the row's name, e.g. {@code perf}} */
    String id();

    /** {@return the command it runs, for the tables} */
    String how();

    /**
     * Says whether the reference program can run one case before the runner tries it.
     *
     * @param params  the case's parameters
     * @param threads the thread kind asked for
     * @return why the reference cannot run this case (not installed, other parameters built in), if it cannot
     */
    Optional<String> unsupported(Map<String, Long> params, ThreadKind threads);

    /**
     * Runs once.
     *
     * @param params the case's parameters
     * @return what the program measured
     * @throws Exception if it failed
     */
    Outcome run(Map<String, Long> params) throws Exception;
}
