package dev.sluice.shm;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * A call run on a thread of its own, platform or virtual, whose result or exception a test takes later, waiting
 * at most {@link ChildJvm#PATIENCE}.
 *
 * @param <T> what the call returns
 */
final class Async<T> {
    interface Call<T> {
        T call() throws Exception;
    }

    private final CompletableFuture<T> result = new CompletableFuture<>();
    private final Thread thread;

    private Async(boolean virtual, Call<T> call) {
        thread = (virtual ? Thread.ofVirtual() : Thread.ofPlatform()).unstarted(() -> {
            try {
                result.complete(call.call());
            } catch (Throwable t) {
                result.completeExceptionally(t);
            }
        });
    }

    static <T> Async<T> start(boolean virtual, Call<T> call) {
        Async<T> a = new Async<>(virtual, call);
        a.thread.start();
        return a;
    }

    Thread thread() {
        return thread;
    }

    boolean isDone() {
        return result.isDone();
    }

    /** @return what the call returned; throws what it threw */
    T get() throws Exception {
        try {
            return result.get(ChildJvm.PATIENCE.toMillis(), TimeUnit.MILLISECONDS);
        } catch (ExecutionException e) {
            if (e.getCause() instanceof Exception x) {
                throw x;
            }
            throw e;
        } catch (TimeoutException e) {
            throw new AssertionError("the call on " + thread + " did not end within " + ChildJvm.PATIENCE, e);
        }
    }

    /** @return what the call threw; fails if it returned */
    Throwable failure() throws InterruptedException {
        try {
            T r = get();
            throw new AssertionError("the call returned " + r + " instead of failing");
        } catch (InterruptedException e) {
            throw e;
        } catch (Exception e) {
            return e;
        }
    }
}
