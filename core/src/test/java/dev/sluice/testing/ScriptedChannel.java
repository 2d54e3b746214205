package dev.sluice.testing;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.WritableByteChannel;
import java.util.concurrent.CountDownLatch;
import java.util.function.Supplier;

/**
 * A channel that collects what it is given and fails on cue, for transfers that must lose nothing when the
 * channel fails: it takes at most {@code perCall} bytes a call and {@code budget} bytes in all, and once the
 * budget is spent the next call throws. With {@link #takeThenThrow} the call that reaches the budget takes
 * its bytes (moves the buffer) <em>and</em> throws, as a JDK channel interrupted during a write does. With
 * {@link #pauseAt} the first call that finds {@code at} bytes taken parks until {@link #resume()}, so a test
 * can act while a transfer is in the middle of its channel write.
 */
public final class ScriptedChannel implements WritableByteChannel {
    private final ByteArrayOutputStream taken = new ByteArrayOutputStream();
    private final long budget;
    private final int perCall;
    private final Supplier<? extends IOException> failure;
    private boolean takeThenThrow;
    private long pauseAt = -1;
    private final CountDownLatch paused = new CountDownLatch(1);
    private final CountDownLatch resumed = new CountDownLatch(1);
    private volatile boolean open = true;
    private int calls;

    /**
     * @param budget  bytes taken before the channel fails ({@link Long#MAX_VALUE}: never)
     * @param perCall most bytes one call takes
     * @param failure what the failing call throws
     */
    public ScriptedChannel(long budget, int perCall, Supplier<? extends IOException> failure) {
        this.budget = budget;
        this.perCall = perCall;
        this.failure = failure;
    }

    /** @return a channel that takes everything, {@code perCall} bytes at a time */
    public static ScriptedChannel collecting(int perCall) {
        return new ScriptedChannel(Long.MAX_VALUE, perCall, () -> new IOException("never"));
    }

    /** @return a channel that takes {@code budget} bytes and then throws {@code IOException("disk full")} */
    public static ScriptedChannel failingAfter(long budget, int perCall) {
        return new ScriptedChannel(budget, perCall, () -> new IOException("disk full"));
    }

    /** @return a channel that takes {@code budget} bytes and then throws an {@link InterruptedIOException} */
    public static ScriptedChannel interruptedAfter(long budget, int perCall) {
        return new ScriptedChannel(budget, perCall, () -> new InterruptedIOException("interrupted"));
    }

    /** @return this channel, whose call that reaches the budget takes its bytes and then throws */
    public ScriptedChannel takeThenThrow() {
        this.takeThenThrow = true;
        return this;
    }

    /** @return this channel, whose first call to find {@code at} bytes taken parks until {@link #resume()} */
    public ScriptedChannel pauseAt(long at) {
        this.pauseAt = at;
        return this;
    }

    /** Waits until a call has parked at the pause point. */
    public void awaitPaused() {
        await(paused);
    }

    /** Lets the parked call go on. */
    public void resume() {
        resumed.countDown();
    }

    @Override
    public int write(ByteBuffer src) throws IOException {
        boolean pause;
        synchronized (this) {
            calls++;
            pause = pauseAt >= 0 && taken.size() >= pauseAt;
            if (pause) {
                pauseAt = -1;
            }
        }
        if (pause) { // parked outside the monitor, so the test can look at what was taken meanwhile
            paused.countDown();
            await(resumed);
        }
        synchronized (this) {
            return take(src);
        }
    }

    private int take(ByteBuffer src) throws IOException {
        long left = budget - taken.size();
        if (left <= 0) {
            throw failure.get();
        }
        int k = (int) Math.min(Math.min(src.remaining(), perCall), left);
        byte[] b = new byte[k];
        src.get(b);
        taken.write(b, 0, k);
        if (takeThenThrow && k == left && src.hasRemaining()) {
            throw failure.get();
        }
        return k;
    }

    /** @return every byte taken so far */
    public synchronized byte[] bytes() {
        return taken.toByteArray();
    }

    /** @return write calls so far */
    public synchronized int calls() {
        return calls;
    }

    @Override
    public boolean isOpen() {
        return open;
    }

    @Override
    public void close() {
        open = false;
    }

    private static void await(CountDownLatch latch) {
        try {
            latch.await();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new UncheckedIOException(new InterruptedIOException("interrupted while paused"));
        }
    }
}
