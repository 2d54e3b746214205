package dev.sluice.internal.engine;

import dev.sluice.internal.Failures;
import dev.sluice.internal.ring.PipeBuffer;
import java.io.IOException;

/**
 * A write that could not be one pass of {@link PipeCore#write}: it must wait for room, or it is a bulk write
 * that copies outside the lock, or the pipe is broken. Linux's {@code pipe_write} after its fast path.
 *
 * <p>Blocking, it stores every byte before it returns; nonblocking, what fits (a write of at most
 * {@code PIPE_BUF} bytes all or nothing, which one merge or one page always is). On platform threads, a write
 * with {@link SlotClaim#MIN_BYTES} or more to go and as many free slots reserves them, copies into fresh
 * pages without the lock, and publishes them in order at once ({@link SlotClaim}); readers asleep on what it
 * stored before are woken first.
 */
final class WriteCall extends Call {
    private final SlotClaim claim = new SlotClaim();
    private Object src;
    private int base;
    private int count;
    private long total;
    /** Whether the merge on entry was tried (by the fast path, or by the first step). */
    private boolean started;

    /**
     * Continues a write from {@link PipeCore#write}, which holds the lock. {@code started}: it tried the
     * merge and stored {@code done} bytes, having found the ring empty or not ({@code wasEmpty}); else
     * nothing was tried yet. Returns with the lock released.
     */
    static long start(PipeCore core, InProcessWriteEnd end, Object src, int base, int count, long total,
                      boolean started, long done, boolean wasEmpty) throws IOException {
        if (!started && (end.isClosed() || !core.hasReaders())) {
            core.unlock();
            // The close came first: nothing may be stored (were it the last writer, readers may have seen
            // end-of-stream). No readers: EPIPE before anything is stored. Neither is counted as a write.
            if (end.isClosed()) {
                throw PipeCore.closedMeanwhile();
            }
            core.recordBrokenPipe("write");
            throw Failures.broken(0);
        }
        WriteCall c = core.spareWrites().take();
        if (c == null) {
            c = new WriteCall();
        }
        c.begin(null, end);
        c.src = src;
        c.base = base;
        c.count = count;
        c.total = total;
        c.started = started;
        c.done = done;
        if (wasEmpty) {
            c.foundTargetEmpty();
        }
        return Blocking.run(c);
    }

    @Override
    String op() {
        return "write";
    }

    @Override
    long bytesLeft() {
        return total - done;
    }

    @Override
    int step() {
        PipeCore p = target;
        if (!started) {
            started = true;
            done = p.mergeRemainder(src, base, count, total);
        }
        while (done < total) {
            if (!p.hasReaders()) {
                return fail(Failures.broken(done));
            }
            int slots = SlotClaim.writable(p.freeSlots(), total - done, p.readersWaiting());
            if (slots > 0) {
                if (!copyClaimed(slots)) {
                    return DONE;
                }
                continue;
            }
            long d = p.storePages(out, src, base, count, done, total);
            if (d == done) {
                return WAIT_ROOM;
            }
            done = d;
        }
        return done(done);
    }

    /**
     * With the lock held, and held again on return: reserves {@code slots} slots for the next bytes, copies
     * them into fresh pages without the lock and publishes them, unless every read end closed meanwhile, or
     * this end did and it was the last write end (readers may have seen end-of-stream): then the pages are
     * dropped, as nobody can ever read them.
     *
     * @return whether the write goes on; false when it ended ({@link #result} or {@link #failure} set)
     */
    private boolean copyClaimed(int slots) {
        PipeCore p = target;
        wakeReadersForStored(); // readers asleep on what this write stored so far work while it copies
        claim.reserveForWrite(p.ring(), slots, total - done);
        boolean copied = false;
        unlockAll();
        try {
            flushWakes();
            claim.copyFrom(src, base, count, done);
            copied = true;
        } finally {
            lockAll();
        }
        boolean wasEmpty = p.isEmpty();
        int flags = out.isPacketMode() ? PipeBuffer.FLAG_PACKET : PipeBuffer.FLAG_CAN_MERGE;
        long stored = claim.publish(p.ring(), copied && p.hasReaders() && !(out.isClosed() && !p.hasWriters()),
                flags);
        if (stored > 0) {
            done += stored;
            if (wasEmpty) {
                foundTargetEmpty();
            }
        }
        if (!p.hasReaders()) {
            fail(Failures.broken(done));
            return false;
        }
        if (out.isClosed()) {
            closedMeanwhile(); // if it was the last write end, what it copied was dropped above
            return false;
        }
        return true;
    }

    @Override
    void finish() {
        target.countWrite(done);
        wakeReadersForStored();
    }

    @Override
    void recycle() {
        PipeCore p = target;
        src = null;
        out = null;
        target = null;
        p.spareWrites().give(this);
    }
}
