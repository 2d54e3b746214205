package dev.sluice.jcstress;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

import dev.sluice.BrokenPipeException;
import dev.sluice.Pipe;
import dev.sluice.PipeOptions;
import dev.sluice.ReadEnd;
import dev.sluice.Splice;
import dev.sluice.WriteEnd;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.concurrent.CountDownLatch;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Mode;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.Signal;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.IIII_Result;

/**
 * splice between two pipes against a close, through the public API. A splice holds both pipes' locks while
 * it moves slots, taken in the order of the pipes' ids and never waiting for the second while holding the
 * first ({@code Call.lockBoth}: it tries the second, and if that is busy lets go of the first, waits for the
 * second alone and starts over); a close takes one pipe's lock. What must hold whatever the interleaving:
 * the check of the target's readers and the move are one step under both locks, so nothing is moved into a
 * pipe after its last reader closed and no slot is lost or doubled; and a splice blocked on one pipe
 * comes back when its end is closed, however often the two locks are traded.
 */
public final class SpliceLockingVsClose {
    /** What a splice into a pipe with no readers reports, for the outcomes ({@code EPIPE}). */
    static final int EPIPE = -32;
    /** Bytes of the one slot the races move. */
    static final int SLOT = 100;

    private SpliceLockingVsClose() {
    }

    static Pipe withSlot() {
        Pipe p = Pipe.open(PipeOptions.builder().capacity(4096).build());
        try {
            p.writer().write(new byte[SLOT]);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return p;
    }

    static int queued(Pipe p) {
        return (int) p.stat().bytesQueued();
    }

    /**
     * A splice of a one-slot pipe A into an empty pipe B while B's last reader closes. r1 = what the splice
     * returned ({@code -32}: broken pipe), r2 = bytes in B seen by the closer right after its close, r3 and
     * r4 = bytes in A and in B at the end. B keeps what it held when its last reader went (its writer is
     * still open), as on Linux, but must take nothing more.
     */
    @JCStressTest
    @Outcome(id = "100, 100, 0, 100", expect = ACCEPTABLE, desc = "The splice moved the slot, then B's reader closed.")
    @Outcome(id = "-32, 0, 100, 0", expect = ACCEPTABLE, desc = "B's reader closed first: broken pipe, A keeps it.")
    @Outcome(id = "100, 0, 0, 100", expect = FORBIDDEN, desc = "Moved the slot after B's last reader closed.")
    @Outcome(expect = FORBIDDEN, desc = "A slot lost or doubled, or a result that does not match what moved.")
    @State
    public static class SpliceVsLastReaderClose {
        final Pipe a = withSlot();
        final Pipe b = Pipe.open(PipeOptions.builder().capacity(4096).build());

        @Actor
        public void splicer(IIII_Result r) {
            try {
                r.r1 = (int) Splice.splice(a.reader(), b.writer(), Long.MAX_VALUE);
            } catch (BrokenPipeException e) {
                r.r1 = EPIPE;
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }

        @Actor
        public void closer(IIII_Result r) {
            b.reader().close();
            r.r2 = queued(b);
        }

        @Arbiter
        public void arbiter(IIII_Result r) {
            r.r3 = queued(a);
            r.r4 = queued(b);
        }
    }

    /**
     * One slot bounces between pipes A and B: the actor splices A into B while a helper splices B into A, so
     * the two take the same two locks in opposite argument orders, over and over, each waiting for data in
     * turn. The signal closes the actor's source end, and once the actor is back the helper's; both
     * splicers must come back (the closed end, or the broken pipe it leaves). A two-pipe lock taken in
     * argument order that waits for the second lock while holding the first deadlocks the pair; a woken
     * splice that does not notice its end was closed waits (or spins) for good.
     */
    @JCStressTest(Mode.Termination)
    @Outcome(id = "TERMINATED", expect = ACCEPTABLE, desc = "Both splicers came back after the closes.")
    @Outcome(id = "STALE", expect = FORBIDDEN,
            desc = "A splicer hangs: the two locks deadlocked, or a close was missed.")
    @State
    public static class PingPongVsClose {
        final Pipe a = withSlot();
        final Pipe b = Pipe.open(PipeOptions.builder().capacity(4096).build());
        final Thread helper = new Thread(() -> bounce(b.reader(), a.writer()), "B into A");
        final CountDownLatch actorBack = new CountDownLatch(1);

        {
            helper.setDaemon(true);
            helper.start();
        }

        /** Splices {@code from} into {@code to} until an end is closed or broken. */
        static void bounce(ReadEnd from, WriteEnd to) {
            try {
                while (Splice.splice(from, to, Long.MAX_VALUE) >= 0) {
                    Thread.onSpinWait();
                }
            } catch (IOException closedOrBroken) {
                // the way out this test is about
            }
        }

        @Actor
        public void actor() throws InterruptedException {
            bounce(a.reader(), b.writer());
            actorBack.countDown();
            helper.join();
        }

        /**
         * Closes the two source ends from a thread of its own: a close takes its pipe's lock, which a
         * deadlocked pair would hold for good, and the harness must stay free to report the hang. The
         * helper's end is closed only once the actor is back, so that a close the actor misses cannot be
         * covered up by the broken pipe the second close leaves it.
         */
        @Signal
        public void signal() {
            Thread closer = new Thread(() -> {
                a.reader().close();
                try {
                    actorBack.await();
                } catch (InterruptedException e) {
                    return;
                }
                b.reader().close();
            }, "closer");
            closer.setDaemon(true);
            closer.start();
        }
    }
}
