package dev.sluice.internal.engine;

import dev.sluice.internal.Failures;
import java.io.IOException;

/**
 * splice and tee between two in-process pipes: the analogue of {@code splice_pipe_to_pipe} and
 * {@code link_pipe} in fs/splice.c. One step moves ({@code splice}) or shares ({@code tee}) whole slots from
 * the source's tail to the target's head, with both pipes' locks held; it waits for data in the source
 * under the read end's mode and timeout, for room in the target under the write end's, and returns as soon
 * as it moved anything, as a read does. Wake-ups follow the same rules as reads and writes: the target's
 * readers as after a write, the source's writers slot by freed slot as after a read.
 */
final class SpliceCall extends Call {
    private long max;
    private boolean tee;

    /**
     * Moves ({@code tee == false}) or shares up to {@code max} bytes of whole slots from {@code in}'s pipe to
     * {@code out}'s. Arguments are checked by {@code dev.sluice.Splice}.
     *
     * @return bytes moved or shared; -1 if the source is at end-of-stream; 0 if nothing could be done without
     *         waiting and the end that would have to wait is nonblocking
     */
    static long run(InProcessReadEnd in, InProcessWriteEnd out, long max, boolean tee) throws IOException {
        in.ensureOpen();
        out.ensureOpen();
        if (max == 0) {
            return 0;
        }
        PipeCore a = in.core();
        PipeCore b = out.core();
        lockBoth(a, b);
        if (in.isClosed() || out.isClosed()) {
            b.unlock();
            a.unlock();
            throw PipeCore.closedMeanwhile(); // closed by another thread since ensureOpen
        }
        SpliceCall c = a.spareSplices().take();
        if (c == null) {
            c = new SpliceCall();
        }
        c.begin(in, out);
        c.max = max;
        c.tee = tee;
        return Blocking.run(c);
    }

    @Override
    String op() {
        return tee ? "tee" : "splice";
    }

    @Override
    int step() {
        PipeCore a = source;
        PipeCore b = target;
        // Linux checks the target's readers first: splicing an ended pipe into a broken one is EPIPE.
        if (!b.hasReaders()) {
            return fail(Failures.broken(0));
        }
        if (!a.hasData()) {
            // Held: a transfer is writing the source's first pages to a channel, and what it does not write
            // stays first in line, so the source is not readable (nor at its end) until it is done.
            return a.atEndOfStream() ? done(-1) : WAIT_DATA;
        }
        if (b.isFull()) {
            return WAIT_ROOM;
        }
        boolean sourceWasFull = a.isFull();
        int before = a.occupancy();
        done = tee ? a.shareSlotsTo(b, max) : a.moveSlotsTo(b, max);
        if (!tee && a.writersToWake(before, sourceWasFull)) {
            wake(WAKE_SOURCE_WRITERS);
        }
        return done(done);
    }

    /** A splice counts as a read of the source and a write of the target, a tee as a write of the target. */
    @Override
    void finish() {
        if (done > 0) {
            target.countWrite(done);
            if (!tee) {
                source.countRead(done);
            }
            wakeReadersForStored();
        }
    }

    @Override
    void recycle() {
        PipeCore a = source;
        in = null;
        out = null;
        source = null;
        target = null;
        a.spareSplices().give(this);
    }
}
