package dev.sluice.lab.targets;

/**
 * What a workload does with a pipe, so that every target is used the way its own users would use it for
 * that workload: buffered streams flush only where someone waits for each message.
 */
public enum Traffic {
    /** Bytes flow one way and only throughput counts: buffered writers need not flush between writes. */
    STREAM,
    /** Each message is awaited (ping-pong, tokens): a buffered writer flushes after every write. */
    MESSAGES
}
