package dev.sluice.shm;

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
 * The pipes this module runs core's conformance rules over: shared-memory pipes, named in this module's
 * {@code META-INF/services}. They open as asked, carry a byte stream and wake a blocked writer as soon as room
 * frees; their capacity is fixed at creation, and what only the in-process pipe has (its occupancy, pool, wait
 * queue, splice and transfers between its ends) they lack, so those tests do not run here. Options a shared
 * pipe cannot honour abort the test with the reason.
 */
public final class ShmTestPipes implements PipeFactory.Source {
    private static final Set<Capability> CAPABILITIES =
            EnumSet.of(Capability.AS_REQUESTED, Capability.BYTE_STREAM, Capability.PROMPT_WRITER_WAKEUP);

    /** Creates the source (found by {@link java.util.ServiceLoader}). */
    public ShmTestPipes() {
    }

    @Override
    public List<PipeFactory> pipes() {
        return List.of(new Shared());
    }

    private static final class Shared implements PipeFactory {
        @Override
        public String name() {
            return "shared memory";
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

        @Override
        public long stressBytes() {
            return 8L << 20;
        }

        @Override
        public String toString() {
            return name();
        }
    }
}
