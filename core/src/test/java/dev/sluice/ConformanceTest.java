package dev.sluice;

import dev.sluice.testing.Capability;
import dev.sluice.testing.PipeContract;
import dev.sluice.testing.Requires;

/**
 * The base of the Linux-pipe conformance tests ({@code RuleNN}): each runs over every pipe under test (see
 * {@link PipeContract}) that opens pipes as the test asks (a configuration that forces one page or packet mode
 * on every pipe runs only the stress tests); the helpers here open the pipes the rules talk about.
 */
@Requires(Capability.AS_REQUESTED)
abstract class ConformanceTest extends PipeContract {

    /** {@return a pipe with the defaults and its pages in {@code memory}} */
    Pipe open(PageMemory memory) {
        return open(options().pageMemory(memory).build());
    }

    /** {@return a nonblocking pipe of {@code capacity} bytes (both ends {@code O_NONBLOCK})} */
    Pipe openNonBlocking(int capacity) {
        return open(options().capacity(capacity).nonBlocking(true).build());
    }

    /**
     * Skips the calling test unless a blocked writer is woken as soon as one slot frees: half-empty lets a
     * writer sleep beside free room until the ring is half empty, by design (Linus Torvalds' objection,
     * documented on the constant), so rules that promise otherwise do not hold under it.
     */
    void assumeWritersWakeOnOneFreeSlot() {
        assume(Capability.PROMPT_WRITER_WAKEUP);
    }
}
