package dev.sluice.bench;

import java.util.ArrayList;
import java.util.List;

/**
 * Threads that keep cores busy beside a benchmark: the "busy machine" condition (a co-tenant, a build, GC
 * threads). Each is a platform thread doing integer arithmetic without pause, so on a 2-core machine two of
 * them compete with the pipe's two sides for every core, and a side that spins takes time from the side it
 * waits for.
 */
final class Busy {
    private final List<Thread> threads = new ArrayList<>();
    private volatile boolean stop;
    /** Where the arithmetic goes, so that the JIT cannot drop it. */
    @SuppressWarnings("unused")
    private volatile long sink;

    private Busy() {
    }

    /** @param n busy threads to start, 0 for none */
    static Busy start(int n) {
        Busy b = new Busy();
        for (int i = 0; i < n; i++) {
            b.threads.add(Thread.ofPlatform().daemon().name("busy-" + i).start(b::spin));
        }
        return b;
    }

    private void spin() {
        long x = Thread.currentThread().threadId();
        while (!stop) {
            for (int i = 0; i < 10_000; i++) {
                x = x * 6364136223846793005L + 1442695040888963407L;
            }
            sink = x;
        }
    }

    void stop() throws InterruptedException {
        stop = true;
        for (Thread t : threads) {
            t.join();
        }
    }
}
