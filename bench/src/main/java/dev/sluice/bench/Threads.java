package dev.sluice.bench;

import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/** Where a benchmark's sides run: platform threads or virtual threads. */
final class Threads {
    private Threads() {
    }

    static Thread start(String kind, Runnable r) {
        return switch (kind) {
            case "platform" -> Thread.ofPlatform().daemon().start(r);
            case "virtual" -> Thread.ofVirtual().start(r);
            default -> throw new IllegalArgumentException("unknown thread kind " + kind + " (platform, virtual)");
        };
    }

    /**
     * The measured side of a benchmark: the benchmark's own (platform) thread, or a virtual thread per batch,
     * started and joined by the benchmark thread (a few microseconds; batches are sized to make that negligible).
     *
     * @param kind "platform" or "virtual"
     * @return the side
     */
    static Side side(String kind) {
        return side(kind, false);
    }

    /**
     * As {@link #side(String)}, but with {@code persistent} the virtual side is one thread for the whole trial
     * that runs each batch handed to it: what {@code PipedInputStream} needs, which ties its ends to the threads
     * that use them ("Write end dead" once the last writing thread has died). Measured: handing batches to one
     * long-lived virtual thread through an executor made Sluice's virtual rows 35-45 % slower than a thread per
     * batch, so only the peer that needs it gets it, and the bench README says so.
     *
     * @param kind       "platform" or "virtual"
     * @param persistent whether a virtual side keeps one thread for the trial
     * @return the side
     */
    static Side side(String kind, boolean persistent) {
        start(kind, () -> { }); // validates the kind
        boolean virtual = "virtual".equals(kind);
        return new Side(virtual, virtual && persistent
                ? Executors.newSingleThreadExecutor(Thread.ofVirtual().factory()) : null);
    }

    /** See {@link #side}. */
    static final class Side implements AutoCloseable {
        private final boolean virtual;
        private final ExecutorService worker;

        private Side(boolean virtual, ExecutorService worker) {
            this.virtual = virtual;
            this.worker = worker;
        }

        /**
         * Runs {@code body} on this side and returns when it is done, rethrowing what it threw.
         *
         * @param body the batch
         * @throws Exception what the batch threw
         */
        void run(ThrowingRunnable body) throws Exception {
            if (!virtual) {
                body.run();
            } else if (worker != null) {
                try {
                    worker.submit(() -> {
                        body.run();
                        return null;
                    }).get();
                } catch (ExecutionException e) {
                    if (e.getCause() instanceof Exception x) {
                        throw x;
                    }
                    throw e;
                }
            } else {
                Exception[] failure = new Exception[1];
                Thread t = Thread.ofVirtual().start(() -> {
                    try {
                        body.run();
                    } catch (Exception e) {
                        failure[0] = e;
                    }
                });
                t.join();
                if (failure[0] != null) {
                    throw failure[0];
                }
            }
        }

        @Override
        public void close() {
            if (worker != null) {
                worker.shutdownNow();
            }
        }
    }

    @FunctionalInterface
    interface ThrowingRunnable {
        void run() throws Exception;
    }
}
