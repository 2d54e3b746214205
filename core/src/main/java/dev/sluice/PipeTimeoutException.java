package dev.sluice;

import java.io.InterruptedIOException;

/**
 * A blocking read or write did not complete within the end's timeout
 * ({@link ReadEnd#setTimeout}, {@link WriteEnd#setTimeout}).
 *
 * <p>Like {@link java.net.SocketTimeoutException}, it is an {@link InterruptedIOException}: the field
 * {@link #bytesTransferred} tells how many bytes the call moved before it gave up (always 0 for reads,
 * which only wait while they have read nothing). The pipe is left as it was; the call can be retried.
 */
public class PipeTimeoutException extends InterruptedIOException {
    private static final long serialVersionUID = 1L;

    /**
     * @param message          what timed out
     * @param bytesTransferred bytes moved before the timeout
     */
    public PipeTimeoutException(String message, int bytesTransferred) {
        super(message);
        this.bytesTransferred = bytesTransferred;
    }
}
