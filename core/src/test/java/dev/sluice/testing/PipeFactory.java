package dev.sluice.testing;

import dev.sluice.Pipe;
import dev.sluice.PipeOptions;

/**
 * One kind of pipe under test, as the contract suite sees it: a name (which every test's display name
 * carries), the capabilities it declares, and how to open one.
 */
public interface PipeFactory {
    /** {@return a short name, e.g. {@code "default"} or {@code "always/broadcast/spin"}} */
    String name();

    /**
     * {@return whether pipes of this kind have {@code capability}}
     *
     * @param capability what a test needs
     */
    boolean has(Capability capability);

    /**
     * {@return a builder preset with this configuration (its policies, page memory, ...), for the test to set
     * what it asks for on top, as the JVM-wide {@code sluice.*} defaults would be}
     */
    PipeOptions.Builder options();

    /**
     * Opens a pipe with the options a test asks for (a configuration that changes every pipe's shape, one page
     * or packet mode, forces it here).
     *
     * @param options what the test asks for, from {@link #options()}
     * @return a new pipe
     */
    Pipe open(PipeOptions options);

    /** {@return a pipe with this configuration and otherwise the defaults of {@code pipe(2)}} */
    default Pipe open() {
        return open(options().build());
    }

    /**
     * How many bytes a stress test moves through pipes of this kind: the reference configuration runs at full
     * size, every other one at a fraction, so the whole matrix stays within the suite's time.
     *
     * @return bytes per stress configuration
     */
    long stressBytes();

    /**
     * Supplies the pipes under test of a test class path, found by {@link java.util.ServiceLoader}: the core
     * module's test resources name {@link InProcessPipes} (left out of the published test-jar), the kernel
     * module's name its kernel pipes, so each module runs the same contract classes over its own pipes.
     */
    interface Source {
        /** {@return the pipes under test, the reference configuration first} */
        java.util.List<PipeFactory> pipes();
    }
}
