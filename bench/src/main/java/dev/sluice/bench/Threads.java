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
     * The measured side of a benchmark: the benchmark's own (platform) thread, or one virtual thread that
     * lives for the whole trial and runs each batch handed to it. The same thread every time matters to
     * {@code PipedInputStream}, which ties its ends to the threads that use them ("Write end dead" once the
     * last writing thread has died); handing a batch over costs a few microseconds, so batches are sized to
     * make that negligible.
     */
    static Side side(String kind) {
        start(kind, () -> { }); // validates the kind
        return new Side("virtual".equals(kind) ? Executors.newSingleThreadExecutor(Thread.ofVirtual().factory())
                : null);
    }

    /** See {@link #side}. */
    static final class Side implements AutoCloseable {
        private final ExecutorService virtual;

        private Side(ExecutorService virtual) {
            this.virtual = virtual;
        }

        /** Runs {@code body} on this side and returns when it is done, rethrowing what it threw. */
        void run(ThrowingRunnable body) throws Exception {
            if (virtual == null) {
                body.run();
                return;
            }
            try {
                virtual.submit(() -> {
                    body.run();
                    return null;
                }).get();
            } catch (ExecutionException e) {
                if (e.getCause() instanceof Exception x) {
                    throw x;
                }
                throw e;
            }
        }

        @Override
        public void close() {
            if (virtual != null) {
                virtual.shutdownNow();
            }
        }
    }

    @FunctionalInterface
    interface ThrowingRunnable {
        void run() throws Exception;
    }
}
