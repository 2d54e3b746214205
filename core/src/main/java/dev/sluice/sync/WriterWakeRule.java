package dev.sluice.sync;

/**
 * When a reader wakes a writer blocked on a full pipe: the seam that the wake-up policies plug into.
 *
 * <p>The foundation uses Linux's rule since 6.14 ({@link #FULL_AND_FREED}); the kernel has tried four
 * rules in six years, and the cost of each shows only under particular workloads, so the pipe asks this
 * object instead of hard-coding the test.
 */
@FunctionalInterface
public interface WriterWakeRule {
    /**
     * Linux 6.14+ (Oleg Nesterov, aaec5a95d596): wake a writer iff a read freed a slot of a ring that was
     * full just before the free. A read that only nibbles at the tail page of a full ring wakes nobody.
     */
    WriterWakeRule FULL_AND_FREED = (occupancyBefore, maxUsage) -> occupancyBefore >= maxUsage;

    /**
     * Called under the pipe's lock each time a read frees a slot.
     *
     * @param occupancyBefore slots in use just before this slot was freed
     * @param maxUsage        slots a writer may use
     * @return whether the reader should wake one blocked writer when it leaves
     */
    boolean wakeWriterOnFree(int occupancyBefore, int maxUsage);
}
