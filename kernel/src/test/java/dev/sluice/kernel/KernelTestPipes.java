package dev.sluice.kernel;

import dev.sluice.Pipe;
import dev.sluice.PipeOptions;
import dev.sluice.testing.Capability;
import dev.sluice.testing.PipeFactory;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import org.opentest4j.TestAbortedException;

/**
 * The pipes this module runs core's contract suite over: kernel pipes, named in this module's
 * {@code META-INF/services}. They open as asked, carry a byte stream and wake a blocked writer as soon as room
 * frees; what only the in-process pipe has (its occupancy, pool, wait queue, splice and transfers between its
 * ends) they lack, so those tests do not run here (kernel splice and tee have tests of their own). Options a
 * kernel pipe cannot honour abort the test with the reason; the policies change nothing a caller can observe
 * and are ignored.
 */
public final class KernelTestPipes implements PipeFactory.Source {
    private static final Set<Capability> CAPABILITIES =
            EnumSet.of(Capability.AS_REQUESTED, Capability.BYTE_STREAM, Capability.PROMPT_WRITER_WAKEUP,
                    Capability.RESIZE, Capability.SAME_PIPE_OBJECT);

    /** Creates the source (found by {@link java.util.ServiceLoader}). */
    public KernelTestPipes() {
    }

    @Override
    public List<PipeFactory> pipes() {
        return List.of(new Kernel());
    }

    private static final class Kernel implements PipeFactory {
        @Override
        public String name() {
            return "kernel";
        }

        @Override
        public boolean has(Capability capability) {
            return CAPABILITIES.contains(capability);
        }

        @Override
        public PipeOptions.Builder options() {
            return PipeOptions.builder();
        }

        @Override
        public Pipe open(PipeOptions options) {
            if (options != null) {
                List<String> no = KernelPipe.unsupported(options);
                if (!no.isEmpty()) {
                    throw new TestAbortedException("a kernel pipe cannot honour: " + String.join("; ", no));
                }
            }
            try {
                return KernelPipe.open(options); // null is refused, with the same hint as Pipe.open
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }

        @Override
        public long stressBytes() {
            return 16L << 20;
        }

        @Override
        public String toString() {
            return name();
        }
    }
}
