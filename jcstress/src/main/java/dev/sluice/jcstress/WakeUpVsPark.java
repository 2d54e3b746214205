package dev.sluice.jcstress;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

import dev.sluice.Pipe;
import dev.sluice.PipeOptions;
import dev.sluice.policy.LockStrategy;
import dev.sluice.policy.WakePolicy;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Duration;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Mode;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.Signal;
import org.openjdk.jcstress.annotations.State;

/**
 * A wake-up racing a thread that is about to park: the lost wake-up the kernel hit in 2025 (a stale tail
 * read beside a fresh head made an empty pipe look full). The actor blocks; the signal makes its condition
 * true at any moment of its way to sleep. It must always wake.
 */
public class WakeUpVsPark {
    private WakeUpVsPark() {
    }

    private static Pipe open(LockStrategy lock, long spinNanos, int capacity) {
        return Pipe.open(PipeOptions.builder().lockStrategy(lock).spinBeforePark(Duration.ofNanos(spinNanos))
                .capacity(capacity).wakePolicy(WakePolicy.FULL_AND_FREED).build());
    }

    private static void write(Pipe p, int n) {
        try {
            p.writer().write(new byte[n]);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static void read(Pipe p, int n) {
        try {
            byte[] b = new byte[n];
            for (int got = 0; got < n; ) {
                got += p.reader().read(b, got, n - got);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** A reader blocked on an empty pipe; the signal writes one byte. */
    @JCStressTest(Mode.Termination)
    @Outcome(id = "TERMINATED", expect = ACCEPTABLE, desc = "The reader woke and read the byte.")
    @Outcome(id = "STALE", expect = FORBIDDEN, desc = "Lost wake-up: the reader sleeps beside data.")
    @State
    public static class ReaderMutex {
        final Pipe p = open(LockStrategy.MUTEX, 0, 4096);

        @Actor
        public void actor() {
            read(p, 1);
        }

        @Signal
        public void signal() {
            write(p, 1);
        }
    }

    /** The same with a spin lock and a spin before parking, where the window is different. */
    @JCStressTest(Mode.Termination)
    @Outcome(id = "TERMINATED", expect = ACCEPTABLE, desc = "The reader woke and read the byte.")
    @Outcome(id = "STALE", expect = FORBIDDEN, desc = "Lost wake-up: the reader sleeps beside data.")
    @State
    public static class ReaderSpinning {
        final Pipe p = open(LockStrategy.SPIN, 2_000, 4096);

        @Actor
        public void actor() {
            read(p, 1);
        }

        @Signal
        public void signal() {
            write(p, 1);
        }
    }

    /** A writer blocked on a full one-page pipe; the signal reads the page, freeing the only slot. */
    @JCStressTest(Mode.Termination)
    @Outcome(id = "TERMINATED", expect = ACCEPTABLE, desc = "The writer woke and stored its byte.")
    @Outcome(id = "STALE", expect = FORBIDDEN, desc = "Lost wake-up: the writer sleeps beside a free slot.")
    @State
    public static class Writer {
        final Pipe p = open(LockStrategy.MUTEX, 0, 4096);

        {
            write(p, 4096);
        }

        @Actor
        public void actor() {
            write(p, 1);
        }

        @Signal
        public void signal() {
            read(p, 4096);
        }
    }
}
