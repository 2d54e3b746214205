package dev.sluice.crossjvm;

/** What the child does with the bytes it gets. */
public enum Role {
    /**
     * Writes back what it reads, as it comes (reads of up to 64 KiB), until end-of-stream, then closes its
     * output: the other half of a ping-pong.
     */
    ECHO,
    /**
     * Reads until end-of-stream (reads of up to 64 KiB), checks every byte against {@link Pattern} and counts
     * them, then writes back the count and the offset of the first wrong byte ({@link Peer#finish()}).
     */
    SINK
}
