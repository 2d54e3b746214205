package dev.sluice.bench;

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
     * Runs {@code body} as the measured side: on the benchmark's own (platform) thread, or in a fresh virtual
     * thread that the benchmark thread joins. Starting and joining a virtual thread costs a few microseconds,
     * so batches are sized to make that negligible.
     */
    static void run(String kind, ThrowingRunnable body) throws Exception {
        if ("platform".equals(kind)) {
            body.run();
            return;
        }
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

    @FunctionalInterface
    interface ThrowingRunnable {
        void run() throws Exception;
    }
}
