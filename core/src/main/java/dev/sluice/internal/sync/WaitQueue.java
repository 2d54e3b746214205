package dev.sluice.internal.sync;

import dev.sluice.policy.SpinPolicy;
import dev.sluice.policy.WaitDiscipline;
import java.util.concurrent.locks.LockSupport;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.BooleanSupplier;

/**
 * Threads waiting for one side of a pipe (readers for data, or writers for room): the analogue of the
 * kernel's {@code rd_wait} / {@code wr_wait} wait queues.
 *
 * <p>Why not a {@link java.util.concurrent.locks.Condition}: a condition must be signalled with the
 * pipe's lock held, and its waiter re-acquires that lock before it can even look. The kernel wakes
 * <em>after</em> dropping the pipe mutex, so the woken task does not run straight into it, and lets
 * waiters test their condition without the mutex. Doing the same needs a queue of parked threads with
 * its own small lock, which is this class. It never uses a monitor lock or a monitor wait,
 * so a virtual thread that waits here unmounts from its carrier.
 *
 * <p>The protocol, as in the kernel's {@code prepare_to_wait} / {@code schedule} / {@code finish_wait}:
 * <ol>
 *   <li>the waiter enqueues itself, <em>then</em> tests its condition, then parks;</li>
 *   <li>the waker changes the state (a volatile write), <em>then</em> looks at the queue.</li>
 * </ol>
 * Both halves are sequentially consistent (volatile fields and this queue's lock), so either the
 * waiter sees the new state or the waker sees the waiter: no wake-up is lost. A woken waiter is removed
 * from the queue by its waker (autoremove), so one wake-up never lands twice on the same thread.
 *
 * <p>Waiters are <em>exclusive</em>: {@link #wakeOne()} wakes the longest-waiting one only, and a
 * woken thread that leaves work behind passes the wake-up on (Linux 0ddad21d3e99, "use exclusive waits
 * when reading or writing"; it cut the make jobserver's context switches tenfold). How many a wake-up and a
 * baton reach is the pipe's {@link WaitDiscipline}: {@link #wake(WaitDiscipline)},
 * {@link #passOn(WaitDiscipline)}.
 */
public final class WaitQueue {
    /** What {@link #await} saw when it returned. */
    public enum Outcome {
        /** The condition held while the thread spun, before it ever queued or parked. */
        SPUN,
        /** The condition held, and no waker had picked this thread. */
        READY,
        /**
         * A waker picked this thread (whether or not the condition holds; it may not any more by the time
         * the thread looks). Such a thread must look, or wake another waiter.
         */
        WOKEN,
        /** The thread's interrupt status is set; it is left set. */
        INTERRUPTED,
        /** The deadline passed. */
        TIMED_OUT
    }

    /** One parked thread. Nodes are recycled through a free list, so steady waiting allocates nothing. */
    private static final class Waiter {
        Thread thread;
        Waiter prev;
        Waiter next;
        int tag;
        boolean queued;
        volatile boolean woken;
        /**
         * Whether wakers time this thread's wake-up: only for a platform thread of a queue that measures wake-up
         * costs. The cost sizes spins, and a virtual thread never spins, so its two clock reads would be wasted.
         */
        boolean timed;
        /** When a waker unparked this thread ({@link System#nanoTime()}), if {@link #timed}. */
        long wokenAt;
    }

    private final ReentrantLock lock = new ReentrantLock();
    private final SpinBudget spinBudget;
    private final boolean measureWakeCost;
    private Waiter first;
    private Waiter last;
    private Waiter free;
    /** Queued waiters; read without the lock so that a waker with nobody to wake pays one load. */
    private volatile int queued;
    /**
     * Wake-ups in flight: threads this queue woke that have not yet returned from {@link #await}. Changed
     * under the lock, read without it by {@link #wakeOneUnlessInFlight()}.
     */
    private volatile int inFlight;
    /** The head waiter's tag, published for {@link #firstTag()}. */
    private volatile int firstTag;
    // Written under this queue's lock; read without it (a racy but untorn snapshot of a long on 64-bit
    // VMs is not guaranteed by the JLS, hence volatile), so statistics never block.
    private volatile long wakeups;
    private volatile long waits;

    /** A queue whose waiters spin for the full spin they are given ({@link SpinPolicy#FIXED}). */
    public WaitQueue() {
        this(SpinPolicy.FIXED);
    }

    /**
     * @param spinPolicy how the spin given to {@link #await(BooleanSupplier, long, int, long)} is used: in
     *                   full every time, or learnt from this queue's past waits
     */
    public WaitQueue(SpinPolicy spinPolicy) {
        this.spinBudget = new SpinBudget(spinPolicy);
        this.measureWakeCost = spinBudget.adaptive();
    }

    /** @return this queue's spin budget (the learnt spin of an adaptive queue) */
    public SpinBudget spinBudget() {
        return spinBudget;
    }

    /** @return how many threads are queued (a racy hint, exact under the waker's protocol above) */
    public int waiters() {
        return queued;
    }

    /** @return whether any thread is queued (a racy hint, exact under the waker's protocol above) */
    public boolean hasWaiters() {
        return queued != 0;
    }

    /**
     * Parks the calling thread until {@code ready} holds, a waker picks it, it is interrupted, or
     * {@code deadlineNanos} (a {@link System#nanoTime()} value, or 0 for none) passes.
     * {@code ready} is evaluated without any lock, after the thread is queued.
     *
     * @param ready         the condition waited for
     * @param deadlineNanos when to give up, or 0
     * @return why it returned
     */
    public Outcome await(BooleanSupplier ready, long deadlineNanos) {
        return await(ready, deadlineNanos, 0, 0);
    }

    /**
     * {@link #await(BooleanSupplier, long)}, with a tag and an optional spin.
     *
     * @param ready         the condition waited for
     * @param deadlineNanos when to give up, or 0
     * @param tag           a number a waker can read off the longest-waiting thread ({@link #firstTag()}),
     *                      such as what the waiter needs to make progress
     * @param spinNanos     the longest spin on {@code ready} before queueing and parking; 0 parks at once.
     *                      Waking a parked thread on another CPU costs tens of microseconds; a spin that
     *                      sees the condition come true saves both the wake-up and the sleep. How much of it
     *                      is spun is this queue's {@link SpinPolicy}
     * @return why it returned
     */
    public Outcome await(BooleanSupplier ready, long deadlineNanos, int tag, long spinNanos) {
        long spunFrom = 0;
        if (spinNanos > 0) {
            long budget = spinBudget.next(spinNanos, Thread.currentThread().isVirtual());
            if (budget > 0) {
                long start = System.nanoTime();
                if (spinUntil(ready, budget, deadlineNanos, start)) {
                    spinBudget.succeeded();
                    return Outcome.SPUN;
                }
                spinBudget.failed();
                spunFrom = start;
            }
        }
        Waiter w = enqueue(tag);
        Outcome outcome = Outcome.INTERRUPTED;
        boolean picked;
        try {
            outcome = parkUntil(w, ready, deadlineNanos);
            if (w.timed && outcome == Outcome.WOKEN) {
                // Written before the waker's volatile store to woken, which this thread has read.
                long wokenAt = w.wokenAt;
                spinBudget.woke(System.nanoTime() - wokenAt);
                if (spunFrom != 0) {
                    // How long the wait really was: from the start of the failed spin to the waker's unpark.
                    spinBudget.missed(wokenAt - spunFrom, spinNanos);
                }
            }
        } finally {
            picked = leave(w);
            // Picked by a waker but leaving without acting on it (interrupt, timeout, or an exception):
            // the wake-up was meant for a thread that would make progress, so hand it on.
            if (picked && outcome != Outcome.READY && outcome != Outcome.WOKEN) {
                wakeOne();
            }
        }
        // Picked after its condition came true but before it left the queue: the waker counted on this thread
        // (to pass the baton on, and under COALESCING instead of waking another), so it must say so. Returning
        // READY here swallowed the baton, and writers slept beside an empty pipe.
        return picked && outcome == Outcome.READY ? Outcome.WOKEN : outcome;
    }

    /**
     * Waits for {@code ready} without queueing, for a virtual thread that waits for more than {@link #await}'s
     * condition (a reader waiting for a batch rather than any data) before it waits the usual way: yields
     * between looks, so that its carrier goes to any other virtual thread waiting for one (with none waiting
     * the yield returns at once, and this is a spin), and reads the clock after every yield, which costs more
     * than the clock; gives up early on interrupt or deadline.
     *
     * @param ready         the condition waited for
     * @param nanos         the longest wait
     * @param deadlineNanos when to give up, or 0
     * @return whether {@code ready} came true
     */
    public static boolean yieldUntil(BooleanSupplier ready, long nanos, long deadlineNanos) {
        long start = System.nanoTime();
        while (!ready.getAsBoolean()) {
            Thread.yield();
            long now = System.nanoTime();
            if (now - start >= nanos || Thread.currentThread().isInterrupted()
                    || (deadlineNanos != 0 && now - deadlineNanos >= 0)) {
                return false;
            }
        }
        return true;
    }

    /**
     * Spins on {@code ready} for at most {@code spinNanos}; gives up early on interrupt or deadline.
     * The clock is read every 64 rounds, so the bound is honoured to within a few hundred nanoseconds.
     * Also the spin of the shm pipe's waits, whose condition is a word another process changes.
     *
     * @param ready         the condition spun on
     * @param spinNanos     the longest spin
     * @param deadlineNanos when to give up, or 0
     * @param start         {@link System#nanoTime()} at the start of the spin
     * @return whether {@code ready} came true
     */
    public static boolean spinUntil(BooleanSupplier ready, long spinNanos, long deadlineNanos, long start) {
        for (int i = 1; ; i++) {
            if (ready.getAsBoolean()) {
                return true;
            }
            if ((i & 63) == 0) {
                long now = System.nanoTime();
                if (now - start >= spinNanos || Thread.currentThread().isInterrupted()
                        || (deadlineNanos != 0 && now - deadlineNanos >= 0)) {
                    return false;
                }
            }
            Thread.onSpinWait();
        }
    }

    private static Outcome parkUntil(Waiter w, BooleanSupplier ready, long deadlineNanos) {
        for (;;) {
            // Woken first: a thread a waker picked must know it (to pass the baton on, and under COALESCING
            // because a waker may have counted on it), even though the condition usually holds by then too.
            if (w.woken) {
                return Outcome.WOKEN;
            }
            if (ready.getAsBoolean()) {
                return Outcome.READY;
            }
            if (Thread.currentThread().isInterrupted()) {
                return Outcome.INTERRUPTED;
            }
            if (deadlineNanos != 0) {
                long left = deadlineNanos - System.nanoTime();
                if (left <= 0) {
                    return Outcome.TIMED_OUT;
                }
                LockSupport.parkNanos(w, left);
            } else {
                LockSupport.park(w);
            }
        }
    }

    /**
     * @return the tag of the longest-waiting thread, or 0 if none waits. Lock-free (one volatile load), so
     *         a thread holding the pipe's lock can ask without ever blocking inside its critical section.
     */
    public int firstTag() {
        return firstTag;
    }

    /** Keeps {@link #firstTag} equal to the head waiter's tag; called with this queue's lock held. */
    private void headChanged() {
        firstTag = first == null ? 0 : first.tag;
    }

    private Waiter enqueue(int tag) {
        Thread me = Thread.currentThread();
        lock.lock();
        try {
            Waiter w = free;
            if (w != null) {
                free = w.next;
                w.next = null;
            } else {
                w = new Waiter();
            }
            w.thread = me;
            w.timed = measureWakeCost && !me.isVirtual();
            w.tag = tag;
            w.woken = false;
            w.queued = true;
            w.prev = last;
            if (last == null) {
                first = w;
            } else {
                last.next = w;
            }
            last = w;
            if (first == w) {
                headChanged();
            }
            waits++;
            queued++; // volatile write: the waiter's half of the protocol, before it tests the condition
            return w;
        } finally {
            lock.unlock();
        }
    }

    /** @return whether {@code w} had been woken */
    private boolean leave(Waiter w) {
        lock.lock();
        try {
            boolean wasWoken = w.woken;
            if (wasWoken) {
                // Before any hand-on below: the wake-up that replaces this one must count from its own start.
                inFlight--;
            }
            if (w.queued) {
                unlink(w);
            }
            w.thread = null;
            w.next = free;
            w.prev = null;
            free = w;
            return wasWoken;
        } finally {
            lock.unlock();
        }
    }

    private void unlink(Waiter w) {
        if (w.prev == null) {
            first = w.next;
        } else {
            w.prev.next = w.next;
        }
        if (w.next == null) {
            last = w.prev;
        } else {
            w.next.prev = w.prev;
        }
        w.prev = null;
        w.next = null;
        w.queued = false;
        queued--;
        headChanged();
    }

    /**
     * Sends a wake-up for a change that gave this side something, to as many waiters as {@code discipline}
     * says ({@link WaitDiscipline#wakes}). One volatile load when nobody waits.
     *
     * @return how many threads were woken
     */
    public int wake(WaitDiscipline discipline) {
        if (queued == 0) {
            return 0;
        }
        return wake(discipline.wakes(inFlight != 0));
    }

    /**
     * Passes a woken thread's baton on, as {@code discipline} says ({@link WaitDiscipline#passes}).
     *
     * @return how many threads were woken
     */
    public int passOn(WaitDiscipline discipline) {
        if (queued == 0) {
            return 0;
        }
        return wake(discipline.passes(inFlight != 0));
    }

    private int wake(int n) {
        return n == 0 ? 0 : n == 1 ? wakeOne() : wakeAll();
    }

    /** Wakes the longest-waiting thread, if any. @return how many threads were woken (0 or 1) */
    public int wakeOne() {
        if (queued == 0) {
            return 0;
        }
        Thread t;
        lock.lock();
        try {
            Waiter w = first;
            if (w == null) {
                return 0;
            }
            unlink(w);
            if (w.timed) {
                w.wokenAt = System.nanoTime();
            }
            w.woken = true;
            t = w.thread;
            wakeups++;
            inFlight++;
        } finally {
            lock.unlock();
        }
        LockSupport.unpark(t);
        return 1;
    }

    /** Wakes every queued thread (last close, resize). @return how many threads were woken */
    public int wakeAll() {
        if (queued == 0) {
            return 0;
        }
        int n = 0;
        lock.lock();
        try {
            for (Waiter w = first; w != null; w = first) {
                unlink(w);
                if (w.timed) {
                    w.wokenAt = System.nanoTime();
                }
                w.woken = true;
                LockSupport.unpark(w.thread);
                n++;
            }
            wakeups += n;
            inFlight += n;
        } finally {
            lock.unlock();
        }
        return n;
    }

    /**
     * Wakes the longest-waiting thread unless a thread this queue woke earlier has not yet returned from
     * {@link #await}: the wake-up discipline {@code COALESCING}.
     *
     * <p>Why skipping is safe: the in-flight count is lowered when a woken thread returns from
     * {@code await}, before it looks at the state it waits for. A waker that changed that state (under the
     * lock that guards it, released before this call) and then sees a wake-up in flight knows that some woken
     * thread will take that lock after the change and so will see it, <em>provided</em> that every thread
     * this queue wakes, once {@code await} returns, either re-examines the guarded state under its lock or
     * wakes another waiter instead. The pipe's read and write loops re-examine the ring after every wait; a
     * thread that gives up without looking (its handle was closed) passes the wake-up on. A waiter that is
     * picked while it is leaving with an interrupt or timeout already passes it on here.
     *
     * <p>Two wakers racing may both find nothing in flight and both wake: a spare wake-up, never a lost one.
     *
     * @return how many threads were woken (0 or 1)
     */
    public int wakeOneUnlessInFlight() {
        if (inFlight != 0) {
            return 0;
        }
        return wakeOne();
    }

    /** @return whether a thread this queue woke has yet to return from {@link #await} (racy; for tests) */
    public boolean wakeInFlight() {
        return inFlight != 0;
    }

    /** @return wake-ups delivered since the last reset */
    public long wakeups() {
        return wakeups;
    }

    /** @return times a thread started waiting since the last reset */
    public long waits() {
        return waits;
    }

    /** Zeroes {@link #wakeups()} and {@link #waits()}. */
    public void resetCounters() {
        lock.lock();
        try {
            wakeups = 0;
            waits = 0;
        } finally {
            lock.unlock();
        }
    }
}
