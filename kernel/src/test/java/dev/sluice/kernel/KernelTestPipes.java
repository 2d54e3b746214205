package dev.sluice.kernel;

import dev.sluice.testing.Capability;
import dev.sluice.testing.ModulePipeFactory;
import dev.sluice.testing.PipeFactory;
import java.util.EnumSet;
import java.util.List;

/**
 * The pipes this module runs core's contract suite over: kernel pipes, named in this module's
 * {@code META-INF/services}. They open as asked, carry a byte stream and wake a blocked writer as soon as room
 * frees; what only the in-process pipe has (its occupancy, pool, wait queue, splice and transfers between its
 * ends) they lack, so those tests do not run here (kernel splice and tee have tests of their own). Options a
 * kernel pipe cannot honour abort the test with the reason; the policies change nothing a caller can observe
 * and are ignored.
 */
public final class KernelTestPipes implements PipeFactory.Source {
    /** Creates the source (found by {@link java.util.ServiceLoader}). */
    public KernelTestPipes() {
    }

    @Override
    public List<PipeFactory> pipes() {
        return List.of(new ModulePipeFactory("kernel",
                EnumSet.of(Capability.AS_REQUESTED, Capability.BYTE_STREAM, Capability.PROMPT_WRITER_WAKEUP,
                        Capability.RESIZE, Capability.SAME_PIPE_OBJECT),
                16L << 20, "a kernel pipe", KernelPipe::unsupported, KernelPipe::open));
    }
}
