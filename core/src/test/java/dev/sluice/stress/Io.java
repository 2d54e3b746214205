package dev.sluice.stress;

import dev.sluice.BrokenPipeException;
import dev.sluice.Pipe;
import dev.sluice.ReadEnd;
import dev.sluice.WriteEnd;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.nio.channels.ClosedChannelException;
import java.util.concurrent.atomic.LongAdder;

/**
 * Blocking writes and reads that survive interrupts, checking on the way what the pipe promises about
 * them: an interrupted call reports exactly the bytes it moved, leaves the interrupt status set, moves
 * nothing when it is an atomic write (at most {@link Pipe#PIPE_BUF} bytes) or a read, and in packet mode
 * moves whole pages only.
 */
final class Io {
    private Io() {
    }

    /** How a {@link #writeAll} ended. */
    enum End {
        /** Every byte stored. */
        COMPLETE,
        /** This handle was closed (by another thread) before or during the write. */
        CLOSED,
        /** Every read end was closed. */
        BROKEN
    }

    /** @param stored bytes of the buffer that are in the pipe */
    record WriteOutcome(int stored, End end) {
    }

    /** Interrupts seen by calls, per side. */
    static final class Interrupts {
        final LongAdder writes = new LongAdder();
        final LongAdder partialWrites = new LongAdder();
        final LongAdder reads = new LongAdder();
    }

    /**
     * Writes {@code b[0..len)}, resuming after interrupts from where the interrupted call stopped.
     *
     * @param packet whether the handle is in packet mode (interrupted writes then stop at page boundaries)
     */
    static WriteOutcome writeAll(WriteEnd out, byte[] b, int len, boolean packet, Interrupts seen)
            throws IOException {
        int done = 0;
        while (done < len) {
            int call = len - done;
            try {
                int n = out.write(b, done, call);
                if (n != call) {
                    // A blocking write returns short only when its own handle was closed under it.
                    if (out.isOpen()) {
                        throw new AssertionError("blocking write of " + call + " bytes returned " + n
                                + " on an open handle");
                    }
                    if (n <= 0 || call <= Pipe.PIPE_BUF) {
                        throw new AssertionError("write of " + call + " bytes returned " + n
                                + " after an asynchronous close (expected a partial count > 0, and none for an"
                                + " atomic write)");
                    }
                    return new WriteOutcome(done + n, End.CLOSED);
                }
                done += n;
            } catch (InterruptedIOException e) {
                if (!Thread.interrupted()) {
                    throw new AssertionError("InterruptedIOException but the interrupt status was cleared", e);
                }
                int t = e.bytesTransferred;
                if (t < 0 || t >= call) {
                    throw new AssertionError("interrupted write of " + call + " bytes reports " + t + " transferred", e);
                }
                if (call <= Pipe.PIPE_BUF && t != 0) {
                    throw new AssertionError("interrupted atomic write of " + call + " bytes stored " + t
                            + " of them (must store all or nothing)", e);
                }
                if (packet && t % Pipe.PIPE_BUF != 0) {
                    throw new AssertionError("interrupted packet write stored " + t + " bytes, not whole pages", e);
                }
                seen.writes.increment();
                if (t > 0) {
                    seen.partialWrites.increment();
                }
                done += t;
            } catch (BrokenPipeException e) {
                long t = e.bytesTransferred();
                if (t < 0 || t >= call) {
                    throw new AssertionError("broken write of " + call + " bytes reports " + t + " transferred", e);
                }
                if (call <= Pipe.PIPE_BUF && t != 0) {
                    throw new AssertionError("broken atomic write of " + call + " bytes stored " + t, e);
                }
                if (packet && t % Pipe.PIPE_BUF != 0) {
                    throw new AssertionError("broken packet write stored " + t + " bytes, not whole pages", e);
                }
                return new WriteOutcome(done + (int) t, End.BROKEN);
            } catch (ClosedChannelException e) { // includes AsynchronousCloseException: it moved nothing
                if (out.isOpen()) {
                    throw new AssertionError("ClosedChannelException on an open handle", e);
                }
                return new WriteOutcome(done, End.CLOSED);
            }
        }
        return new WriteOutcome(done, End.COMPLETE);
    }

    /**
     * One read, retried after interrupts.
     *
     * @return as {@link ReadEnd#read(byte[], int, int)}
     * @throws ClosedChannelException if this handle was closed (by another thread)
     */
    static int read(ReadEnd in, byte[] b, int off, int len, Interrupts seen) throws IOException {
        for (;;) {
            try {
                return in.read(b, off, len);
            } catch (InterruptedIOException e) {
                if (!Thread.interrupted()) {
                    throw new AssertionError("InterruptedIOException but the interrupt status was cleared", e);
                }
                if (e.bytesTransferred != 0) {
                    throw new AssertionError("interrupted read reports " + e.bytesTransferred
                            + " bytes transferred; a read waits only while it has read nothing", e);
                }
                seen.reads.increment();
            }
        }
    }
}
