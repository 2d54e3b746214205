package dev.sluice.lab.targets;

import java.io.IOException;
import java.util.Map;
import java.util.Optional;

/** A pipe implementation under test. */
public interface Target {

    /** {@return the family: sluice, kernel, nio, jdk-piped, okio} */
    Family family();

    /** {@return the name in tables and JSON, e.g. {@code sluice} or {@code sluice[half-empty,spin]}} */
    String id();

    /** {@return the variant's settings (policy, lock, ...) by name, empty for targets without any} */
    default Map<String, String> settings() {
        return Map.of();
    }

    /** {@return what this target can do} */
    Caps caps();

    /**
     * Describes this target's configuration for the tables.
     *
     * @param traffic what the workload does with the pipe
     * @return how this target is configured and called for it, in a few words for the tables
     */
    String how(Traffic traffic);

    /** {@return why this target cannot run at all on this machine or build, if it cannot} */
    default Optional<String> unavailable() {
        return Optional.empty();
    }

    /**
     * Opens a pipe.
     *
     * @param spec capacity, blocking mode and the kind of traffic
     * @return both ends of a new pipe
     * @throws IOException if the pipe cannot be opened
     */
    PipeHandle open(Open spec) throws IOException;
}
