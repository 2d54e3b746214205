package dev.sluice.stress;

import dev.sluice.Pipe;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;

/**
 * Runs the worker threads of one stress configuration and turns what can go wrong into readable
 * failures: the first exception of any worker fails the test (and aborts the others by closing the pipe's
 * handles), and a worker that does not finish in time fails it with the pipe's state, its counters and
 * every worker's state and stack (a hang is usually a lost wake-up, and the stacks say who sleeps where).
 */
final class StressHarness {
    /** Which kind of thread runs the workers. */
    enum Kind {
        PLATFORM, VIRTUAL;

        Thread.Builder builder(String name) {
            return this == PLATFORM ? Thread.ofPlatform().name(name).daemon(true) : Thread.ofVirtual().name(name);
        }
    }

    /** A worker body; any throwable fails the run. */
    @FunctionalInterface
    interface Body {
        void run() throws Exception;
    }

    /** How long the workers of one configuration may take before the run counts as hung. */
    static final Duration HANG_DEFAULT = Duration.ofSeconds(45);

    private final String name;
    private final Kind kind;
    private final Pipe pipe;
    private final List<Thread> threads = new ArrayList<>();
    private final AtomicReference<Throwable> failure = new AtomicReference<>();
    private volatile Runnable abort = () -> { };

    StressHarness(String name, Kind kind, Pipe pipe) {
        this.name = name;
        this.kind = kind;
        this.pipe = pipe;
    }

    /** What to do when a worker fails, so that the others stop waiting (typically: close every handle). */
    void onFailure(Runnable abort) {
        this.abort = abort;
    }

    /** Starts a worker of this run's {@link Kind}. */
    Thread start(String threadName, Body body) {
        return start(kind, threadName, body);
    }

    /**
     * Starts a helper that must get CPU time whatever the workers do (a chaos thread): a platform thread,
     * because a virtual one would queue behind the workers for the few carriers.
     */
    Thread startPlatform(String threadName, Body body) {
        return start(Kind.PLATFORM, threadName, body);
    }

    private Thread start(Kind k, String threadName, Body body) {
        Thread t = k.builder(threadName).unstarted(() -> {
            try {
                body.run();
            } catch (Throwable e) {
                fail(new AssertionError(threadName + " failed: " + e, e));
            }
        });
        synchronized (threads) {
            threads.add(t);
        }
        t.start();
        return t;
    }

    /** Records a failure found outside the workers (the first one wins) and aborts the run. */
    void fail(Throwable e) {
        if (failure.compareAndSet(null, e)) {
            abort.run();
        } else {
            failure.get().addSuppressed(e);
        }
    }

    boolean failed() {
        return failure.get() != null;
    }

    /** Rethrows the first failure, if any. */
    void check() {
        Throwable e = failure.get();
        if (e instanceof Error err) {
            throw err;
        }
        if (e != null) {
            throw new AssertionError(e);
        }
    }

    /** Joins the given threads, failing with a dump if one is still running at the deadline. */
    void join(List<Thread> which, Duration within, String what) throws InterruptedException {
        long deadline = System.nanoTime() + within.toNanos();
        for (Thread t : which) {
            long left = deadline - System.nanoTime();
            if (left <= 0 || !t.join(Duration.ofNanos(left))) {
                AssertionError hang = new AssertionError(name + ": " + what + " did not finish within " + within
                        + " (hang: lost wake-up?)\n" + dump());
                fail(hang);
                // Give the aborted workers a moment to unwind so the next test starts clean.
                for (Thread u : which) {
                    u.join(Duration.ofSeconds(2));
                }
                check();
            }
        }
        check();
    }

    /** Joins every thread started so far. */
    void joinAll(Duration within) throws InterruptedException {
        List<Thread> all;
        synchronized (threads) {
            all = new ArrayList<>(threads);
        }
        join(all, within, "workers");
    }

    /**
     * Waits, polling, until {@code condition} holds; fails with a dump at the deadline. Only used to wait
     * for a state the test must reach anyway (never to give another thread "time"), so the poll interval
     * affects the run time, not the verdict.
     */
    void awaitCondition(BooleanSupplier condition, Duration within, String what) {
        long deadline = System.nanoTime() + within.toNanos();
        while (!condition.getAsBoolean()) {
            if (failed()) {
                check();
            }
            if (System.nanoTime() - deadline > 0) {
                fail(new AssertionError(name + ": " + what + " not reached within " + within + "\n" + dump()));
                check();
            }
            LockSupport.parkNanos(100_000);
        }
    }

    /** @return the pipe's state and counters and each worker's state and stack */
    String dump() {
        StringBuilder b = new StringBuilder();
        b.append("pipe: ").append(pipe).append('\n');
        b.append("stat: ").append(pipe.stat()).append('\n');
        b.append("counters:\n").append(pipe.counters()).append('\n');
        List<Thread> all;
        synchronized (threads) {
            all = new ArrayList<>(threads);
        }
        for (Thread t : all) {
            b.append("--- ").append(t.getName()).append(" (").append(t.isVirtual() ? "virtual" : "platform")
                    .append(") ").append(t.getState()).append('\n');
            for (StackTraceElement e : t.getStackTrace()) {
                b.append("      at ").append(e).append('\n');
            }
        }
        return b.toString();
    }
}
