package dev.sluice.kernel;

import dev.sluice.Pipe;
import dev.sluice.PipeOptions;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.List;
import java.util.function.Function;
import org.opentest4j.TestAbortedException;

/**
 * The core test suites' pipe factory for kernel pipes ({@code -Dsluice.testPipes=dev.sluice.kernel.KernelTestPipes},
 * see {@code TestPipes}). Options a kernel pipe cannot honour abort the test with the reason; the policies
 * do not change what a caller can observe and are ignored.
 */
public final class KernelTestPipes implements Function<PipeOptions, Pipe> {
    @Override
    public Pipe apply(PipeOptions options) {
        if (options == null) {
            return open(null); // KernelPipe refuses it, with the same hint as Pipe.open
        }
        List<String> no = KernelPipe.unsupported(options);
        if (!no.isEmpty()) {
            throw new TestAbortedException("a kernel pipe cannot honour: " + String.join("; ", no));
        }
        return open(options);
    }

    private static Pipe open(PipeOptions options) {
        try {
            return KernelPipe.open(options);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
