package dev.sluice;

import java.io.InterruptedIOException;

/**
 * A thread was interrupted while a blocking call on a pipe waited (or while a transfer's channel was
 * blocked). Pipes follow the stream convention, not {@link java.nio.channels.InterruptibleChannel}'s: the
 * thread's interrupt status stays set and the pipe stays open.
 *
 * <p>{@link #bytesTransferred()} tells exactly how many bytes the call had moved before it stopped (they are
 * in the pipe, or were read); the inherited field {@link #bytesTransferred} says the same, capped at
 * {@code Integer.MAX_VALUE}, for code that handles any {@link InterruptedIOException}.
 */
public class PipeInterruptedException extends InterruptedIOException {
    private static final long serialVersionUID = 1L;

    /** Bytes the call moved before it stopped. @serial */
    private final long moved;

    /**
     * Makes the exception a call ends with when its thread was interrupted while it waited.
     *
     * @param message          what was interrupted
     * @param bytesTransferred bytes moved before the interrupt
     */
    public PipeInterruptedException(String message, long bytesTransferred) {
        super(message);
        this.moved = bytesTransferred;
        this.bytesTransferred = (int) Math.min(bytesTransferred, Integer.MAX_VALUE);
    }

    /** {@return bytes the call moved before it was interrupted, exact (the field is capped at 2 GiB)} */
    public long bytesTransferred() {
        return moved;
    }
}
