package dev.sluice.testing;

import dev.sluice.Pipe;
import dev.sluice.PipeOptions;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.function.Function;
import org.opentest4j.TestAbortedException;

/**
 * The {@link PipeFactory} of a module's own pipe (a kernel pipe, a shared-memory pipe), for the module's
 * {@link PipeFactory.Source}: a name, what it can do, how many bytes its stress tests move, and how it opens.
 * Its options are the defaults (it has no policies to preset); null options are refused with the hint
 * {@code Pipe.open} gives, and options the pipe cannot honour abort the test with the reason.
 *
 * @param name         the name every test's display name carries
 * @param capabilities what pipes of this kind have
 * @param stressBytes  bytes per stress test ({@link PipeFactory#stressBytes()})
 * @param kind         what the pipe is, for the reason a test is aborted (e.g. {@code "a kernel pipe"})
 * @param unsupported  the options it cannot honour, one sentence each (empty when it can honour them all)
 * @param opener       opens one with options it can honour
 */
public record ModulePipeFactory(String name, Set<Capability> capabilities, long stressBytes, String kind,
                                Function<PipeOptions, List<String>> unsupported, Opener opener)
        implements PipeFactory {
    /** Opens a pipe with options it can honour. */
    @FunctionalInterface
    public interface Opener {
        /**
         * @param options the test's options, which the pipe can honour
         * @return a new pipe
         * @throws IOException if it cannot be opened
         */
        Pipe open(PipeOptions options) throws IOException;
    }

    /** Checks every component and copies the capabilities. */
    public ModulePipeFactory {
        Objects.requireNonNull(name, "name");
        capabilities = Set.copyOf(capabilities);
        Objects.requireNonNull(kind, "kind");
        Objects.requireNonNull(unsupported, "unsupported");
        Objects.requireNonNull(opener, "opener");
    }

    @Override
    public boolean has(Capability capability) {
        return capabilities.contains(capability);
    }

    @Override
    public PipeOptions.Builder options() {
        return PipeOptions.builder();
    }

    @Override
    public Pipe open(PipeOptions options) {
        Objects.requireNonNull(options, "options is null (use PipeOptions.defaults())");
        List<String> no = unsupported.apply(options);
        if (!no.isEmpty()) {
            throw new TestAbortedException(kind + " cannot honour: " + String.join("; ", no));
        }
        try {
            return opener.open(options);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Override
    public String toString() {
        return name;
    }
}
