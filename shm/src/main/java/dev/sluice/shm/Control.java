package dev.sluice.shm;

import java.io.IOException;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;
import java.util.concurrent.locks.LockSupport;

/**
 * One attachment's view of the shared control state: the process-shared lock, this attachment's entry in the
 * process table, the handle counts, the reclaiming of dead processes, and the wake-ups.
 *
 * <p><b>The lock</b> is a futex mutex in the word {@code LOCK}: 0 when free, else the owner's token, with
 * {@link #CONTENDED} set once a thread may be asleep on it (so only then does unlocking make a system call).
 * A token names the owner's table entry and that entry's generation, {@code (entry + 1) | gen << 8}; a process
 * that has no entry yet (it is registering) locks with {@code 0xFF | pid << 8}. A thread that has slept a
 * whole slice on the lock checks whether the owner still lives ({@link Procs#alive}); if it died holding the
 * lock, the thread takes the lock over with a compare-and-set of the exact token it saw (the generation makes
 * a recycled entry's new owner a different token, so a late thief cannot steal from a live one), and reclaims
 * the dead before going on.
 *
 * <p><b>Why a dead owner leaves nothing half done.</b> Every change made under a lock becomes visible with
 * one store of one word: a write copies its bytes into the page first and only then publishes them (the slot
 * word, then {@code HEAD}, holding {@code WRITE_LOCK}); a read copies out first and only then advances the slot
 * word or {@code TAIL} (holding {@code READ_LOCK}); a handle count changes the entry's {@code COUNTS} word, and
 * {@code HANDLES} is recomputed from all entries (never incremented), by the next owner of {@code LOCK} too.
 * So bytes that a writer killed in mid-copy had not published are never delivered, and a record of at most
 * {@code PIPE_BUF} bytes is published whole or not at all.
 *
 * <p><b>Process table.</b> An entry is claimed (its {@code ID} set to the process's identity) and freed only
 * under the lock. Reclaiming frees every entry whose process is gone, with its handles, and wakes every waiter
 * when that closed a side of the pipe (end-of-stream, broken pipe).
 */
final class Control {
    static final int CONTENDED = 0x8000_0000;
    private static final int REGISTRANT = 0xFF;
    private static final int GEN_MASK = 0x7F_FFFF;
    /**
     * Spins before a lock waiter sleeps: {@code LOCK} is held to change the process table, a side's lock for
     * one pass of that side ({@code READ_LOCK} also for a writer's merge of at most a page).
     */
    private static final int LOCK_SPINS = 200;
    private static final long LOCK_SLICE_NANOS = 10_000_000L;
    /** Yields a virtual lock waiter makes before it parks: a lock is held for a short copy at most. */
    private static final int LOCK_YIELDS = 16;
    /** At most one scan of the process table per this many nanoseconds per attachment. */
    static final long SCAN_INTERVAL_NANOS = 50_000_000L;
    /** Every this many scans, a full one: start times compared, so a reused pid is noticed within seconds. */
    static final int FULL_SCAN_EVERY = 20;

    final Region r;
    private final long selfId;
    private int entry = -1;
    private int token;
    private final AtomicLong lastScan = new AtomicLong(System.nanoTime());
    /** Scans made by this attachment; only the thread that won {@link #lastScan} counts one. */
    private int scans;
    /** The watchers of {@code LOCK}, {@code READ_LOCK} and {@code WRITE_LOCK} for virtual waiters. */
    private final Watcher lockWatcher;
    private final Watcher readLockWatcher;
    private final Watcher writeLockWatcher;
    /** {@code FUTEX_WAKE} calls this attachment made to sleeping readers and writers ({@code ShmPipe#counters()}). */
    final LongAdder readerWakeups = new LongAdder();
    final LongAdder writerWakeups = new LongAdder();

    Control(Region r) {
        this.r = r;
        this.lockWatcher = new Watcher(r, Layout.LOCK);
        this.readLockWatcher = new Watcher(r, Layout.READ_LOCK);
        this.writeLockWatcher = new Watcher(r, Layout.WRITE_LOCK);
        this.selfId = Procs.self();
        this.token = REGISTRANT | (Procs.pid(selfId) << 8);
    }

    int entry() {
        return entry;
    }

    // ---- the lock -----------------------------------------------------------------------------------

    void lock() throws ShmPipeFormatException {
        lock(Layout.LOCK);
    }

    void unlock() {
        unlock(Layout.LOCK);
    }

    /**
     * Takes one of the futex mutexes: {@link Layout#LOCK}, or a side's {@link Layout#READ_LOCK} or
     * {@link Layout#WRITE_LOCK}, which a read or write takes first and holds while it copies without
     * {@code LOCK}.
     */
    void lock(long word) throws ShmPipeFormatException {
        if (!r.casInt(word, 0, token)) {
            lockSlow(word);
        }
    }

    private void lockSlow(long word) throws ShmPipeFormatException {
        if (Thread.currentThread().isVirtual()) {
            lockVirtual(word);
            return;
        }
        int spins = LOCK_SPINS;
        for (;;) {
            int v = r.getInt(word);
            if (v == 0) {
                // A thread that has slept takes the lock marked contended: others may still sleep behind it.
                if (r.casInt(word, 0, spins > 0 ? token : token | CONTENDED)) {
                    return;
                }
                continue;
            }
            if (spins > 0) {
                spins--;
                Thread.onSpinWait();
                continue;
            }
            if ((v & CONTENDED) == 0 && !r.casInt(word, v, v | CONTENDED)) {
                continue;
            }
            v |= CONTENDED;
            if (Native.futexWait(r.base + word, v, LOCK_SLICE_NANOS) == -Native.ETIMEDOUT && takeOverIfDead(word, v)) {
                return;
            }
        }
    }

    /**
     * A virtual thread's wait for a lock. In {@code FUTEX_WAIT} it would pin its carrier: two such waiters take
     * both carriers of a 2-core machine, and a virtual holder cannot run to unlock. So it yields a few times,
     * then parks, with this attachment's {@link Watcher} for the word asleep in the futex for it (the
     * unlocker's wake-up reaches the watcher, which unparks it). Uninterruptible, as the platform thread's
     * futex wait: an interrupt is kept for the caller to see.
     */
    private void lockVirtual(long word) throws ShmPipeFormatException {
        for (int i = 0; i < LOCK_YIELDS; i++) {
            Thread.yield();
            if (r.getInt(word) == 0 && r.casInt(word, 0, token)) {
                return;
            }
        }
        Watcher w = word == Layout.LOCK ? lockWatcher : word == Layout.READ_LOCK ? readLockWatcher : writeLockWatcher;
        boolean interrupted = Thread.interrupted(); // else every park would return at once
        try {
            for (;;) {
                int v = r.getInt(word);
                if (v == 0) {
                    if (r.casInt(word, 0, token | CONTENDED)) { // parked: others may be asleep behind it
                        return;
                    }
                    continue;
                }
                if ((v & CONTENDED) == 0 && !r.casInt(word, v, v | CONTENDED)) {
                    continue;
                }
                v |= CONTENDED;
                if (parkOn(w, word, v) && takeOverIfDead(word, v)) {
                    return;
                }
                interrupted |= Thread.interrupted();
            }
        } finally {
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
        }
    }

    /** @return whether a whole slice passed with the lock word still at {@code v} (time to look at the owner) */
    private boolean parkOn(Watcher w, long word, int v) {
        Watcher.Waiter me = w.register(v, true);
        try {
            if (r.getInt(word) != v) {
                return false; // changed before the watcher could have seen us registered
            }
            long start = System.nanoTime();
            LockSupport.parkNanos(this, LOCK_SLICE_NANOS);
            return System.nanoTime() - start >= LOCK_SLICE_NANOS && r.getInt(word) == v;
        } finally {
            w.deregister(me);
        }
    }

    /** After a whole slice with the lock at {@code v}: takes it over if its owner died holding it. */
    private boolean takeOverIfDead(long word, int v) throws ShmPipeFormatException {
        if (!ownerDead(v) || !r.casInt(word, v, token | CONTENDED)) {
            return false;
        }
        // The dead owner's handles go with it; its half-done change is invisible.
        if (word == Layout.LOCK) {
            reclaimLocked();
        } else {
            reclaim();
        }
        return true;
    }

    void unlock(long word) {
        int v = r.getAndSetInt(word, 0);
        if ((v & CONTENDED) != 0) {
            Native.futexWake(r.base + word, 1);
        }
    }

    /** Takes the lock and frees the entries of processes that are gone (the peer watch saw one exit). */
    void reclaim() throws ShmPipeFormatException {
        lock();
        try {
            reclaimLocked();
        } finally {
            unlock();
        }
    }

    /** @return whether the lock's owner, as token {@code v} names it, is gone */
    private boolean ownerDead(int v) throws ShmPipeFormatException {
        int low = v & 0xFF;
        int gen = (v >>> 8) & GEN_MASK;
        if (low == REGISTRANT) {
            return ProcessHandle.of(gen).map(p -> !p.isAlive()).orElse(true);
        }
        int idx = low - 1;
        if (idx < 0 || idx >= r.layout.procs) {
            throw r.corrupt("the lock is held by entry " + idx + " of " + r.layout.procs);
        }
        long e = Layout.entry(idx);
        int g1 = r.getInt(e + Layout.E_GEN);
        long id = r.getLong(e + Layout.E_ID);
        int g2 = r.getInt(e + Layout.E_GEN);
        if (g1 != g2) {
            return false; // being re-registered: look again next slice
        }
        return (g1 & GEN_MASK) != gen || !Procs.alive(id);
    }

    // ---- process table ------------------------------------------------------------------------------

    /**
     * Claims an entry for this process with the given handles and makes it this attachment's.
     *
     * @param counts read handles (low 32 bits) and write handles (high 32)
     */
    void register(long counts) throws IOException {
        lock();
        int idx;
        try {
            idx = claimLocked(selfId, counts, false);
            recountLocked();
        } finally {
            unlock();
        }
        adopt(idx);
        // Sleepers elsewhere watch the processes that were in the table when they fell asleep: wake them to look
        // again (they find PEERS moved), so that this process's death is noticed too.
        wakeAll();
    }

    private void adopt(int idx) {
        entry = idx;
        token = (idx + 1) | ((r.getInt(Layout.entry(idx) + Layout.E_GEN) & GEN_MASK) << 8);
    }

    /**
     * Registers handles in another process's name (handing them over); they count as open from now on, and
     * are reclaimed if that process dies before {@link #claim}ing them.
     *
     * @return whether the process's pending entry already held such a handle (then nothing was added)
     */
    boolean invite(long childId, long counts) throws IOException {
        lock();
        try {
            for (int i = 0; i < r.layout.procs; i++) {
                long e = Layout.entry(i);
                if (r.getLong(e + Layout.E_ID) == childId && r.getInt(e + Layout.E_PENDING) == 1) {
                    long c = r.getLong(e + Layout.E_COUNTS);
                    long merged = c | counts; // 0 or 1 handle per side: the child gets one handle of each side
                    r.setLong(e + Layout.E_COUNTS, merged);
                    recountLocked();
                    return merged == c;
                }
            }
            claimLocked(childId, counts, true);
            recountLocked();
        } finally {
            unlock();
        }
        wakeAll(); // a new process to watch, as in register
        return false;
    }

    /**
     * Takes over handles handed to this process.
     *
     * @return the counts claimed, or -1 if none are waiting
     */
    long claim() throws IOException {
        lock();
        try {
            for (int i = 0; i < r.layout.procs; i++) {
                long e = Layout.entry(i);
                if (r.getLong(e + Layout.E_ID) == selfId && r.casInt(e + Layout.E_PENDING, 1, 0)) {
                    long c = r.getLong(e + Layout.E_COUNTS);
                    entry = i; // adopt below, after unlocking with the registrant token
                    return c;
                }
            }
            return -1;
        } finally {
            unlock();
            if (entry >= 0) {
                adopt(entry);
            }
        }
    }

    private int claimLocked(long id, long counts, boolean pending) throws IOException {
        int idx = freeEntry();
        if (idx < 0) {
            reclaimLocked();
            idx = freeEntry();
            if (idx < 0) {
                throw new IOException("cannot attach to " + r.name + ": its " + r.layout.procs
                        + " process entries are all taken by live processes");
            }
        }
        long e = Layout.entry(idx);
        r.setInt(e + Layout.E_GEN, r.getInt(e + Layout.E_GEN) + 1);
        r.setInt(e + Layout.E_PENDING, pending ? 1 : 0);
        r.setLong(e + Layout.E_COUNTS, counts);
        r.setLong(e + Layout.E_ID, id); // last: the entry is a process's from here on
        r.getAndAddInt(Layout.PEERS, 1); // after: whoever sees the new PEERS sees the ID
        return idx;
    }

    private int freeEntry() {
        for (int i = 0; i < r.layout.procs; i++) {
            if (r.getLong(Layout.entry(i) + Layout.E_ID) == 0) {
                return i;
            }
        }
        return -1;
    }

    /**
     * Adds {@code delta} to this attachment's handle counts (a handle opened, dup'ed or closed). Wakes every
     * waiter if that closed the last handle of a side anywhere.
     *
     * @param delta +1/-1 for a read handle, +/-(1L &lt;&lt; 32) for a write handle
     */
    void addHandles(long delta) throws ShmPipeFormatException {
        long before;
        long after;
        lock();
        try {
            long e = Layout.entry(entry);
            before = r.getLong(Layout.HANDLES);
            r.setLong(e + Layout.E_COUNTS, r.getLong(e + Layout.E_COUNTS) + delta);
            after = recountLocked();
        } finally {
            unlock();
        }
        wakeIfSideClosed(before, after);
    }

    /** Frees this attachment's entry (its handles are all closed). */
    void detach() throws ShmPipeFormatException {
        if (entry < 0) {
            return;
        }
        long before;
        long after;
        lock();
        try {
            long e = Layout.entry(entry);
            before = r.getLong(Layout.HANDLES);
            r.setLong(e + Layout.E_COUNTS, 0);
            r.setLong(e + Layout.E_ID, 0);
            after = recountLocked();
        } finally {
            unlock();
        }
        wakeIfSideClosed(before, after);
    }

    /** Recomputes HANDLES from the live entries. Lock held. */
    private long recountLocked() throws ShmPipeFormatException {
        long readers = 0;
        long writers = 0;
        for (int i = 0; i < r.layout.procs; i++) {
            long e = Layout.entry(i);
            if (r.getLong(e + Layout.E_ID) != 0) {
                long c = r.getLong(e + Layout.E_COUNTS);
                int rd = Region.readers(c);
                int wr = Region.writers(c);
                if (rd < 0 || wr < 0) {
                    throw r.corrupt("entry " + i + " counts " + rd + " read and " + wr + " write handles");
                }
                readers += rd;
                writers += wr;
            }
        }
        long h = Math.min(readers, Integer.MAX_VALUE) | (Math.min(writers, Integer.MAX_VALUE) << 32);
        r.setLong(Layout.HANDLES, h);
        return h;
    }

    /**
     * Frees the entries of processes that are gone, with their handles. Lock held.
     *
     * @return how many were freed
     */
    private int reclaimLocked() throws ShmPipeFormatException {
        int freed = 0;
        long before = r.getLong(Layout.HANDLES);
        for (int i = 0; i < r.layout.procs; i++) {
            long e = Layout.entry(i);
            long id = r.getLong(e + Layout.E_ID);
            if (id != 0 && !Procs.alive(id)) {
                r.setLong(e + Layout.E_COUNTS, 0);
                r.setLong(e + Layout.E_ID, 0);
                freed++;
            }
        }
        long after = recountLocked();
        if (freed > 0) {
            // Also wakes sleepers whose peer died mid-wait: they recheck, and go back to sleep if nothing changed.
            wakeAll();
        } else {
            wakeIfSideClosed(before, after);
        }
        return freed;
    }

    /**
     * Reclaims dead processes if any entry names one, at most once per {@link #SCAN_INTERVAL_NANOS}: called by
     * waiters whose wait slice passed with nothing happening, so that a peer killed with -9 cannot leave them
     * waiting for ever. Where the {@link PeerWatch} watches the pipe's peers, only its long safety bound lets a
     * slice pass, so this runs seldom; where it cannot (no pidfds), every 100 ms of a wait.
     */
    void scanPeers() throws ShmPipeFormatException {
        long now = System.nanoTime();
        long last = lastScan.get();
        if (now - last < SCAN_INTERVAL_NANOS || !lastScan.compareAndSet(last, now)) {
            return;
        }
        // Most scans only ask whether each pid still exists (a system call); every FULL_SCAN_EVERY-th also
        // compares start times, which catches a pid reused by a new process but costs a /proc read per peer:
        // done every time, those reads were most of an idle waiter's CPU (about 1 % of a core).
        boolean full = scans++ % FULL_SCAN_EVERY == 0;
        boolean anyDead = false;
        for (int i = 0; i < r.layout.procs && !anyDead; i++) {
            long id = r.getLong(Layout.entry(i) + Layout.E_ID);
            anyDead = id != 0 && !(full ? Procs.alive(id) : Procs.pidExists(id));
        }
        if (anyDead) {
            reclaim();
        }
    }

    // ---- wake-ups -----------------------------------------------------------------------------------

    private void wakeIfSideClosed(long before, long after) {
        boolean readersGone = Region.readers(before) > 0 && Region.readers(after) == 0;
        boolean writersGone = Region.writers(before) > 0 && Region.writers(after) == 0;
        if (readersGone || writersGone) {
            wakeAll(); // EOF and EPIPE reach every waiter, as Linux's pipe_release wakes both queues
        }
    }

    /**
     * Wakes one reader asleep if any waits ({@code all}: every one, even if none is counted): bumps the sequence
     * first, so a reader about to sleep does not. Readers wait exclusively, as Linux's do since 5.6 (a make
     * jobserver's many readers are not all woken for one token); a watcher woken with no waiter that takes
     * bytes passes the wake-up on ({@link Watcher}).
     */
    void wakeReaders(boolean all) {
        if (wake(Layout.DATA_SEQ, Layout.DATA_WAITERS, all)) {
            readerWakeups.increment();
        }
    }

    void wakeWriters(boolean all) {
        if (wake(Layout.ROOM_SEQ, Layout.ROOM_WAITERS, all)) {
            writerWakeups.increment();
        }
    }

    void wakeAll() {
        wakeReaders(true);
        wakeWriters(true);
    }

    /** @return whether someone waited: a wake-up sent to a sleeper, which the counters count */
    private boolean wake(long seq, long waiters, boolean all) {
        r.getAndAddInt(seq, 1); // a full fence: the change it announces is visible before the waiters are read
        boolean someone = r.getInt(waiters) > 0;
        if (all || someone) {
            r.setLong(Layout.wokenAt(seq), System.nanoTime()); // one clock read per wake, for the woken's budget
            Native.futexWake(r.base + seq, all ? Integer.MAX_VALUE : 1);
        }
        return someone;
    }
}
