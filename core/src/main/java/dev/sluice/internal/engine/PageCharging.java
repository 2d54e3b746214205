package dev.sluice.internal.engine;

/**
 * The engine's view of a shared page account ({@code dev.sluice.PipeAccounting}), handed to it by
 * {@code Pipe.open}, so that the account's charging stays out of the public API.
 */
public interface PageCharging {
    /** Charges a new pipe of {@code pages} pages; @return the pages it gets (fewer over the soft limit) */
    int chargeOpen(int pages);

    /** Moves a pipe's charge from {@code from} to {@code to} pages, refusing growth past a limit. */
    void recharge(int from, int to);

    /** Releases a closed pipe's charge. */
    void release(int pages);
}
