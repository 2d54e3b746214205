package dev.sluice.lab.targets;

import java.io.IOException;
import java.util.Optional;

/** A pipe implementation under test. */
public interface Target {

    /** @return the family name used on the command line: sluice, kernel, jdk-piped, nio, okio, perf */
    String family();

    /** @return the name in tables and JSON, e.g. {@code sluice} or {@code sluice[half-empty,spin]} */
    String id();

    /** @return the variant's settings (policy, lock, ...) by name, empty for targets without any */
    default java.util.Map<String, String> settings() {
        return java.util.Map.of();
    }

    Caps caps();

    /** @return why this target cannot run at all on this machine or build, if it cannot */
    default Optional<String> unavailable() {
        return Optional.empty();
    }

    /**
     * Opens a pipe.
     *
     * @param capacity    wanted capacity in bytes, 0 for the target's default
     * @param nonBlocking whether both ends are nonblocking (only if {@link Caps#nonBlocking})
     */
    PipeHandle open(int capacity, boolean nonBlocking) throws IOException;
}
