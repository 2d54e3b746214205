package dev.sluice;

import java.io.IOException;

/**
 * A write found every read end of the pipe closed: Linux's {@code EPIPE}. The JVM has no SIGPIPE, so
 * this exception is the whole signal.
 *
 * <p>Thrown when the last reader is gone at the start of a write, and to a writer blocked on a full pipe
 * when the last reader closes. Bytes that the same call had already put into the pipe are reported by
 * {@link #bytesTransferred()}; where Linux returns that partial count, Sluice throws with it, so a
 * caller cannot mistake a broken pipe for a short write.
 */
public class BrokenPipeException extends IOException {
    private static final long serialVersionUID = 1L;

    /** Bytes the failed call had written into the pipe. @serial */
    private final long bytesTransferred;

    /**
     * Makes the exception a write (or splice, tee, gift, transfer) ends with when every read end is closed.
     *
     * @param message          what happened
     * @param bytesTransferred bytes this call wrote before the pipe broke
     */
    public BrokenPipeException(String message, long bytesTransferred) {
        super(message);
        this.bytesTransferred = bytesTransferred;
    }

    /** {@return bytes the failed call had written into the pipe before it broke (they are still readable)} */
    public long bytesTransferred() {
        return bytesTransferred;
    }
}
