package dev.sluice.testing;

import dev.sluice.Pipe;
import dev.sluice.PipeOptions;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.Parameter;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.ArgumentsSource;

/**
 * A contract class: every test in it runs once per pipe under test ({@link TestPipes}) that has the
 * capabilities the class {@link Requires} (and that it opens with {@link #options()}, never
 * {@code PipeOptions.builder()}, or the configuration would not apply); its display name carries the pipe's
 * configuration, and so does the
 * message of a failure ({@link NamesConfiguration}), since build reports number the runs instead. Tests open
 * pipes through {@link #open()} and ask for what goes beyond the portable rules through {@link #has} and
 * {@link #assume}.
 */
@ParameterizedClass(name = "[{0}]", allowZeroInvocations = true)
@ArgumentsSource(TestPipes.class)
@ExtendWith(NamesConfiguration.class)
public abstract class PipeContract {
    /** The kind of pipe this run of the class tests. */
    @Parameter
    protected PipeFactory pipes;

    /** Creates the contract (JUnit does, once per pipe under test). */
    protected PipeContract() {
    }

    /** {@return a pipe with this configuration and otherwise the defaults of {@code pipe(2)}} */
    protected Pipe open() {
        return pipes.open();
    }

    /** {@return options preset with this configuration, for the test to set what it asks for} */
    protected PipeOptions.Builder options() {
        return pipes.options();
    }

    /**
     * {@return a pipe with the given options, as this configuration opens it}
     *
     * @param options what the test asks for
     */
    protected Pipe open(PipeOptions options) {
        return pipes.open(options);
    }

    /**
     * {@return whether the pipe under test has {@code capability}}
     *
     * @param capability what an extra assertion needs
     */
    protected boolean has(Capability capability) {
        return pipes.has(capability);
    }

    /**
     * Skips the calling test, with the reason, unless the pipe under test has {@code capability}.
     *
     * @param capability what the test needs
     */
    protected void assume(Capability capability) {
        assume(pipes, capability);
    }

    /**
     * Skips the calling test, with the reason, unless {@code pipes} have {@code capability}: for the helpers
     * that contract tests share.
     *
     * @param pipes      the pipes under test
     * @param capability what the test needs
     */
    public static void assume(PipeFactory pipes, Capability capability) {
        Assumptions.assumeTrue(pipes.has(capability), () -> pipes.name() + " lacks " + capability);
    }
}
