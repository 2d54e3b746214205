package dev.sluice.jcstress;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

import dev.sluice.Pipe;
import dev.sluice.PipeEnd;
import dev.sluice.PipeOptions;
import dev.sluice.ReadEnd;
import dev.sluice.WriteEnd;
import dev.sluice.policy.WaitDiscipline;
import dev.sluice.policy.WakePolicy;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.util.concurrent.ThreadLocalRandom;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Mode;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.Signal;
import org.openjdk.jcstress.annotations.State;

/**
 * {@link WaitDiscipline#COALESCING} against a close: a waker skips its wake-up while an earlier one is in
 * flight, counting on the thread woken before to look at the pipe after the change. That thread may instead
 * be leaving through a close of its own handle, without looking; it must then pass the wake-up on, or the
 * thread still asleep beside the new data (or room) sleeps for good. The in-flight count is lowered as the
 * woken thread leaves its wait, before it hands anything on, so that its own hand-on is not skipped in turn.
 *
 * <p>Each race: thread L waits on the pipe through handle {@code leaving}; the signal closes that handle (its
 * wake-up puts L in flight) and then, after a random few microseconds, makes the pipe ready for one more
 * thread. The actor, S, has started to wait through another handle in between, so the close did not wake
 * it, and the signal's wake-up finds L in flight as often as the two cores allow. S must always come back.
 */
public final class CoalescingVsClose {
    /** The longest pause between the close and the change, in nanoseconds: about one wake-up's latency. */
    private static final long MAX_PAUSE_NANOS = 40_000;

    private CoalescingVsClose() {
    }

    static Pipe coalescing() {
        return Pipe.open(PipeOptions.builder().waitDiscipline(WaitDiscipline.COALESCING)
                .spinBeforePark(Duration.ZERO).capacity(4096).wakePolicy(WakePolicy.FULL_AND_FREED).build());
    }

    /** Starts a thread that blocks in {@code call} and returns once it is parked (queued on the pipe). */
    static Thread parked(Runnable call) {
        Thread t = new Thread(call, "leaving");
        t.setDaemon(true);
        t.start();
        while (t.getState() != Thread.State.WAITING && t.isAlive()) {
            Thread.onSpinWait();
        }
        return t;
    }

    /** A call that must end with its handle's close; anything else it returns is a broken test. */
    static void untilClosed(IoCall call) {
        try {
            call.run();
        } catch (IOException closed) {
            return; // AsynchronousCloseException: the outcome L is there for
        }
        throw new IllegalStateException("a call on a handle that was closed under it returned normally");
    }

    /** Closes {@code end}, releases the actor, and pauses for a random fraction of a wake-up's latency. */
    static void closeThenPause(PipeEnd end, CoalescingVsClose.Gate gate) {
        end.close();
        gate.open = true;
        long until = System.nanoTime() + ThreadLocalRandom.current().nextLong(MAX_PAUSE_NANOS);
        while (System.nanoTime() - until < 0) {
            Thread.onSpinWait();
        }
    }

    /** An I/O call for a helper thread. */
    interface IoCall {
        void run() throws IOException;
    }

    /** Lets the actor start waiting only after the close: then the close cannot wake it. */
    static class Gate {
        volatile boolean open;

        void await() {
            while (!open) {
                Thread.onSpinWait();
            }
        }
    }

    /** Readers: L and S wait for data on an empty pipe; the signal closes L's handle, then writes a byte. */
    @JCStressTest(Mode.Termination)
    @Outcome(id = "TERMINATED", expect = ACCEPTABLE, desc = "S got the byte: L looked, or passed the wake-up on.")
    @Outcome(id = "STALE", expect = FORBIDDEN,
            desc = "Lost wake-up: skipped for L, which left through its close without passing it on.")
    @State
    public static class ReaderLeavesByClose extends Gate {
        final Pipe p = coalescing();
        final ReadEnd leaving = p.reader();
        final ReadEnd staying;

        {
            try {
                staying = leaving.dup();
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
            parked(() -> untilClosed(() -> leaving.read(new byte[1])));
        }

        @Actor
        public void actor() {
            await();
            try {
                staying.read(new byte[1]);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }

        @Signal
        public void signal() throws IOException {
            closeThenPause(leaving, this);
            p.writer().write(new byte[1]);
        }
    }

    /**
     * Writers: L and S wait for room in a full one-page pipe; the signal closes L's handle (not the last),
     * then reads the page.
     */
    @JCStressTest(Mode.Termination)
    @Outcome(id = "TERMINATED", expect = ACCEPTABLE, desc = "S stored its byte: L looked, or passed the wake-up on.")
    @Outcome(id = "STALE", expect = FORBIDDEN,
            desc = "Lost wake-up: skipped for L, which left through its close without passing it on.")
    @State
    public static class WriterLeavesByClose extends Gate {
        final Pipe p = coalescing();
        final WriteEnd leaving = p.writer();
        final WriteEnd staying;

        {
            try {
                leaving.write(new byte[4096]);
                staying = leaving.dup();
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
            parked(() -> untilClosed(() -> leaving.write(new byte[1])));
        }

        @Actor
        public void actor() {
            await();
            try {
                staying.write(new byte[1]);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }

        @Signal
        public void signal() throws IOException {
            closeThenPause(leaving, this);
            p.reader().read(new byte[4096]);
        }
    }
}
