package dev.sluice;

import java.io.InterruptedIOException;

/**
 * A blocking call did not complete within its end's timeout ({@link PipeEnd#setTimeout}).
 *
 * <p>Like {@link java.net.SocketTimeoutException}, it is an {@link InterruptedIOException}.
 * {@link #bytesTransferred()} tells exactly how many bytes the call moved before it gave up (always 0 for
 * reads, which only wait while they have read nothing); the inherited field {@link #bytesTransferred} says
 * the same, capped at {@code Integer.MAX_VALUE}. The pipe is left as it was; the call can be retried.
 */
public class PipeTimeoutException extends InterruptedIOException {
    private static final long serialVersionUID = 2L;

    /** Bytes the call moved before it stopped. @serial */
    private final long moved;

    /**
     * Makes the exception a call ends with when it waited longer than its handle's timeout.
     *
     * @param message          what timed out
     * @param bytesTransferred bytes moved before the timeout
     */
    public PipeTimeoutException(String message, long bytesTransferred) {
        super(message);
        this.moved = bytesTransferred;
        this.bytesTransferred = (int) Math.min(bytesTransferred, Integer.MAX_VALUE);
    }

    /** {@return bytes the call moved before it timed out, exact (the field is capped at 2 GiB)} */
    public long bytesTransferred() {
        return moved;
    }
}
