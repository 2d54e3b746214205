package dev.sluice.lab.targets;

/**
 * What a target can do, so a workload that needs more reports "n/a: why" instead of running wrongly.
 *
 * @param atomicWrites     concurrent writes of up to 4096 bytes never interleave (POSIX {@code PIPE_BUF}),
 *                         so many writers may share one pipe
 * @param nonBlocking      reads and writes can be made nonblocking (0 = would block)
 * @param sizable          the capacity can be set when opening
 * @param counters         the pipe keeps its own counters (wake-ups, waits, ...)
 * @param whyNotAtomic     when {@code atomicWrites} is false: the reason, for the "n/a" line
 * @param whyNotNonBlocking when {@code nonBlocking} is false: the reason
 */
public record Caps(boolean atomicWrites, boolean nonBlocking, boolean sizable, boolean counters,
                   String whyNotAtomic, String whyNotNonBlocking) {
}
