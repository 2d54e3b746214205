package dev.sluice.lab.measure;

import java.lang.management.ManagementFactory;

/**
 * Bytes allocated by all Java threads, living and dead, since the JVM started
 * ({@code com.sun.management.ThreadMXBean#getTotalThreadAllocatedBytes}); -1 if the JVM does not tell.
 * A virtual thread's allocations count on the carrier thread that ran it, so they are included.
 */
public final class Allocations {
    private Allocations() {
    }

    /** {@return bytes allocated by all threads since the JVM started, or -1 if the JVM does not tell} */
    public static long total() {
        try {
            if (ManagementFactory.getThreadMXBean() instanceof com.sun.management.ThreadMXBean t
                    && t.isThreadAllocatedMemorySupported()) {
                if (!t.isThreadAllocatedMemoryEnabled()) {
                    t.setThreadAllocatedMemoryEnabled(true);
                }
                return t.getTotalThreadAllocatedBytes();
            }
        } catch (RuntimeException | LinkageError ignored) {
            // reported as n/a
        }
        return -1;
    }
}
