package dev.sluice.testing;

import dev.sluice.Pipe;
import dev.sluice.PipeOptions;

/**
 * The one place the test suites make the pipe under test. Every conformance, stress and model test opens
 * its pipes here, so that the same suites can later be pointed at another implementation of the same
 * semantics (kernel pipes through FFM) by changing this class alone. The policy matrix needs no hook here:
 * it sets the pipes' defaults through the {@code sluice.*} system properties.
 */
public final class TestPipes {
    private TestPipes() {
    }

    /** @return a pipe with the defaults of {@code pipe(2)}, as configured for this run */
    public static Pipe open() {
        return Pipe.open();
    }

    /** @return a pipe with the given options */
    public static Pipe open(PipeOptions options) {
        return Pipe.open(options);
    }
}
