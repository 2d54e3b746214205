package dev.sluice.testing;

/**
 * What a kind of pipe under test can show or do beyond the portable rules: a contract test that needs one
 * asks for it ({@link Requires} on the class, {@link PipeContract#assume} in a test, {@link PipeContract#has}
 * around an extra assertion), and runs or skips by what the {@link PipeFactory} declares, never by which
 * implementation it is.
 */
public enum Capability {
    /** The pipe opens with the capacity and mode a test asks for (a configuration that forces one page or
     * packet mode on every pipe lacks it, so it runs only the tests that hold for any shape). */
    AS_REQUESTED,
    /** Reads see a byte stream unless a test turns packet mode on (the packet-mode configuration lacks it). */
    BYTE_STREAM,
    /** {@code stat().slotsUsed()} counts the ring's slots and {@code options()} echoes what was opened. */
    OCCUPANCY,
    /** A pool of pages with counters of its own (the in-process pipe's {@code poolPages}). */
    PAGE_POOL,
    /** Waits and wake-ups go through the in-process engine's wait queue (its frames show in stacks). */
    ENGINE_WAITS,
    /** A writer blocked on a full pipe is woken as soon as one slot frees (every wake policy but half-empty). */
    PROMPT_WRITER_WAKEUP,
    /** {@code Splice.splice}, {@code tee} and {@code gift} between two such pipes. */
    SPLICE,
    /** {@code Splice.transferTo} and {@code transferFrom} between such a pipe and a channel. */
    CHANNEL_TRANSFER,
    /** Timestamps taken from the same clock as {@code Instant.now()}, without a coarser tick. */
    EXACT_TIMESTAMPS,
    /** Refusals worded by the engine (a kernel pipe reports the kernel's errno names instead). */
    ENGINE_MESSAGES,
    /** {@code setCapacity} changes the capacity of an open pipe (a shared-memory pipe's is fixed at creation). */
    RESIZE,
    /** Any capacity up to the options' maximum is granted (a kernel pipe is bound by pipe-max-size). */
    ANY_CAPACITY,
    /** An end's {@code pipe()} is the very object that was opened (a shared-memory pipe whose ends a test takes
     * from two attachments of its memory has no such object: each end names its own attachment). */
    SAME_PIPE_OBJECT
}
