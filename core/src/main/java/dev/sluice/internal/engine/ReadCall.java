package dev.sluice.internal.engine;

import java.io.IOException;

/**
 * A read that could not be one pass of {@link PipeCore#read}: it must wait for data, or copy a bulk claim
 * outside the lock, or report a broken gift. Linux's {@code pipe_read} after its fast path.
 *
 * <p>A read returns as soon as it has a byte: it only ever waits while it has read nothing, so its step takes
 * what there is and is done, or asks to wait. The one exception is a batching platform reader that found the
 * lock held and less than a batch queued: its first step asks to nap for the batch
 * ({@link PipeCore#napBeforeTaking}), and the next takes what is there however the nap ended. On platform
 * threads, a read of at least {@link SlotClaim#MIN_BYTES} that finds as much queued takes whole slots off the
 * ring and copies them after letting go of the lock ({@link SlotClaim}); it wakes a writer for the freed room
 * before it copies.
 */
final class ReadCall extends Call {
    private final SlotClaim claim = new SlotClaim();
    private boolean claimed;
    /** Before the call's first attempt: it may nap for a batch although data is there. */
    private boolean fresh;
    private Object dst;
    private int base;
    private int count;
    private long total;

    /** Continues a read from {@link PipeCore#read}, which holds the lock; returns with it released. */
    static long start(PipeCore core, InProcessReadEnd end, Object dst, int base, int count, long total)
            throws IOException {
        if (end.isClosed()) {
            core.unlock();
            throw PipeCore.closedMeanwhile(); // closed by another thread since ensureOpen: nothing was counted
        }
        ReadCall c = core.spareReads().take();
        if (c == null) {
            c = new ReadCall();
        }
        c.begin(end, null);
        c.dst = dst;
        c.base = base;
        c.count = count;
        c.total = total;
        c.fresh = true;
        return Blocking.run(c);
    }

    @Override
    String op() {
        return "read";
    }

    @Override
    int step() {
        PipeCore p = source;
        boolean first = fresh;
        fresh = false;
        if (!p.hasData()) {
            return p.atEndOfStream() ? done(-1) : WAIT_DATA;
        }
        if (first && p.napBeforeTaking(in)) {
            return WAIT_DATA;
        }
        // FULL_AT_START (Linux 5.5-6.13) samples "full" when the read starts and after every sleep.
        boolean fullAtStart = p.isFull();
        int before = p.occupancy();
        int slots = SlotClaim.claimable(p.ring(), total, p.writersWaiting());
        if (slots > 0) {
            // Whole slots, and maybe the start of one more, leave the ring now; they are all this read takes,
            // copied after the lock is let go. The writer is woken for the room first.
            claim.takeForRead(p.ring(), slots, total);
            claimed = true;
            done = claim.bytes();
        } else {
            long d = p.takeBytes(dst, base, count, 0, total);
            if (d == PipeCore.BROKEN_GIFT) {
                failure = p.dropBrokenGift(); // the bytes cannot be trusted: dropped, loudly
                d = 0;
            }
            done = d;
        }
        if (p.writersToWake(before, fullAtStart)) {
            wake(WAKE_SOURCE_WRITERS);
        }
        return failure != null ? DONE : done(done);
    }

    @Override
    void finish() {
        source.countRead(done);
    }

    @Override
    void afterUnlock() {
        if (claimed) {
            try {
                claim.copyTo(dst, base, count, 0);
            } finally {
                claim.recycleUnlocked(source.ring());
                claimed = false;
            }
        }
    }

    @Override
    void recycle() {
        PipeCore p = source;
        dst = null;
        in = null;
        source = null;
        p.spareReads().give(this);
    }
}
