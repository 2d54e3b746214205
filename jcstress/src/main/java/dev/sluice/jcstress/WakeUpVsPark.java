package dev.sluice.jcstress;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

import dev.sluice.Pipe;
import dev.sluice.PipeOptions;
import dev.sluice.ReadEnd;
import dev.sluice.WriteEnd;
import dev.sluice.policy.LockStrategy;
import dev.sluice.policy.WaitDiscipline;
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

    private static Pipe coalescing() {
        return Pipe.open(PipeOptions.builder().waitDiscipline(WaitDiscipline.COALESCING)
                .spinBeforePark(Duration.ZERO).capacity(4096).wakePolicy(WakePolicy.FULL_AND_FREED).build());
    }

    /**
     * COALESCING skips a wake-up while an earlier one is in flight. The signal wakes the blocked reader with a
     * byte, tries to take that byte back itself (the jobserver's writer reading its own token), and writes
     * another: that second write may find the first wake-up still in flight and send none. Whatever the
     * timing, the reader must end up with a byte.
     */
    @JCStressTest(Mode.Termination)
    @Outcome(id = "TERMINATED", expect = ACCEPTABLE, desc = "The reader got a byte.")
    @Outcome(id = "STALE", expect = FORBIDDEN,
            desc = "Lost wake-up: a coalesced wake-up left the reader asleep beside data.")
    @State
    public static class ReaderCoalescing {
        final Pipe p = coalescing();
        final ReadEnd thief;

        {
            try {
                thief = p.reader().reopen(); // its own description: a dup would share O_NONBLOCK
                thief.setNonBlocking(true);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }

        @Actor
        public void actor() {
            read(p, 1);
        }

        @Signal
        public void signal() {
            try {
                p.writer().write(new byte[1]);
                thief.read(new byte[1]);
                p.writer().write(new byte[1]);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
    }

    /**
     * The same on the writer's side: the signal frees the only slot of a full one-page pipe (waking the
     * blocked writer), fills it again itself through a nonblocking handle, then frees it once more.
     */
    @JCStressTest(Mode.Termination)
    @Outcome(id = "TERMINATED", expect = ACCEPTABLE, desc = "The writer stored its byte.")
    @Outcome(id = "STALE", expect = FORBIDDEN,
            desc = "Lost wake-up: a coalesced wake-up left the writer asleep beside room.")
    @State
    public static class WriterCoalescing {
        final Pipe p = coalescing();
        final WriteEnd thief;

        {
            write(p, 4096);
            try {
                thief = p.writer().reopen(); // its own description: a dup would share O_NONBLOCK
                thief.setNonBlocking(true);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }

        @Actor
        public void actor() {
            write(p, 1);
        }

        @Signal
        public void signal() {
            try {
                read(p, 4096);
                thief.write(new byte[4096]);
                byte[] b = new byte[4096];
                p.reader().read(b); // whatever is there: the thief's page, or the actor's byte
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
    }
}
