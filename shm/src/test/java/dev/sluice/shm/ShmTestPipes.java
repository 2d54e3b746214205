package dev.sluice.shm;

import dev.sluice.Pipe;
import dev.sluice.PipeOptions;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.List;
import java.util.function.Function;
import org.opentest4j.TestAbortedException;

/**
 * The core conformance suite's pipe factory for shared-memory pipes
 * ({@code -Dsluice.testPipes=dev.sluice.shm.ShmTestPipes}, see the core's {@code TestPipes}). Options a shared
 * pipe cannot honour abort the test with the reason.
 */
public final class ShmTestPipes implements Function<PipeOptions, Pipe> {
    @Override
    public Pipe apply(PipeOptions options) {
        if (options == null) {
            throw new NullPointerException("options is null (use PipeOptions.defaults())");
        }
        List<String> no = ShmPipe.unsupported(options);
        if (!no.isEmpty()) {
            throw new TestAbortedException("a shared-memory pipe cannot honour: " + String.join("; ", no));
        }
        try {
            return ShmPipe.create(options);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
