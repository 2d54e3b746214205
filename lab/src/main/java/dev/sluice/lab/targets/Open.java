package dev.sluice.lab.targets;

/**
 * How a workload wants a pipe opened.
 *
 * @param capacity    bytes, 0 for the target's default
 * @param nonBlocking both ends nonblocking (only if {@link Caps#nonBlocking})
 * @param traffic     streaming or messages, for targets whose users buffer and flush
 */
public record Open(int capacity, boolean nonBlocking, Traffic traffic) {
    /**
     * {@return a blocking pipe of the default size carrying {@code traffic}}
     *
     * @param traffic streaming or messages
     */
    public static Open blocking(Traffic traffic) {
        return new Open(0, false, traffic);
    }
}
