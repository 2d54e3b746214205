package dev.sluice.stress;

import dev.sluice.BrokenPipeException;
import dev.sluice.Pipe;
import dev.sluice.PipeTimeoutException;
import dev.sluice.ReadEnd;
import dev.sluice.WriteEnd;
import dev.sluice.testing.BufferChecks;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.ClosedChannelException;
import java.util.SplittableRandom;
import java.util.concurrent.atomic.LongAdder;

import static dev.sluice.testing.BufferChecks.checkMoved;
import static dev.sluice.testing.BufferChecks.consumed;
import static dev.sluice.testing.BufferChecks.positions;
import static dev.sluice.testing.BufferChecks.reported;

/**
 * Blocking writes and reads that survive interrupts and timeouts, checking on the way what the pipe
 * promises about them: an interrupted or timed-out call reports exactly the bytes it moved, an interrupted
 * one leaves the interrupt status set, an atomic write (at most {@link Pipe#PIPE_BUF} bytes) or a read moves
 * nothing then, and in packet mode a write moves whole pages only.
 *
 * <p>Each call goes through one of the API's shapes, chosen at random by the worker's {@link Api}: a byte
 * array, a heap or direct {@link ByteBuffer}, or a gathering/scattering array of buffers split at random
 * points; the buffers' positions must advance by exactly the bytes moved, also when the call fails.
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

    /** Interrupted and timed-out calls seen, per side. */
    static final class Interrupts {
        final LongAdder writes = new LongAdder();
        final LongAdder partialWrites = new LongAdder();
        final LongAdder reads = new LongAdder();
        final LongAdder timedOutWrites = new LongAdder();
        final LongAdder partialTimedOutWrites = new LongAdder();
        final LongAdder timedOutReads = new LongAdder();

        /**
         * Whether enough calls were cut short for the run to have tested that: 20 writes, 5 of them after
         * storing part of their data, and a read. (Modest on purpose: on a loaded machine a waiter is often
         * ready again before it could time out.)
         */
        boolean enough(Scenarios.Chaos chaos, boolean wantPartial, boolean wantReads) {
            return switch (chaos) {
                case INTERRUPTS -> writes.sum() >= 20 && (!wantReads || reads.sum() >= 1)
                        && (!wantPartial || partialWrites.sum() >= 5);
                case TIMEOUTS -> timedOutWrites.sum() >= 20 && (!wantReads || timedOutReads.sum() >= 1)
                        && (!wantPartial || partialTimedOutWrites.sum() >= 5);
                default -> true;
            };
        }

        @Override
        public String toString() {
            return String.format("writes interrupted %,d (%,d partial), reads interrupted %,d, writes timed out %,d "
                            + "(%,d partial), reads timed out %,d", writes.sum(), partialWrites.sum(), reads.sum(),
                    timedOutWrites.sum(), partialTimedOutWrites.sum(), timedOutReads.sum());
        }
    }

    /** A worker's choice of API shapes, and its scratch buffers. */
    static final class Api {
        private final SplittableRandom rnd;
        private ByteBuffer direct = ByteBuffer.allocateDirect(0);

        Api(long seed) {
            this.rnd = new SplittableRandom(seed);
        }

        private ByteBuffer direct(int size) {
            if (direct.capacity() < size) {
                direct = ByteBuffer.allocateDirect(Math.max(size, 2 * direct.capacity()));
            }
            return direct.clear().limit(size);
        }

        private ByteBuffer[] split(byte[] b, int off, int len) {
            return BufferChecks.split(b, off, len, rnd);
        }

        /** One write call of {@code b[off..off+len)} through a random API shape. */
        int write(WriteEnd out, byte[] b, int off, int len) throws IOException {
            switch (rnd.nextInt(4)) {
                case 0 -> {
                    return out.write(b, off, len);
                }
                case 1 -> {
                    ByteBuffer bb = ByteBuffer.wrap(b, off, len);
                    try {
                        int n = out.write(bb);
                        checkMoved("write(ByteBuffer)", bb.position() - off, n);
                        return n;
                    } catch (IOException e) {
                        checkMoved("failed write(ByteBuffer)", bb.position() - off, reported(e));
                        throw e;
                    }
                }
                case 2 -> {
                    ByteBuffer d = direct(len);
                    d.put(b, off, len).flip();
                    try {
                        int n = out.write(d);
                        checkMoved("write(direct ByteBuffer)", d.position(), n);
                        return n;
                    } catch (IOException e) {
                        checkMoved("failed write(direct ByteBuffer)", d.position(), reported(e));
                        throw e;
                    }
                }
                default -> {
                    ByteBuffer[] bs = split(b, off, len);
                    int[] start = positions(bs);
                    try {
                        long n = out.write(bs, 1, bs.length - 2);
                        checkMoved("gathering write", consumed(bs, start), n);
                        return (int) n;
                    } catch (IOException e) {
                        checkMoved("failed gathering write", consumed(bs, start), reported(e));
                        throw e;
                    }
                }
            }
        }

        /** One read call into {@code b[off..off+len)} through a random API shape. */
        int read(ReadEnd in, byte[] b, int off, int len) throws IOException {
            switch (rnd.nextInt(4)) {
                case 0 -> {
                    return in.read(b, off, len);
                }
                case 1 -> {
                    ByteBuffer bb = ByteBuffer.wrap(b, off, len);
                    int n = in.read(bb);
                    checkMoved("read(ByteBuffer)", bb.position() - off, Math.max(n, 0));
                    return n;
                }
                case 2 -> {
                    ByteBuffer d = direct(len);
                    int n = in.read(d);
                    checkMoved("read(direct ByteBuffer)", d.position(), Math.max(n, 0));
                    d.flip().get(b, off, d.remaining());
                    return n;
                }
                default -> {
                    ByteBuffer[] bs = split(b, off, len);
                    int[] start = positions(bs);
                    long n = in.read(bs, 1, bs.length - 2);
                    checkMoved("scattering read", consumed(bs, start), Math.max(n, 0));
                    return (int) n;
                }
            }
        }
    }

    private static void checkCutShort(String what, int call, long t, boolean packet, IOException e) {
        if (t < 0 || t >= call) {
            throw new AssertionError(what + " write of " + call + " bytes reports " + t + " transferred", e);
        }
        if (call <= Pipe.PIPE_BUF && t != 0) {
            throw new AssertionError(what + " atomic write of " + call + " bytes stored " + t
                    + " of them (must store all or nothing)", e);
        }
        if (packet && t % Pipe.PIPE_BUF != 0) {
            throw new AssertionError(what + " packet write stored " + t + " bytes, not whole pages", e);
        }
    }

    /**
     * Writes {@code b[0..len)}, resuming after interrupts and timeouts from where the cut-short call stopped.
     *
     * @param packet whether the handle is in packet mode (cut-short writes then stop at page boundaries)
     */
    static WriteOutcome writeAll(WriteEnd out, byte[] b, int len, boolean packet, Interrupts seen, Api api)
            throws IOException {
        int done = 0;
        while (done < len) {
            int call = len - done;
            try {
                int n = api.write(out, b, done, call);
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
            } catch (PipeTimeoutException e) {
                if (Thread.currentThread().isInterrupted()) {
                    throw new AssertionError("a timeout set the interrupt status", e);
                }
                int t = e.bytesTransferred;
                checkCutShort("timed-out", call, t, packet, e);
                seen.timedOutWrites.increment();
                if (t > 0) {
                    seen.partialTimedOutWrites.increment();
                }
                done += t;
            } catch (InterruptedIOException e) {
                if (!Thread.interrupted()) {
                    throw new AssertionError("InterruptedIOException but the interrupt status was cleared", e);
                }
                int t = e.bytesTransferred;
                checkCutShort("interrupted", call, t, packet, e);
                seen.writes.increment();
                if (t > 0) {
                    seen.partialWrites.increment();
                }
                done += t;
            } catch (BrokenPipeException e) {
                long t = e.bytesTransferred();
                checkCutShort("broken", call, t, packet, e);
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
     * One read, retried after interrupts and timeouts.
     *
     * @return as {@link ReadEnd#read(byte[], int, int)}
     * @throws ClosedChannelException if this handle was closed (by another thread)
     */
    static int read(ReadEnd in, byte[] b, int off, int len, Interrupts seen, Api api) throws IOException {
        for (;;) {
            try {
                return api.read(in, b, off, len);
            } catch (PipeTimeoutException e) {
                if (e.bytesTransferred != 0) {
                    throw new AssertionError("timed-out read reports " + e.bytesTransferred + " bytes transferred", e);
                }
                seen.timedOutReads.increment();
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
