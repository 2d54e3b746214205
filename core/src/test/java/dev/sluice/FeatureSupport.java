package dev.sluice;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

import java.io.IOException;
import java.time.Duration;
import java.time.Instant;
import java.util.SplittableRandom;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.FutureTask;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.BooleanSupplier;

/**
 * Helpers shared by the rule tests {@code Rule09PagePoolTest} … {@code Rule14BadInputTest}: the kind of
 * thread a test runs its helpers on, bounded spins instead of sleeps, and test data.
 */
final class FeatureSupport {
    /** The longest any bounded spin waits before it fails the test. */
    static final Duration BOUND = Duration.ofSeconds(10);

    private FeatureSupport() {
    }

    /** A body for a helper thread that may throw. */
    @FunctionalInterface
    interface Body<T> {
        T run() throws Exception;
    }

    /** A body for a helper thread that may throw and returns nothing. */
    @FunctionalInterface
    interface VoidBody {
        void run() throws Exception;
    }

    /** Platform or virtual: every test with helper threads runs once with each. */
    enum ThreadKind {
        PLATFORM, VIRTUAL;

        Thread.Builder builder(String name) {
            return this == PLATFORM ? Thread.ofPlatform().daemon(true).name(name) : Thread.ofVirtual().name(name);
        }

        /** Starts {@code body} on a new thread of this kind. */
        <T> Helper<T> call(String name, Body<T> body) {
            FutureTask<T> task = new FutureTask<>((Callable<T>) body::run);
            Thread t = builder(name).start(() -> {
                KernelTasks.register();
                task.run();
            });
            return new Helper<>(t, task);
        }

        /** Starts {@code body} on a new thread of this kind. */
        Helper<Void> run(String name, VoidBody body) {
            return call(name, () -> {
                body.run();
                return null;
            });
        }
    }

    /** A started helper thread and its outcome. */
    static final class Helper<T> {
        final Thread thread;
        private final FutureTask<T> task;

        Helper(Thread thread, FutureTask<T> task) {
            this.thread = thread;
            this.task = task;
        }

        /** Waits (bounded) for the helper and returns its result, rethrowing what it threw. */
        T join() throws Exception {
            try {
                return task.get(BOUND.toMillis(), TimeUnit.MILLISECONDS);
            } catch (ExecutionException e) {
                if (e.getCause() instanceof Exception x) {
                    throw x;
                }
                throw e;
            } catch (TimeoutException e) {
                throw new AssertionError(thread + " did not finish within " + BOUND + "; state "
                        + thread.getState(), e);
            }
        }

        boolean isDone() {
            return task.isDone();
        }

        /** Spins until the helper is parked (WAITING or TIMED_WAITING). */
        Helper<T> awaitBlocked() {
            FeatureSupport.awaitBlocked(thread, task::isDone);
            return this;
        }
    }

    /**
     * Spins (no sleep) until {@code t} is asleep: WAITING or TIMED_WAITING, or asleep in a {@code futex} system
     * call ({@link KernelTasks}); fails if that takes longer than {@link #BOUND} or if {@code finished} says the
     * thread's work ended instead.
     */
    static void awaitBlocked(Thread t, BooleanSupplier finished) {
        long deadline = System.nanoTime() + BOUND.toNanos();
        for (;;) {
            Thread.State s = t.getState();
            if (s == Thread.State.WAITING || s == Thread.State.TIMED_WAITING
                    || s == Thread.State.RUNNABLE && KernelTasks.sleeping(t)) {
                return;
            }
            if (finished.getAsBoolean() || s == Thread.State.TERMINATED) {
                fail(t + " finished instead of blocking");
            }
            if (System.nanoTime() - deadline > 0) {
                fail(t + " did not block within " + BOUND + "; state " + s);
            }
            Thread.onSpinWait();
            Thread.yield();
        }
    }

    /** Spins (no sleep) until {@code condition} holds; fails after {@link #BOUND}. */
    static void spinUntil(String what, BooleanSupplier condition) {
        long deadline = System.nanoTime() + BOUND.toNanos();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() - deadline > 0) {
                fail("timed out after " + BOUND + " waiting until " + what);
            }
            Thread.onSpinWait();
            Thread.yield();
        }
    }

    /**
     * Waits for the wall clock (millisecond resolution, as {@link PipeStat} times have) to move past
     * {@code stamp}, so that a time taken afterwards is observably later. This waits for the clock, not
     * for another thread.
     */
    static void awaitClockPast(Instant stamp) {
        long ms = stamp.toEpochMilli();
        spinUntil("the clock passes " + stamp, () -> System.currentTimeMillis() > ms);
    }

    /** @return {@code n} reproducible pseudo-random bytes */
    static byte[] randomBytes(int n, long seed) {
        byte[] b = new byte[n];
        SplittableRandom r = new SplittableRandom(seed);
        for (int i = 0; i < n; i++) {
            b[i] = (byte) r.nextInt(256);
        }
        return b;
    }

    /** @return bytes {@code start, start+1, …} (mod 256), easy to read in a failure message */
    static byte[] sequence(int n, int start) {
        byte[] b = new byte[n];
        for (int i = 0; i < n; i++) {
            b[i] = (byte) (start + i);
        }
        return b;
    }

    /** Reads exactly {@code n} bytes (blocking reads; fails at end-of-stream). */
    static byte[] readFully(ReadEnd in, int n) throws IOException {
        byte[] b = new byte[n];
        int off = 0;
        while (off < n) {
            int k = in.read(b, off, n - off);
            assertThat(k).as("end-of-stream after %d of %d bytes", off, n).isPositive();
            off += k;
        }
        return b;
    }

    /** Reads what is queued now without blocking and returns it, leaving the handle's mode as it was. */
    static byte[] drain(ReadEnd in) throws IOException {
        boolean was = in.isNonBlocking();
        in.setNonBlocking(true);
        try {
            byte[] all = new byte[0];
            byte[] buf = new byte[8192];
            for (int n; (n = in.read(buf)) > 0; ) {
                byte[] next = new byte[all.length + n];
                System.arraycopy(all, 0, next, 0, all.length);
                System.arraycopy(buf, 0, next, all.length, n);
                all = next;
            }
            return all;
        } finally {
            in.setNonBlocking(was);
        }
    }

    /** Fills the pipe with full pages through a nonblocking write and returns how many bytes it took. */
    static int fillWithPages(WriteEnd out) throws IOException {
        boolean was = out.isNonBlocking();
        out.setNonBlocking(true);
        try {
            int total = 0;
            byte[] page = new byte[Pipe.PAGE_SIZE];
            for (int n; (n = out.write(page)) > 0; ) {
                total += n;
            }
            return total;
        } finally {
            out.setNonBlocking(was);
        }
    }
}
