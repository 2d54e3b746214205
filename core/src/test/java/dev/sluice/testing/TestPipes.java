package dev.sluice.testing;

import dev.sluice.Pipe;
import dev.sluice.PipeOptions;
import java.util.function.Function;
import org.junit.jupiter.api.Assumptions;

/**
 * The one place the test suites make the pipe under test. Every conformance, stress and model test opens
 * its pipes here, so that the same suites run against another implementation of the same semantics.
 *
 * <p>By default the pipe is Sluice's in-process pipe. The system property {@code sluice.testPipes} names
 * a class with a public no-argument constructor that implements {@code Function<PipeOptions, Pipe>}; when
 * set, every pipe comes from it (the kernel module runs the suites this way against kernel pipes). A
 * factory that cannot honour some options aborts the test with an assumption failure, so the test shows
 * as skipped with the reason. The policy matrix needs no hook here: it sets the pipes' defaults through
 * the {@code sluice.*} system properties.
 */
public final class TestPipes {
    private static final Function<PipeOptions, Pipe> FACTORY = load(System.getProperty("sluice.testPipes"));

    private TestPipes() {
    }

    @SuppressWarnings("unchecked")
    private static Function<PipeOptions, Pipe> load(String className) {
        if (className == null || className.isBlank()) {
            return null;
        }
        try {
            return (Function<PipeOptions, Pipe>) Class.forName(className.trim()).getConstructor().newInstance();
        } catch (ReflectiveOperationException | ClassCastException e) {
            throw new IllegalStateException("sluice.testPipes=" + className
                    + " must name a Function<PipeOptions, Pipe> with a public no-argument constructor", e);
        }
    }

    /** @return a pipe with the defaults of {@code pipe(2)}, as configured for this run */
    public static Pipe open() {
        return FACTORY == null ? Pipe.open() : FACTORY.apply(PipeOptions.defaults());
    }

    /** @return a pipe with the given options */
    public static Pipe open(PipeOptions options) {
        return FACTORY == null ? Pipe.open(options) : FACTORY.apply(options);
    }

    /** @return whether the pipes under test are Sluice's in-process pipes */
    public static boolean inProcess() {
        return FACTORY == null;
    }

    /**
     * Skips the calling test unless the pipes under test are in-process: for checks of what only the
     * in-process pipe can show (slot counts, wake-up and pool counters, its options).
     *
     * @param why what the test needs, shown as the reason it was skipped
     */
    public static void assumeInProcess(String why) {
        Assumptions.assumeTrue(FACTORY == null, () -> "needs the in-process pipe: " + why);
    }
}
