package dev.sluice.internal.engine;

import dev.sluice.BrokenPipeException;
import dev.sluice.internal.Deadline;
import dev.sluice.internal.Failures;
import dev.sluice.internal.jfr.Flight;
import dev.sluice.internal.sync.WaitQueue;
import java.io.IOException;

/**
 * The blocking protocol, written once: everything between two attempts of any call on an in-process pipe
 * (a read, a write, a splice or tee, a gift, a transfer to or from a channel), the analogue of the wait
 * loops of {@code pipe_read}, {@code pipe_write} and {@code ipipe_prep} / {@code opipe_prep}.
 *
 * <p>A call ({@link Call}) makes an attempt under its pipes' locks. If it asks to wait, the protocol, in
 * this order:
 * <ol>
 *   <li>a nonblocking end does not wait: the call returns what it moved ({@code EAGAIN} as 0);</li>
 *   <li>an interrupted thread does not wait: {@link dev.sluice.PipeInterruptedException} with the count;</li>
 *   <li>the handle's {@link Deadline} starts at the first wait; a later wait past it ends the call with
 *       {@link dev.sluice.PipeTimeoutException} and the count;</li>
 *   <li>the wake-ups this call was given are passed on where they are not used ({@link Call#passBatons}),
 *       and a writer wakes the readers of what it stored so far;</li>
 *   <li>the locks are released, the wake-ups decided under them are sent, readiness futures fire;</li>
 *   <li>the thread waits on the source's readers' queue for data (under the read end's mode) or on the
 *       target's writers' queue for room (the write end's), spinning first as the pipe's spin policy says;</li>
 *   <li>the locks are taken again; the wait is counted (spun, or woken to find nothing) exactly as for every
 *       other call, and its outcome feeds the adaptive spin;</li>
 *   <li>a handle closed meanwhile ends the call (its partial count, or {@code AsynchronousCloseException});
 *       otherwise the call attempts again.</li>
 * </ol>
 * When the call ends, its batons are passed, it counts itself ({@link Call#finish}), the locks are released,
 * the wake-ups sent and readiness fired, and then whatever it does outside the lock is done.
 */
final class Blocking {
    /** {@link WaitQueue.Outcome}s as Flight Recorder shows them, by ordinal. */
    private static final String[] OUTCOMES = {"spun", "ready", "woken", "interrupted", "timed out"};

    private Blocking() {
    }

    /**
     * Runs {@code c} from its first attempt to its end. Entered with {@code c}'s locks held; returns with none
     * held, every wake-up sent.
     *
     * @return the call's result
     * @throws IOException its failure
     */
    static long run(Call c) throws IOException {
        try {
            for (int r = c.step(); r != Call.DONE; r = c.step()) {
                if (!await(c, r == Call.WAIT_DATA)) {
                    break;
                }
            }
            c.finish();
            if (c.failure instanceof BrokenPipeException) {
                Flight.brokenPipe(c.target.id(), c.op(), c.done);
            }
        } finally {
            // Also on an unexpected exception (which leaves the call unrecycled): a wake-up given to this
            // call must not be swallowed, and one decided for others must go out.
            c.passBatons();
            c.unlockAll();
            c.flushWakes();
            c.fireReadiness();
        }
        return c.complete();
    }

    /**
     * One wait between two attempts; the locks are held on entry and on return.
     *
     * @return whether to attempt again; false when the call ended here ({@link Call#result} or
     *         {@link Call#failure} set)
     */
    private static boolean await(Call c, boolean forData) {
        InProcessEnd end = forData ? c.in : c.out;
        PipeCore pipe = forData ? c.source : c.target;
        if (end.isNonBlocking()) {
            c.result = c.done; // EAGAIN as 0, or the partial count
            return false;
        }
        if (Thread.currentThread().isInterrupted()) {
            c.failure = Failures.interrupted(c.waitingFor(forData), c.done);
            return false;
        }
        Deadline deadline = forData ? c.dataDeadline : c.roomDeadline;
        if (deadline.expired()) {
            c.failure = Failures.timedOut(c.waitingFor(forData), c.done);
            return false;
        }
        int need = forData ? 0 : pipe.needFor(c.bytesLeft());
        c.passBatons();
        if (c.target != null) {
            c.wakeReadersForStored(); // what this call stored must not wait for its return
        }
        WaitQueue.Outcome outcome;
        c.unlockAll();
        Object recorded;
        try {
            c.flushWakes();
            c.fireReadiness();
            recorded = Flight.waitBegins();
            outcome = forData ? pipe.awaitData(c.in, deadline.nanos()) : pipe.awaitRoom(c.out, deadline.nanos(), need);
        } finally {
            c.lockAll();
        }
        outcome = pipe.countWait(forData, outcome, end);
        c.woken(forData, outcome == WaitQueue.Outcome.WOKEN);
        boolean closed = (c.in != null && c.in.isClosed()) || (c.out != null && c.out.isClosed());
        Flight.waitEnded(recorded, pipe.id(), forData, c.op(), closed ? "closed" : OUTCOMES[outcome.ordinal()],
                c.done);
        if (closed) {
            // The close of a handle came first, whatever happened to the pipe since.
            c.closedMeanwhile();
            return false;
        }
        if (c.target != null) {
            c.beginStretch();
        }
        return true;
    }
}
