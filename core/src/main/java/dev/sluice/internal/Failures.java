package dev.sluice.internal;

import dev.sluice.BrokenPipeException;
import dev.sluice.PipeInterruptedException;
import dev.sluice.PipeTimeoutException;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.nio.channels.AsynchronousCloseException;

/**
 * The exceptions a blocking call on a pipe ends with, worded once for every implementation (the in-process
 * engine and the kernel module, to which this package is exported). Each carries the bytes the call moved
 * before it stopped, so nothing it moved goes unreported.
 */
public final class Failures {
    private Failures() {
    }

    /** What the reader side waits for, in messages: "read from an empty pipe". */
    public static String emptyPipe(String op) {
        return op + " from an empty pipe";
    }

    /** What the writer side waits for, in messages: "write to a full pipe". */
    public static String fullPipe(String op) {
        return op + " to a full pipe";
    }

    /** EPIPE: every read end is closed; {@code done} bytes of this call are in the pipe. */
    public static BrokenPipeException broken(long done) {
        return new BrokenPipeException(done == 0 ? "broken pipe: every read end is closed"
                : "broken pipe: every read end closed after " + done + " bytes of this call", done);
    }

    /** An interrupted wait; the thread's interrupt status is left set. */
    public static PipeInterruptedException interrupted(String what, long done) {
        return new PipeInterruptedException("interrupted: " + what + (done > 0 ? " after " + done + " bytes" : "")
                + " (the thread's interrupt status is still set)", done);
    }

    /** A wait that outlived the handle's timeout. */
    public static PipeTimeoutException timedOut(String what, long done) {
        return new PipeTimeoutException("timed out: " + what + (done > 0 ? " after " + done + " bytes" : ""), done);
    }

    /** The handle was closed by another thread while (or just before) the call used it. */
    public static AsynchronousCloseException closedMeanwhile() {
        return new AsynchronousCloseException();
    }

    /**
     * A failure after {@code moved} bytes had gone through (a channel's, or a later round of a loop): its own
     * exception when nothing moved (the pipe is as it was), else one that carries the count. Sluice's own
     * timeout, interrupt and broken pipe keep their types, their counts added to {@code moved}; another
     * interrupt stays an interrupt; anything else becomes a {@link dev.sluice.PartialTransferException}. The
     * original is the cause.
     */
    public static IOException partly(IOException e, long moved, String message) {
        if (moved == 0) {
            return e;
        }
        IOException out = switch (e) {
            case PipeTimeoutException t -> new PipeTimeoutException(message, moved + t.bytesTransferred());
            case PipeInterruptedException i -> new PipeInterruptedException(message, moved + i.bytesTransferred());
            case BrokenPipeException b -> new BrokenPipeException(message, moved + b.bytesTransferred());
            case InterruptedIOException i -> new PipeInterruptedException(message, moved);
            default -> new dev.sluice.PartialTransferException(message, moved, e);
        };
        if (out.getCause() == null) {
            out.initCause(e);
        }
        return out;
    }
}
