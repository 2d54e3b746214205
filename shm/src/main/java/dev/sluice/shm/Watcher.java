package dev.sluice.shm;

import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.locks.LockSupport;

/**
 * The futex waiter for the threads of one attachment and one futex word ({@code DATA_SEQ} or {@code ROOM_SEQ}):
 * a platform daemon thread that sleeps in {@code FUTEX_WAIT} on their behalf, so that a thread waiting on a
 * shared pipe parks instead of sitting in a system call, where an interrupt cannot reach it and where a
 * virtual thread would pin its carrier for the length of the wait.
 *
 * <p>A thread registers with the sequence value it saw, rechecks, and parks; the watcher loads the
 * word, unparks every registered thread whose value differs from it, and sleeps on the value it loaded. The
 * order closes the race: a change between a thread's load and its registration is caught either by the
 * thread's recheck (made after registering) or by the watcher's comparison (made after its own load), because
 * the announcing side bumps the word after publishing the change and wakes the word after bumping it.
 *
 * <p>Interrupts and timeouts reach the parked thread as they reach any parked thread; a close of the
 * handle bumps the word, which the watcher sees. A peer's death bumps it too, once this JVM's
 * {@link PeerWatch} sees the peer's pidfd fire and reclaims it; so while the peer watch covers the pipe
 * ({@link ShmPipe#peersWatched()}) the watcher sleeps without a slice, and an idle wait costs no wake-up at
 * all (only a safety bound of {@link #SAFETY_NANOS}). Where it does not (no pidfds), the watcher runs the
 * dead-peer scan when a whole 100 ms slice passes with nothing happening, as before the peer watch. The
 * watcher ends after a few idle slices with nobody registered (the next registration starts another).
 *
 * <p><b>A wake-up it cannot use it passes on.</b> A change wakes one sleeper on the word (readers wait
 * exclusively, as Linux's since 5.6), and that may be this watcher while it has no waiter that takes bytes or
 * room: only {@code whenReady()} futures, or nobody while it lingers. Woken so, it wakes the next sleeper, which
 * may be a blocked reader of this or another process; without that, the reader slept on to its safety bound.
 *
 * <p><b>For a lock word</b> ({@code LOCK}, {@code READ_LOCK}, {@code WRITE_LOCK}; made by {@link Control}) it does
 * the same for virtual threads waiting for the lock, so that they park rather than pin a carrier in
 * {@code FUTEX_WAIT}. An unlock wakes one futex sleeper, which may be this watcher: woken, it unparks all its
 * waiters (each retries and, failing, marks the lock contended again, so the next unlock wakes again), and one
 * woken with no waiter left passes the wake-up on, so that it still reaches a sleeper that needs it. It never
 * sleeps in the futex without a waiter (an idle one would swallow wake-ups), and ends as soon as it has none.
 */
final class Watcher implements Runnable {
    private static final long SLICE_NANOS = 100_000_000L;
    /**
     * The longest sleep with a waiter registered when the peer watch covers the pipe: not needed for any wake-up
     * this module knows of (changes, closes and deaths all bump the word), it bounds what an unforeseen miss
     * would cost, and costs one wake-up per 5 s of idle waiting.
     */
    static final long SAFETY_NANOS = 5_000_000_000L;
    private static final int LINGER_SLICES = 3;

    /** The pipe whose sequence word this watches; null for a lock word. */
    private final ShmPipe pipe;
    private final Region r;
    private final boolean lock;
    private final long word;
    private final ConcurrentLinkedQueue<Waiter> waiters = new ConcurrentLinkedQueue<>();
    private final AtomicBoolean running = new AtomicBoolean();

    /**
     * A parked thread and the sequence value it went to sleep on; {@code takes} if it waits to take bytes, room
     * or the lock (a blocked call), not only to learn of a change (a future).
     */
    record Waiter(Thread thread, int seq, boolean takes) {
    }

    Watcher(ShmPipe pipe, long word) {
        this.pipe = pipe;
        this.r = pipe.region;
        this.lock = false;
        this.word = word;
    }

    /** A watcher of one of the lock words, for its virtual waiters. */
    Watcher(Region r, long lockWord) {
        this.pipe = null;
        this.r = r;
        this.lock = true;
        this.word = lockWord;
    }

    /**
     * Registers the calling thread, which parks next (and deregisters when it wakes).
     *
     * @param takes whether it waits to take what the change brings (a blocked call), not only to see it
     */
    Waiter register(int seq, boolean takes) {
        Waiter w = new Waiter(Thread.currentThread(), seq, takes);
        waiters.add(w);
        if (!running.get() && running.compareAndSet(false, true)) {
            Thread.ofPlatform().daemon(true).name(lock ? "sluice-shm-lock-watcher" : "sluice-shm-watcher").start(this);
        }
        return w;
    }

    void deregister(Waiter w) {
        waiters.remove(w);
    }

    @Override
    public void run() {
        if (!r.acquire()) {
            running.set(false);
            unparkAll();
            return;
        }
        try {
            int idle = 0;
            boolean woken = false;
            for (;;) {
                int cur = r.getInt(word);
                boolean any = false;
                boolean takers = false;
                for (Waiter w : waiters) {
                    any = true;
                    takers |= w.takes;
                    if (w.seq != cur || (lock && woken)) {
                        LockSupport.unpark(w.thread);
                    }
                }
                if (r.isClosed() || (pipe != null && pipe.detached())) {
                    unparkAll();
                    running.set(false);
                    return;
                }
                if (woken && !takers) {
                    Native.futexWake(r.base + word, 1); // a wake-up meant for a sleeper that takes: pass it on
                }
                idle = any ? 0 : idle + 1;
                if (idle > (lock ? 0 : LINGER_SLICES)) {
                    running.set(false);
                    // Someone registered after the scan above: keep going if nobody else has started a watcher.
                    if (waiters.isEmpty() || !running.compareAndSet(false, true)) {
                        return;
                    }
                    idle = 0;
                }
                long nanos = SLICE_NANOS;
                if (any && pipe != null) {
                    pipe.checkPeers(); // after loading cur: see checkPeers
                    nanos = pipe.peersWatched() ? SAFETY_NANOS : SLICE_NANOS;
                }
                int res = Native.futexWait(r.base + word, cur, nanos);
                woken = res == 0;
                if (res == -Native.ETIMEDOUT && any && pipe != null) {
                    pipe.scanPeers();
                }
            }
        } finally {
            r.release();
        }
    }

    private void unparkAll() {
        for (Waiter w : waiters) {
            LockSupport.unpark(w.thread);
        }
    }
}
