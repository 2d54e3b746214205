package dev.sluice.jcstress;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

import dev.sluice.Pipe;
import dev.sluice.PipeCounters;
import dev.sluice.PipeEnd;
import dev.sluice.PipeOptions;
import dev.sluice.ReadEnd;
import dev.sluice.WriteEnd;
import dev.sluice.policy.WaitDiscipline;
import dev.sluice.policy.WakePolicy;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.locks.LockSupport;
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
 * <p>Each race: the actor, S, waits on the pipe through its own handle; a virtual thread L waits behind it
 * through handle {@code leaving}. The signal closes {@code leaving}, which wakes both: S looks, finds
 * nothing and waits again, while L is kept in flight, on its way out, because the signal holds every carrier
 * thread busy (a woken thread slow to get a CPU, made certain). Then the signal makes the pipe ready for one
 * more thread, a wake-up that COALESCING skips since L is in flight, and lets the carriers go. L leaves
 * through its close and must hand the skipped wake-up to S.
 */
public final class CoalescingVsClose {
    /** How long the signal waits for a thread to queue before it goes on regardless, in nanoseconds. */
    private static final long PATIENCE_NANOS = 20_000_000;
    /** The signal's nap between two looks at the counters, in nanoseconds. */
    private static final long POLL_NANOS = 10_000;

    private CoalescingVsClose() {
    }

    static Pipe coalescing() {
        return Pipe.open(PipeOptions.builder().waitDiscipline(WaitDiscipline.COALESCING)
                .spinBeforePark(Duration.ZERO).capacity(4096).wakePolicy(WakePolicy.FULL_AND_FREED).build());
    }

    /** Waits that started on the pipe so far, on the side given. */
    static long waits(Pipe p, boolean readers) {
        PipeCounters c = p.counters();
        return readers ? c.readerWaits() : c.writerWaits();
    }

    /**
     * Starts virtual thread L in {@code call} on {@code end} and returns once it waits on the pipe. Its call
     * must end with the close of {@code end}.
     */
    static void startLeaving(Pipe p, boolean readers, IoCall call) {
        long before = waits(p, readers);
        Thread.ofVirtual().name("leaving").start(() -> {
            try {
                call.run();
            } catch (IOException closed) {
                return; // AsynchronousCloseException: how L leaves
            }
            throw new IllegalStateException("a call on a handle that was closed under it returned normally");
        });
        awaitWait(p, readers, before, PATIENCE_NANOS);
    }

    /**
     * Returns once a wait has started on the pipe's side since it counted {@code before}, or after
     * {@code patienceNanos}. Polls with short naps: the counters take the pipe's lock, and the threads
     * watched need the CPU.
     */
    static void awaitWait(Pipe p, boolean readers, long before, long patienceNanos) {
        long start = System.nanoTime();
        while (waits(p, readers) == before && System.nanoTime() - start < patienceNanos) {
            LockSupport.parkNanos(POLL_NANOS);
        }
    }

    /**
     * Closes {@code end} with every carrier thread of the virtual scheduler held busy, so that L, woken by the
     * close, stays in flight; returns once S waits again (or, should it not, after a while).
     *
     * @return the carriers' hold, to be let go once the wake-up that L must pass on was skipped
     */
    static AtomicBoolean closeHoldingCarriers(Pipe p, boolean readers, PipeEnd end) {
        int carriers = Integer.getInteger("jdk.virtualThreadScheduler.parallelism",
                Runtime.getRuntime().availableProcessors());
        AtomicBoolean hold = new AtomicBoolean(true);
        CountDownLatch busy = new CountDownLatch(carriers);
        for (int i = 0; i < carriers; i++) {
            Thread.ofVirtual().start(() -> {
                busy.countDown();
                while (hold.get()) {
                    Thread.onSpinWait(); // keeps this carrier: a spinning virtual thread does not unmount
                }
            });
        }
        try {
            busy.await();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        long before = waits(p, readers);
        end.close();
        awaitWait(p, readers, before, PATIENCE_NANOS); // S, woken by the close too, looks and queues again
        return hold;
    }

    /** An I/O call for L. */
    interface IoCall {
        void run() throws IOException;
    }

    /** Readers wait for data on an empty pipe; the signal closes the leaving handle, then writes a byte. */
    @JCStressTest(Mode.Termination)
    @Outcome(id = "TERMINATED", expect = ACCEPTABLE, desc = "S got the byte: woken, or handed the skipped wake-up.")
    @Outcome(id = "STALE", expect = FORBIDDEN,
            desc = "Lost wake-up: skipped for a thread that left through its close without passing it on.")
    @State
    public static class ReaderLeavesByClose {
        final Pipe p = coalescing();
        final ReadEnd staying = p.reader();
        final ReadEnd leaving;

        {
            try {
                leaving = staying.dup();
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }

        @Actor
        public void actor() {
            try {
                staying.read(new byte[1]);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }

        @Signal
        public void signal() throws IOException {
            startLeaving(p, true, () -> leaving.read(new byte[1]));
            AtomicBoolean hold = closeHoldingCarriers(p, true, leaving);
            try {
                p.writer().write(new byte[1]); // skipped: L is in flight
            } finally {
                hold.set(false);
            }
        }
    }

    /**
     * Writers wait for room in a full one-page pipe; the signal closes the leaving handle (not the last write
     * end), then reads the page.
     */
    @JCStressTest(Mode.Termination)
    @Outcome(id = "TERMINATED", expect = ACCEPTABLE, desc = "S stored its byte: woken, or handed the skipped wake-up.")
    @Outcome(id = "STALE", expect = FORBIDDEN,
            desc = "Lost wake-up: skipped for a thread that left through its close without passing it on.")
    @State
    public static class WriterLeavesByClose {
        final Pipe p = coalescing();
        final WriteEnd staying = p.writer();
        final WriteEnd leaving;

        {
            try {
                staying.write(new byte[4096]);
                leaving = staying.dup();
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }

        @Actor
        public void actor() {
            try {
                staying.write(new byte[1]);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }

        @Signal
        public void signal() throws IOException {
            startLeaving(p, false, () -> leaving.write(new byte[1]));
            AtomicBoolean hold = closeHoldingCarriers(p, false, leaving);
            try {
                p.reader().read(new byte[4096]); // frees the slot; the wake-up is skipped: L is in flight
            } finally {
                hold.set(false);
            }
        }
    }
}
