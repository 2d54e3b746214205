package dev.sluice;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;
import static org.assertj.core.api.Assertions.fail;

import java.io.IOException;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;
import org.assertj.core.api.ThrowableAssert.ThrowingCallable;

/**
 * Shared helpers of the Linux-pipe conformance tests ({@code Rule01…Rule19}); the pipes they test come from
 * {@link ConformanceTest}.
 *
 * <ul>
 *   <li>{@link ThreadKind}: every test that blocks runs once on a platform and once on a virtual thread;</li>
 *   <li>{@link #start}: runs a body on such a thread and hands back its result, its exception and its
 *       interrupt status at the end;</li>
 *   <li>{@link #awaitBlocked}: waits, by polling and never by sleeping a fixed time, until a thread is
 *       asleep: parked, or, for a platform thread of a pipe that sleeps in a system call (the shared-memory
 *       pipe's {@code FUTEX_WAIT}), asleep in a futex (and, optionally, until the pipe's counters show it
 *       queued as a waiter).</li>
 * </ul>
 */
final class ConformanceSupport {
    /** How long a helper waits for something that should happen at once before it calls the test failed. */
    static final Duration PATIENCE = Duration.ofSeconds(10);

    private ConformanceSupport() {
    }

    // ---- data ---------------------------------------------------------------------------------------

    /** {@code n} bytes of a pattern that does not repeat with the page size, so misplaced bytes show. */
    static byte[] pattern(int n) {
        byte[] b = new byte[n];
        for (int i = 0; i < n; i++) {
            b[i] = (byte) (i * 31 + (i / 251));
        }
        return b;
    }

    /** {@code n} copies of {@code value}. */
    static byte[] filled(int n, int value) {
        byte[] b = new byte[n];
        java.util.Arrays.fill(b, (byte) value);
        return b;
    }

    /**
     * Reads exactly {@code n} bytes with blocking reads (fails on an early end-of-stream).
     */
    static byte[] readFully(ReadEnd in, int n) throws IOException {
        byte[] out = new byte[n];
        int got = 0;
        while (got < n) {
            int r = in.read(out, got, n - got);
            if (r < 0) {
                fail("end-of-stream after " + got + " of " + n + " bytes");
            }
            if (r == 0) {
                fail("a blocking read returned 0 after " + got + " of " + n + " bytes");
            }
            got += r;
        }
        return out;
    }

    /** Reads until end-of-stream and returns every byte. */
    static byte[] readToEnd(ReadEnd in) throws IOException {
        java.io.ByteArrayOutputStream all = new java.io.ByteArrayOutputStream();
        byte[] buf = new byte[16 * 1024];
        for (int r; (r = in.read(buf)) != -1; ) {
            assertThat(r).as("a blocking read returns at least one byte or -1").isPositive();
            all.write(buf, 0, r);
        }
        return all.toByteArray();
    }

    /** Drains what a nonblocking read end holds now; returns the bytes. */
    static byte[] drainNow(ReadEnd in) throws IOException {
        boolean was = in.isNonBlocking();
        in.setNonBlocking(true);
        try {
            java.io.ByteArrayOutputStream all = new java.io.ByteArrayOutputStream();
            byte[] buf = new byte[16 * 1024];
            for (int r; (r = in.read(buf)) > 0; ) {
                all.write(buf, 0, r);
            }
            return all.toByteArray();
        } finally {
            in.setNonBlocking(was);
        }
    }

    /** Runs {@code call}, asserts that it throws a {@code type}, and returns that exception. */
    static <X extends Throwable> X thrownBy(Class<X> type, ThrowingCallable call) {
        Throwable t = catchThrowable(call);
        assertThat(t).as("expected %s", type.getSimpleName()).isInstanceOf(type);
        return type.cast(t);
    }

    /** Asserts that a body's failure is a {@code type}, and returns it. */
    static <X extends Throwable> X as(Class<X> type, Throwable t) {
        assertThat(t).isInstanceOf(type);
        return type.cast(t);
    }

    // ---- threads ------------------------------------------------------------------------------------

    /** The two kinds of thread every blocking test runs on. */
    enum ThreadKind {
        PLATFORM, VIRTUAL;

        /** Starts {@code task} on a new thread of this kind. */
        Thread start(String name, Runnable task) {
            return switch (this) {
                case PLATFORM -> Thread.ofPlatform().name(name).daemon(true).start(() -> {
                    KernelTasks.register();
                    task.run();
                });
                case VIRTUAL -> Thread.ofVirtual().name(name).start(task);
            };
        }
    }

    /** A body that may throw anything. */
    @FunctionalInterface
    interface Body<T> {
        T run() throws Exception;
    }

    /** A body running on its own thread. */
    static final class Running<T> {
        private final Thread thread;
        private final CompletableFuture<T> result = new CompletableFuture<>();
        private volatile boolean interruptedAtEnd;

        private Running(ThreadKind kind, String name, Body<T> body) {
            this.thread = kind.start(name, () -> {
                try {
                    T value = body.run();
                    interruptedAtEnd = Thread.currentThread().isInterrupted();
                    result.complete(value);
                } catch (Throwable t) {
                    interruptedAtEnd = Thread.currentThread().isInterrupted();
                    result.completeExceptionally(t);
                }
            });
        }

        /** @return the thread running the body */
        Thread thread() {
            return thread;
        }

        /** @return whether the body has finished, normally or not */
        boolean isDone() {
            return result.isDone();
        }

        /** @return whether the thread's interrupt status was set when the body finished */
        boolean interruptedAtEnd() {
            assertThat(result).as("body finished").isDone();
            return interruptedAtEnd;
        }

        /** Waits for the body (at most {@link #PATIENCE}) and returns its result, failing if it threw. */
        T join() {
            try {
                return result.get(PATIENCE.toMillis(), TimeUnit.MILLISECONDS);
            } catch (ExecutionException e) {
                throw new AssertionError("the body on " + thread + " threw " + e.getCause(), e.getCause());
            } catch (TimeoutException e) {
                throw new AssertionError("the body on " + thread + " did not finish within " + PATIENCE
                        + "; state " + thread.getState());
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new AssertionError("interrupted", e);
            }
        }

        /** Waits for the body (at most {@link #PATIENCE}) and returns what it threw, failing if it did not. */
        Throwable failure() {
            try {
                T value = result.get(PATIENCE.toMillis(), TimeUnit.MILLISECONDS);
                throw new AssertionError("the body on " + thread + " returned " + value + " instead of throwing");
            } catch (ExecutionException e) {
                return e.getCause();
            } catch (TimeoutException e) {
                throw new AssertionError("the body on " + thread + " did not finish within " + PATIENCE
                        + "; state " + thread.getState());
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new AssertionError("interrupted", e);
            }
        }
    }

    /** Runs {@code body} on a new thread of the given kind. */
    static <T> Running<T> start(ThreadKind kind, Body<T> body) {
        return new Running<>(kind, "conformance-" + kind.name().toLowerCase(java.util.Locale.ROOT), body);
    }

    // ---- waiting for a thread to block ----------------------------------------------------------------

    /**
     * Waits until {@code t} is asleep ({@link #asleep}). Polls; fails after {@link #PATIENCE}, or at once if the
     * thread ends first.
     */
    static void awaitBlocked(Thread t) {
        awaitBlocked(t, () -> true);
    }

    /**
     * Waits until {@code t} is asleep ({@link #asleep}) <em>and</em> {@code condition} holds (typically: the
     * pipe's counters show one more waiter), which together mean the thread is asleep inside the pipe, not
     * merely passing through a lock.
     */
    static void awaitBlocked(Thread t, BooleanSupplier condition) {
        long deadline = System.nanoTime() + PATIENCE.toNanos();
        for (int spins = 0; ; spins++) {
            Thread.State s = t.getState();
            if (asleep(t, s) && condition.getAsBoolean()) {
                return;
            }
            if (s == Thread.State.TERMINATED) {
                fail("thread " + t + " ended instead of blocking");
            }
            if (System.nanoTime() - deadline > 0) {
                fail("thread " + t + " did not block within " + PATIENCE + "; state " + s);
            }
            backOff(spins);
        }
    }

    /**
     * Whether {@code t} sleeps: parked (WAITING, TIMED_WAITING), or a platform thread that Java sees RUNNABLE
     * but that sleeps in a {@code futex} system call ({@link KernelTasks}), as the shared-memory pipe's do. A
     * thread running Java code, spinning included, is not; one stopped for a moment at a safepoint is, as one
     * parked for a moment on a pipe's lock is parked: the callers' conditions tell those apart.
     */
    private static boolean asleep(Thread t, Thread.State s) {
        return s == Thread.State.WAITING || s == Thread.State.TIMED_WAITING
                || s == Thread.State.RUNNABLE && KernelTasks.sleeping(t);
    }

    /** Waits until the pipe's counters show at least {@code n} writer waits, and {@code t} is parked. */
    static void awaitBlockedWriting(Thread t, Pipe p, long n) {
        awaitBlocked(t, () -> p.counters().writerWaits() >= n);
    }

    /** Waits until the pipe's counters show at least {@code n} reader waits, and {@code t} is parked. */
    static void awaitBlockedReading(Thread t, Pipe p, long n) {
        awaitBlocked(t, () -> p.counters().readerWaits() >= n);
    }

    /** Polls {@code condition} until it holds; fails after {@link #PATIENCE}. */
    static void awaitCondition(String what, BooleanSupplier condition) {
        long deadline = System.nanoTime() + PATIENCE.toNanos();
        for (int spins = 0; !condition.getAsBoolean(); spins++) {
            if (System.nanoTime() - deadline > 0) {
                fail("not within " + PATIENCE + ": " + what);
            }
            backOff(spins);
        }
    }

    /** Spin a little, then yield, then park briefly: polling that stays cheap on a loaded 2-core box. */
    private static void backOff(int spins) {
        if (spins < 100) {
            Thread.onSpinWait();
        } else if (spins < 1_000) {
            Thread.yield();
        } else {
            LockSupport.parkNanos(100_000);
        }
    }
}
