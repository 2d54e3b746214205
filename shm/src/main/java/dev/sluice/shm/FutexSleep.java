package dev.sluice.shm;

import java.nio.channels.ClosedByInterruptException;
import java.nio.channels.spi.AbstractInterruptibleChannel;

/**
 * A platform thread's sleep in {@code FUTEX_WAIT} on a sequence word of a shared pipe, which
 * {@link Thread#interrupt()} ends at once.
 *
 * <p>An interrupt cannot reach a thread inside a system call. The one hook Java gives blocking native calls
 * is the interruptible channel's: between {@link #begin()} and {@link #end(boolean)} an interrupt of the
 * thread closes the channel, on the interrupting thread, before {@code interrupt()} returns. Closing this one
 * bumps the word and wakes its sleepers, so the sleeper either finds the word moved and does not sleep, or is
 * woken; it then sees its interrupt status as after any wake-up. The bump also wakes the word's other sleepers,
 * here and in other processes, which find nothing changed and sleep again: interrupts are rare, and a wake-up
 * that finds nothing is allowed anywhere in the protocol.
 *
 * <p>A closed channel cannot be used again, so each platform thread keeps one until an interrupt closes it
 * and then makes another: a sleep allocates nothing in the common case. The interrupting thread touches the
 * mapping only while the sleeper is between {@code begin} and {@code end} (the JDK runs the close under the
 * lock that {@code end} also takes), and the sleeper holds a use of the region for the whole call, so the
 * mapping cannot be unmapped under it.
 */
final class FutexSleep extends AbstractInterruptibleChannel {
    private static final ThreadLocal<FutexSleep> MINE = ThreadLocal.withInitial(FutexSleep::new);

    /** What the sleeper sleeps on: set by it before {@code begin()}, read by an interrupting thread. */
    private volatile Region region;
    private volatile long word;

    private FutexSleep() {
    }

    /**
     * Sleeps in {@code FUTEX_WAIT} while the word holds {@code expected}, for at most {@code nanos}; an interrupt
     * of the calling thread ends the sleep (the status stays set for the caller to see).
     *
     * @return as {@link Native#futexWait}: 0 when woken, {@code -EAGAIN} if the word had moved,
     *         {@code -ETIMEDOUT}; also 0 when an interrupt ended it
     */
    static int sleep(Region r, long word, int expected, long nanos) {
        FutexSleep s = MINE.get();
        if (!s.isOpen()) {
            s = new FutexSleep(); // the last one was closed by an interrupt
            MINE.set(s);
        }
        return s.sleepHere(r, word, expected, nanos);
    }

    private int sleepHere(Region r, long w, int expected, long nanos) {
        region = r;
        word = w;
        int res = 0;
        begin(); // an interrupt already pending closes us here: the bump below makes the wait return at once
        try {
            res = Native.futexWait(r.base + w, expected, nanos);
        } finally {
            try {
                end(true);
            } catch (ClosedByInterruptException e) {
                res = 0; // interrupted: the caller sees the status
            } catch (java.io.IOException e) {
                throw new IllegalStateException(e); // end(true) throws nothing else
            }
            region = null;
        }
        return res;
    }

    @Override
    protected void implCloseChannel() {
        Region r = region;
        if (r != null) {
            long w = word;
            r.getAndAddInt(w, 1);
            Native.futexWake(r.base + w, Integer.MAX_VALUE);
        }
    }
}
