package dev.sluice.lab.workload;

import dev.sluice.lab.targets.PipeHandle;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

/**
 * The threads of one run. Every task waits on a start gate (hackbench's "ready"/"wake" barrier), so thread
 * creation is not timed. The first task to fail closes every pipe of the run, which wakes the others out of
 * their blocking calls, and its failure is what the run reports. A run that makes no progress for the
 * deadline is aborted the same way rather than hanging the lab.
 */
final class Crew {
    /** A run's task; may throw anything, which fails the run. */
    @FunctionalInterface
    interface Task {
        void run() throws Exception;
    }

    static final long DEADLINE_SECONDS = Long.getLong("sluice.lab.deadlineSeconds", 600);

    private final ThreadKind kind;
    private final List<PipeHandle> pipes;
    private final List<Thread> threads = new ArrayList<>();
    private final List<Task> tasks = new ArrayList<>();
    private final AtomicReference<Throwable> failure = new AtomicReference<>();
    private final CountDownLatch gate = new CountDownLatch(1);
    private CountDownLatch ready;

    Crew(ThreadKind kind, List<PipeHandle> pipes) {
        this.kind = kind;
        this.pipes = pipes;
    }

    void add(Task task) {
        tasks.add(task);
    }

    /**
     * Starts every task, opens the gate once all are waiting, and waits for all to end.
     *
     * @return nanoseconds from opening the gate until the last task ended
     * @throws CheckFailure the first failure of any task
     */
    long run() {
        ready = new CountDownLatch(tasks.size());
        int i = 0;
        for (Task t : tasks) {
            threads.add(kind.builder("lab-" + i++).unstarted(() -> body(t)));
        }
        threads.forEach(Thread::start);
        long start;
        try {
            ready.await();
            start = System.nanoTime();
            gate.countDown();
            long deadline = start + TimeUnit.SECONDS.toNanos(DEADLINE_SECONDS);
            for (Thread t : threads) {
                long left = deadline - System.nanoTime();
                if (left <= 0 || !t.join(java.time.Duration.ofNanos(Math.max(left, 1)))) {
                    fail(new CheckFailure("did not finish within " + DEADLINE_SECONDS
                            + " s (-Dsluice.lab.deadlineSeconds): hung or far too slow"));
                    for (Thread u : threads) {
                        u.join();
                    }
                    break;
                }
            }
        } catch (InterruptedException e) {
            fail(e);
            Thread.currentThread().interrupt();
            throw new CheckFailure("interrupted");
        }
        long end = System.nanoTime();
        Throwable f = failure.get();
        if (f instanceof CheckFailure c) {
            throw c;
        }
        if (f != null) {
            throw new CheckFailure(f.getClass().getSimpleName() + ": " + f.getMessage(), f);
        }
        return end - start;
    }

    private void body(Task t) {
        try {
            ready.countDown();
            gate.await();
            t.run();
        } catch (Throwable e) {
            fail(e);
        }
    }

    private void fail(Throwable e) {
        if (failure.compareAndSet(null, e)) {
            pipes.forEach(PipeHandle::close);
        }
    }
}
