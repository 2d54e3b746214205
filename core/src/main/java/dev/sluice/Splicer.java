package dev.sluice;

import dev.sluice.ring.Page;
import dev.sluice.ring.PageRing;
import dev.sluice.ring.PipeBuffer;
import dev.sluice.sync.WaitQueue;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.AsynchronousCloseException;

/**
 * The engine behind {@link Splice}: splice and tee between two in-process pipes, and gifts into one. The
 * analogue of {@code splice_pipe_to_pipe}, {@code link_pipe} and {@code vmsplice_to_pipe} in fs/splice.c.
 *
 * <p><b>Locking.</b> Moving a slot from one ring to another needs both pipes' locks. They are always taken
 * in the order of {@link PipeCore#id} (the kernel's {@code pipe_double_lock} orders by address), so two
 * threads splicing A→B and B→A cannot deadlock; no other code path holds two pipe locks. Waiting happens
 * with no lock held, on one pipe's queue at a time, exactly as a read (for data in the source) or a write
 * (for room in the target) waits, and wake-ups go out after both locks are released.
 *
 * <p><b>Wake-ups.</b> The same rules as reads and writes: the target's readers are woken as a write wakes
 * them ({@code was_empty}, or {@code poll_usage}); the source's writers as a read wakes them, slot by freed
 * slot, under the pipe's {@link dev.sluice.policy.WakePolicy}. A splicer woken on one queue that then has to
 * wait on the other passes its wake-up on, so that an exclusive wake-up is never swallowed by a thread
 * that cannot use it.
 */
final class Splicer {
    private Splicer() {
    }

    /** What a splice or tee round is waiting for after it released the locks. */
    private enum Wait {
        NONE, DATA, ROOM
    }

    private static void lockBoth(PipeCore a, PipeCore b) {
        if (a.id < b.id) {
            a.lock();
            b.lock();
        } else {
            b.lock();
            a.lock();
        }
    }

    private static void unlockBoth(PipeCore a, PipeCore b) {
        // Each unlock publishes its ring's index; the order does not matter for deadlock.
        b.unlock();
        a.unlock();
    }

    // ---- splice and tee ------------------------------------------------------------------------------

    /**
     * Moves ({@code tee == false}) or shares ({@code tee == true}) up to {@code max} bytes of whole slots from
     * {@code in}'s pipe to {@code out}'s. Arguments are checked by {@link Splice}.
     *
     * @return bytes moved or shared; -1 if the source is at end-of-stream; 0 if nothing could be done without
     *         waiting and the end that would have to wait is nonblocking
     */
    static long spliceOrTee(InProcessReadEnd in, InProcessWriteEnd out, long max, boolean tee) throws IOException {
        in.ensureOpen();
        out.ensureOpen();
        if (max == 0) {
            return 0;
        }
        final PipeCore a = in.core;
        final PipeCore b = out.core;
        long dataDeadline = 0;
        long roomDeadline = 0;
        boolean wokenForData = false; // the last wait on a's readers ended with a wake-up meant for us
        boolean wokenForRoom = false; // the last wait on b's writers did
        for (;;) {
            long done = 0;
            boolean eof = false;
            Wait wait = Wait.NONE;
            IOException failure = null;
            boolean wakeTargetReaders = false;
            boolean wakeSourceWriters = false;
            boolean passData = false;
            boolean passRoom = false;
            lockBoth(a, b);
            try {
                if (in.closed || out.closed) {
                    throw new AsynchronousCloseException(); // closed by another thread since ensureOpen
                }
                // Linux checks the target's readers first: splicing an ended pipe into a broken one is EPIPE.
                if (b.readers == 0) {
                    failure = PipeCore.broken(0);
                } else if (a.ring.isEmpty() || a.readHeld) {
                    // Held: a transfer is writing the source's first pages to a channel, and what it does not
                    // write stays first in line, so the source is not readable (nor at its end) until it is done.
                    if (a.writers == 0 && !a.readHeld) {
                        eof = true;
                    } else if (!in.nonBlocking) {
                        wait = Wait.DATA;
                    }
                } else if (b.ring.isFull()) {
                    if (!out.nonBlocking) {
                        wait = Wait.ROOM;
                    }
                } else {
                    boolean targetWasEmpty = b.ring.isEmpty();
                    boolean sourceWasFull = a.ring.isFull();
                    if (tee) {
                        done = share(a.ring, b.ring, max);
                    } else {
                        int before = a.ring.occupancy();
                        done = move(a.ring, b.ring, max);
                        wakeSourceWriters = wakeWritersAfterFreeing(a, before, sourceWasFull);
                    }
                    wakeTargetReaders = b.readerWakePolicy.wakeReader(targetWasEmpty, b.pollUsed);
                    // Pass on the wake-up that brought us here if there is more for the next thread (a tee
                    // consumed nothing, so the data it was woken for is all still there for a reader).
                    passData = wokenForData && a.exclusive && !a.ring.isEmpty();
                    passRoom = wokenForRoom && b.exclusive && !b.ring.isFull();
                    account(a, b, done, tee);
                }
            } finally {
                unlockBoth(a, b);
            }
            if (wakeTargetReaders) {
                b.wake(b.rdWait);
            }
            if (wakeSourceWriters) {
                a.wake(a.wrWait);
            }
            if (passData) {
                a.wakeNext(a.rdWait);
            }
            if (passRoom) {
                b.wakeNext(b.wrWait);
            }
            a.fireReadiness();
            b.fireReadiness();
            if (failure != null) {
                throw failure;
            }
            if (eof) {
                return -1;
            }
            if (wait == Wait.NONE) {
                return done; // bytes moved, or 0: nothing to do and the end that would wait is nonblocking
            }
            // ---- wait, holding no lock (ipipe_prep / opipe_prep) ----
            if (Thread.currentThread().isInterrupted()) {
                throw PipeCore.interrupted(wait == Wait.DATA ? "splice from an empty pipe" : "splice to a full pipe", 0);
            }
            if (wait == Wait.DATA) {
                if (wokenForRoom) {
                    b.wrWait.wakeOne(); // woken for room we cannot use yet: let another writer have it
                    wokenForRoom = false;
                }
                long timeout = in.timeoutNanos;
                if (timeout > 0) {
                    if (dataDeadline == 0) {
                        dataDeadline = PipeCore.deadlineAfter(timeout);
                    } else if (System.nanoTime() - dataDeadline >= 0) {
                        throw new PipeTimeoutException((tee ? "tee" : "splice") + " timed out on an empty pipe", 0);
                    }
                }
                WaitQueue.Outcome o = a.rdWait.await(in.readableCheck, dataDeadline, 0, a.spinNanos);
                wokenForData = o == WaitQueue.Outcome.WOKEN;
            } else {
                if (wokenForData) {
                    a.rdWait.wakeOne(); // likewise for data
                    wokenForData = false;
                }
                long timeout = out.timeoutNanos;
                if (timeout > 0) {
                    if (roomDeadline == 0) {
                        roomDeadline = PipeCore.deadlineAfter(timeout);
                    } else if (System.nanoTime() - roomDeadline >= 0) {
                        throw new PipeTimeoutException((tee ? "tee" : "splice") + " timed out on a full pipe", 0);
                    }
                }
                WaitQueue.Outcome o = b.wrWait.await(out.writableCheck, roomDeadline, 0, b.spinNanos);
                wokenForRoom = o == WaitQueue.Outcome.WOKEN;
            }
            if (in.closed || out.closed) {
                // Leaving without looking: hand on what we were woken for (see WaitQueue.wakeOneUnlessInFlight).
                if (wokenForData) {
                    a.rdWait.wakeOne();
                }
                if (wokenForRoom) {
                    b.wrWait.wakeOne();
                }
                throw new AsynchronousCloseException();
            }
        }
    }

    /**
     * Moves whole slots from {@code from}'s tail to {@code to}'s head while they fit in {@code max} and
     * {@code to} has room; if the very first slot is bigger than {@code max}, gives its first {@code max}
     * bytes by reference instead (the only case where a slot is cut, so a write of at most
     * {@link Pipe#PIPE_BUF} bytes, which always sits in one slot, arrives whole when {@code max >= PIPE_BUF}).
     */
    private static long move(PageRing from, PageRing to, long max) {
        long done = 0;
        while (done < max && !from.isEmpty() && !to.isFull()) {
            int len = from.tailBuffer().length();
            if (len <= max - done) {
                done += from.moveTailTo(to);
            } else {
                if (done == 0) {
                    from.splitTailTo(to, (int) max); // max < len <= PAGE_SIZE here
                    done = max;
                }
                break;
            }
        }
        return done;
    }

    /**
     * Whether the source's writers must be woken after a splice (or a transfer to a channel) emptied
     * {@code before - occupancy} of its slots: asked of the wake policy slot by slot, as a read asks it (lock
     * held).
     */
    static boolean wakeWritersAfterFreeing(PipeCore a, int before, boolean wasFull) {
        boolean wake = wasFull && a.wakePolicy.wakeIfFullAtStart();
        int after = a.ring.occupancy();
        if (after < before) {
            int need = a.wakePolicy.usesWriterNeed() ? a.wrWait.firstTag() : 0;
            for (int occ = before; occ > after; occ--) { // the occupancy before each slot was freed, as read passes it
                wake |= a.wakePolicy.wakeOnFree(occ, a.ring.maxUsage(), need);
            }
        }
        return wake;
    }

    /** Shares whole slots, from {@code from}'s tail on, into {@code to}; the first may be cut to {@code max}. */
    private static long share(PageRing from, PageRing to, long max) {
        long done = 0;
        int occ = from.occupancy();
        for (int i = 0; i < occ && !to.isFull() && done < max; i++) {
            int len = from.bufferAt(i).length();
            if (len > max - done) {
                if (done == 0) {
                    from.shareTo(to, i, (int) max);
                    done = max;
                }
                break;
            }
            from.shareTo(to, i, len);
            done += len;
        }
        return done;
    }

    /** Counts a splice as a read of the source and a write of the target; a tee as a write of the target. */
    private static void account(PipeCore a, PipeCore b, long done, boolean tee) {
        b.writeCalls++;
        b.bytesIn += done;
        if (!tee) {
            a.readCalls++;
            a.bytesOut += done;
        }
        if (b.timestamps) {
            b.mtime = b.ctime = System.currentTimeMillis();
        }
        if (!tee && a.timestamps) {
            a.atime = System.currentTimeMillis();
        }
    }

    // ---- gift (vmsplice with SPLICE_F_GIFT) ------------------------------------------------------------

    /**
     * Links the remaining bytes of {@code src} into {@code out}'s pipe without copying them, one slot per
     * page's worth, advancing {@code src}'s position as slots are linked. Blocking: returns when all are
     * linked. Nonblocking: links what fits; a gift of at most {@link Pipe#PIPE_BUF} bytes is one slot, so it
     * goes all or nothing. Arguments are checked by {@link Splice}.
     */
    static long gift(InProcessWriteEnd out, ByteBuffer src) throws IOException {
        out.ensureOpen();
        int start = src.position();
        int total = src.remaining();
        if (total == 0) {
            return 0;
        }
        final PipeCore b = out.core;
        final Page page = Page.gift(src);
        // Slot offsets index the page's array for a heap buffer (which may start inside it), else the buffer.
        final int base = src.hasArray() ? src.arrayOffset() : 0;
        final int flags = PipeBuffer.FLAG_GIFT | (out.packetMode ? PipeBuffer.FLAG_PACKET : 0);
        long deadline = 0;
        int done = 0;
        int storedBeforeSleep = 0;
        boolean wasEmpty = false;
        boolean woken = false; // the last wait ended with a wake-up meant for this thread
        boolean wakeNextWriter = false;
        IOException failure = null;
        b.lock();
        try {
            if (out.closed) {
                throw new AsynchronousCloseException();
            }
            wasEmpty = b.ring.isEmpty();
            while (done < total) {
                if (b.readers == 0) {
                    failure = PipeCore.broken(done);
                    break;
                }
                if (!b.ring.isFull()) {
                    int n = Math.min(PipeCore.PAGE, total - done);
                    page.retain();
                    // The giver's position moves first, so a reader that checks the gift sees it moved.
                    src.position(start + done + n);
                    page.giftedUpTo(start + done + n);
                    b.ring.link(page, base + start + done, n, flags);
                    done += n;
                    continue;
                }
                if (out.nonBlocking) {
                    break;
                }
                if (Thread.currentThread().isInterrupted()) {
                    failure = PipeCore.interrupted("gift to a full pipe", done);
                    break;
                }
                long timeout = out.timeoutNanos;
                if (timeout > 0) {
                    if (deadline == 0) {
                        deadline = PipeCore.deadlineAfter(timeout);
                    } else if (System.nanoTime() - deadline >= 0) {
                        failure = new PipeTimeoutException("gift timed out on a full pipe", done);
                        break;
                    }
                }
                boolean wakeReaders = done > storedBeforeSleep && b.readerWakePolicy.wakeReader(wasEmpty, b.pollUsed);
                b.unlock();
                try {
                    if (wakeReaders) {
                        b.wake(b.rdWait);
                    }
                    b.fireReadiness();
                    woken = b.wrWait.await(out.writableCheck, deadline, 0, b.spinNanos) == WaitQueue.Outcome.WOKEN;
                } finally {
                    b.lock();
                }
                if (out.closed) {
                    if (done == 0) {
                        failure = new AsynchronousCloseException();
                    }
                    break;
                }
                wasEmpty = b.ring.isEmpty();
                storedBeforeSleep = done;
            }
            // As a write does (wake_next_writer): a woken giver that leaves room passes the wake-up on.
            wakeNextWriter = woken && b.exclusive && !b.ring.isFull();
            b.writeCalls++;
            if (done > 0) {
                b.bytesIn += done;
                if (b.timestamps) {
                    b.mtime = b.ctime = System.currentTimeMillis();
                }
            }
        } finally {
            b.unlock();
        }
        if (done > 0 && b.readerWakePolicy.wakeReader(wasEmpty, b.pollUsed)) {
            b.wake(b.rdWait);
        }
        if (wakeNextWriter) {
            b.wakeNext(b.wrWait);
        }
        b.fireReadiness();
        if (failure != null) {
            throw failure;
        }
        return done;
    }
}
