package dev.sluice.internal.engine;

import dev.sluice.internal.Deadline;
import dev.sluice.internal.Failures;
import java.io.IOException;

/**
 * One call on one or two pipes (a read, a write, a splice, a tee, a gift, a transfer) while it runs under the
 * blocking protocol ({@link Blocking}): what the protocol keeps for it between two attempts.
 *
 * <p>A call reads from its <em>source</em> pipe through a read end ({@link #in}) and writes to its
 * <em>target</em> through a write end ({@link #out}); a read has only a source, a write only a target, a
 * splice both. It waits for <em>data</em> on the source's readers' queue under the read end's mode and
 * timeout, and for <em>room</em> on the target's writers' queue under the write end's. A subclass is one
 * {@link #step}: an attempt made under the lock(s), which returns {@link #DONE} (with {@link #result} or
 * {@link #failure} set) or asks to wait ({@link #WAIT_DATA}, {@link #WAIT_ROOM}).
 *
 * <p>Wake-ups a step decides on are collected here ({@link #wake}) and sent once the locks are released
 * ({@link #flushWakes}); so are the batons of the wake-ups this call was given ({@link #passBatons}).
 */
abstract class Call {
    /** {@link #step}: the call is over; {@link #result} or {@link #failure} says how. */
    static final int DONE = 0;
    /** {@link #step}: nothing can be done until the source has data. */
    static final int WAIT_DATA = 1;
    /** {@link #step}: nothing can be done until the target has room. */
    static final int WAIT_ROOM = 2;

    // Wake-ups decided under the lock, sent after it.
    /** Slots were freed in the source. */
    static final int WAKE_SOURCE_WRITERS = 1;
    /** The source is readable again (a transfer let go of it). */
    static final int WAKE_SOURCE_READERS = 2;
    /** Data was stored in the target. */
    static final int WAKE_TARGET_READERS = 4;
    /** Room in the target came back (a reservation given back unused). */
    static final int WAKE_TARGET_WRITERS = 8;
    /** The baton: this call was woken for data it leaves to other readers. */
    private static final int PASS_SOURCE_READERS = 16;
    /** The baton: this call was woken for room it leaves to other writers. */
    private static final int PASS_TARGET_WRITERS = 32;

    InProcessReadEnd in;
    PipeCore source;
    InProcessWriteEnd out;
    PipeCore target;
    final Deadline dataDeadline = new Deadline();
    final Deadline roomDeadline = new Deadline();
    /** Bytes the call has moved so far: what an interrupt, a timeout or a close reports. */
    long done;
    long result;
    IOException failure;
    /** Link in a pipe's {@link Spares}. */
    Call nextSpare;

    private boolean wokenForData;
    private boolean wokenForRoom;
    private int wakes;
    /** The target was empty when the call's current stretch of storing began (its start, or its last wait). */
    private boolean targetWasEmpty;
    /** {@link #done} when the target's readers were last woken for this call's bytes, or it last slept. */
    private long storedAtWake;

    /** Starts a call on the given ends (either may be null); the caller holds their pipes' locks. */
    final void begin(InProcessReadEnd in, InProcessWriteEnd out) {
        this.in = in;
        this.source = in == null ? null : in.core();
        this.out = out;
        this.target = out == null ? null : out.core();
        dataDeadline.reset(in == null ? 0 : in.timeoutNanos());
        roomDeadline.reset(out == null ? 0 : out.timeoutNanos());
        done = 0;
        result = 0;
        failure = null;
        wokenForData = false;
        wokenForRoom = false;
        wakes = 0;
        targetWasEmpty = target != null && target.isEmpty();
        storedAtWake = 0;
    }

    // ---- what a kind of call supplies ------------------------------------------------------------------

    /** One attempt, with the locks held (a step may release and retake them, as a claim does). */
    abstract int step();

    /** For messages: "read", "write", "splice", ... */
    abstract String op();

    /** Bytes the call still has to store, for the need a waiting writer states ({@code WakePolicy#ADAPTIVE}). */
    long bytesLeft() {
        return 1;
    }

    /** With the locks held, when the call ends having reached the pipe: counters, the readers' wake-up. */
    void finish() {
    }

    /** Without the locks, after the wake-ups went out: work done outside the lock (a claimed read's copy). */
    void afterUnlock() {
    }

    /** Gives the call back to its pipe's spares, if it has any; its fields must let go of the caller's memory. */
    void recycle() {
    }

    // ---- outcomes -------------------------------------------------------------------------------------

    final int done(long value) {
        result = value;
        return DONE;
    }

    final int fail(IOException e) {
        failure = e;
        return DONE;
    }

    /** A handle was closed while the call waited: a partial count if it moved bytes, else the close. */
    final void closedMeanwhile() {
        if (done == 0) {
            failure = PipeCore.closedMeanwhile();
        } else {
            result = done;
        }
    }

    /** What the call would wait for, for messages: "read from an empty pipe", "write to a full pipe". */
    final String waitingFor(boolean forData) {
        return forData ? Failures.emptyPipe(op()) : Failures.fullPipe(op());
    }

    /**
     * After the locks are released and the wake-ups sent: the work outside the lock, then the call's result or
     * failure. The call goes back to the spares before returning, so nothing of it is read afterwards.
     */
    final long complete() throws IOException {
        IOException f = failure;
        long r = result;
        try {
            afterUnlock();
        } finally {
            recycle();
        }
        if (f != null) {
            throw f;
        }
        return r;
    }

    // ---- locks ----------------------------------------------------------------------------------------

    final void lockAll() {
        if (source == null) {
            target.lock();
        } else if (target == null) {
            source.lock();
        } else {
            lockBoth(source, target);
        }
    }

    final void unlockAll() {
        // Each unlock publishes its ring's index; the order does not matter for deadlock.
        if (target != null) {
            target.unlock();
        }
        if (source != null) {
            source.unlock();
        }
    }

    /**
     * Takes two pipes' locks in the order of their ids (the kernel's {@code pipe_double_lock} orders by
     * address), so two threads splicing A to B and B to A cannot deadlock, and never waits for the second
     * while it holds the first: it tries the second, and if that is held lets go of the first, waits for the
     * second alone, and starts over. A thread that spun on a second spin lock while holding the first would
     * keep both that lock and its carrier from everybody who needs them (with virtual threads and interrupts:
     * a livelock for good).
     */
    static void lockBoth(PipeCore a, PipeCore b) {
        PipeCore first = a.id() < b.id() ? a : b;
        PipeCore second = first == a ? b : a;
        for (;;) {
            first.lock();
            if (second.tryLock()) {
                return;
            }
            first.unlock();
            second.lock(); // wait for the holder of the second alone, holding nothing
            second.unlock();
        }
    }

    // ---- wake-ups and batons --------------------------------------------------------------------------

    /** Decides a wake-up ({@code WAKE_*}), with the locks held; it is sent by {@link #flushWakes}. */
    final void wake(int what) {
        wakes |= what;
    }

    /** Sends the wake-ups decided since the last flush; without the locks. */
    final void flushWakes() {
        int w = wakes;
        if (w == 0) {
            return;
        }
        wakes = 0;
        if ((w & WAKE_TARGET_READERS) != 0) {
            target.wakeReaders();
        }
        if ((w & WAKE_SOURCE_WRITERS) != 0) {
            source.wakeWriters();
        }
        if ((w & WAKE_SOURCE_READERS) != 0) {
            source.wakeReaders();
        }
        if ((w & WAKE_TARGET_WRITERS) != 0) {
            target.wakeWriters();
        }
        if ((w & PASS_SOURCE_READERS) != 0) {
            source.passToReaders();
        }
        if ((w & PASS_TARGET_WRITERS) != 0) {
            target.passToWriters();
        }
    }

    /** Completes the readiness futures of the call's pipes that a change made ready; without the locks. */
    final void fireReadiness() {
        if (source != null) {
            source.fireReadiness();
        }
        if (target != null) {
            target.fireReadiness();
        }
    }

    /** Records how the last wait on one queue ended: whether a waker picked this call ({@code WOKEN}). */
    final void woken(boolean forData, boolean woken) {
        if (forData) {
            wokenForData = woken;
        } else {
            wokenForRoom = woken;
        }
    }

    /**
     * The one baton rule, with the locks held, whenever the call is done with the pipes for now (it is about to
     * wait, or it leaves): a wake-up this call was given is passed on if the side it was for still has
     * something for another thread (data for a reader, room for a writer). A call that waits again on the
     * queue it was woken from has nothing to pass (it waits because the side has nothing); one that switches
     * queues (a splice woken for data that must now wait for room) or leaves without using all of it does.
     */
    final void passBatons() {
        if (wokenForData) {
            wokenForData = false;
            if (source.hasData()) {
                wakes |= PASS_SOURCE_READERS;
            }
        }
        if (wokenForRoom) {
            wokenForRoom = false;
            if (!target.isFull()) {
                wakes |= PASS_TARGET_WRITERS;
            }
        }
    }

    // ---- the writer's wake-up of readers --------------------------------------------------------------

    /**
     * With the locks held: wakes the target's readers for what this call stored since it last woke them, if
     * the reader wake policy says so for a stretch that began on an empty target ({@code was_empty}) or a
     * polled pipe. Called before every wait (what is stored must not wait for the call's return), before a
     * copy outside the lock, and when the call ends.
     */
    final void wakeReadersForStored() {
        if (done > storedAtWake && target.readersToWake(targetWasEmpty)) {
            wake(WAKE_TARGET_READERS);
            targetWasEmpty = false;
            storedAtWake = done;
        }
    }

    /** A new stretch of storing begins (after a wait): the target's state is sampled again. */
    final void beginStretch() {
        targetWasEmpty = target.isEmpty();
        storedAtWake = done;
    }

    /** Bytes just published found the target empty: a reader may be asleep on them. */
    final void foundTargetEmpty() {
        targetWasEmpty = true;
    }
}
