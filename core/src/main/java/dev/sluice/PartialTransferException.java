package dev.sluice;

import java.io.IOException;

/**
 * A channel failed part way through a transfer, after {@link #bytesTransferred()} bytes had moved; the cause
 * is the channel's exception. As if the call had moved only those bytes and nothing else:
 * <ul>
 *   <li>{@link Splice#transferTo}: the channel took that many bytes, which have left the pipe; every byte it
 *       did not take is still in the pipe, in order and first in line for the next reader;</li>
 *   <li>{@link Splice#transferFrom}: the channel gave that many bytes before it threw (a JDK channel that is
 *       interrupted or closed during a read can do both), and they are in the pipe.</li>
 * </ul>
 * A channel that fails before anything moved has its own exception passed on unchanged, and an
 * {@link java.io.InterruptedIOException} stays one (with its {@code bytesTransferred} set), so this type
 * means exactly "some bytes moved, then the channel failed".
 */
public class PartialTransferException extends IOException {
    private static final long serialVersionUID = 1L;

    /** Bytes moved before the channel failed. @serial */
    private final long bytesTransferred;

    /**
     * Makes the exception a transfer ends with when its channel failed after some bytes moved.
     *
     * @param message          what happened
     * @param bytesTransferred bytes moved before the channel failed
     * @param cause            the channel's exception
     */
    public PartialTransferException(String message, long bytesTransferred, Throwable cause) {
        super(message, cause);
        this.bytesTransferred = bytesTransferred;
    }

    /** {@return bytes moved between the pipe and the channel before the failure} */
    public long bytesTransferred() {
        return bytesTransferred;
    }
}
