package dev.sluice.internal.engine;

import dev.sluice.internal.Failures;
import dev.sluice.internal.ring.Page;
import dev.sluice.internal.ring.PipeBuffer;
import java.io.IOException;
import java.nio.ByteBuffer;

/**
 * A gift ({@code vmsplice} with {@code SPLICE_F_GIFT}): the remaining bytes of a caller's buffer linked into
 * the pipe without copying, one slot per page's worth, the buffer's position advanced as slots are linked.
 * It waits for room as a write does and wakes readers as a write does; a gift of at most {@code PIPE_BUF}
 * bytes is one slot, so a nonblocking one goes all or nothing. The analogue of {@code vmsplice_to_pipe}.
 */
final class GiftCall extends Call {
    private final Page page;
    private final ByteBuffer src;
    private final int start;
    private final int total;
    /** Slot offsets index the page's array for a heap buffer (which may start inside it), else the buffer. */
    private final int base;
    private final int flags;

    private GiftCall(InProcessWriteEnd out, ByteBuffer src) {
        this.src = src;
        this.page = Page.gift(src);
        this.start = src.position();
        this.total = src.remaining();
        this.base = src.hasArray() ? src.arrayOffset() : 0;
        this.flags = PipeBuffer.FLAG_GIFT | (out.isPacketMode() ? PipeBuffer.FLAG_PACKET : 0);
    }

    /** Gives {@code src}'s remaining bytes to {@code out}'s pipe. Arguments are checked by {@code Splice}. */
    static long run(InProcessWriteEnd out, ByteBuffer src) throws IOException {
        out.ensureOpen();
        if (!src.hasRemaining()) {
            return 0;
        }
        GiftCall c = new GiftCall(out, src);
        PipeCore b = out.core();
        b.lock();
        if (out.isClosed()) {
            b.unlock();
            throw PipeCore.closedMeanwhile();
        }
        c.begin(null, out);
        return Blocking.run(c);
    }

    @Override
    String op() {
        return "gift";
    }

    @Override
    long bytesLeft() {
        return total - done;
    }

    @Override
    int step() {
        PipeCore b = target;
        while (done < total) {
            if (!b.hasReaders()) {
                return fail(Failures.broken(done));
            }
            if (b.isFull()) {
                return WAIT_ROOM;
            }
            int at = start + (int) done;
            int n = Math.min(PipeCore.PAGE, total - (int) done);
            page.retain();
            // The giver's position moves first, so a reader that checks the gift sees it moved.
            src.position(at + n);
            page.giftedUpTo(at + n);
            b.link(page, base + at, n, flags);
            done += n;
        }
        return done(done);
    }

    @Override
    void finish() {
        target.countWrite(done);
        wakeReadersForStored();
    }
}
