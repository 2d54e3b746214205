package dev.sluice.internal.engine;

import dev.sluice.BrokenPipeException;
import dev.sluice.internal.Failures;
import dev.sluice.internal.ring.Page;
import dev.sluice.internal.ring.PipeBuffer;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.AsynchronousCloseException;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.ReadableByteChannel;
import java.nio.channels.ScatteringByteChannel;

/**
 * A byte channel read straight into pages of the pipe, with no caller buffer in between
 * ({@code Splice.transferFrom}; the {@code splice(file -> pipe)} analogue). One read of the channel, like one
 * {@code read()}.
 *
 * <p>It waits for room as a write does, then <em>reserves</em> the free slots the channel may fill, at most
 * {@code maxBytes} worth ({@code PageRing#reserve}), reads the channel into spare pages without the lock, and
 * publishes what it read in the reserved room, giving the rest back. So the bytes never wait for room after
 * they are read, and no interrupt, timeout or other writer can come between reading and storing them. Two
 * things cannot be helped, because no reader could ever get the bytes: every read end closes while the
 * channel is read, or this call's own end closes meanwhile and it was the last write end (readers may have
 * seen end-of-stream). Then the bytes are dropped and the exception says how many.
 *
 * <p>A channel that throws having given nothing was a refused call: the pipe, its counters and its pool are
 * left as they were (pages taken from the pool go back, pages allocated for it are dropped uncounted).
 */
final class TransferFromCall extends Call {
    private final long max;
    private Page[] pages;
    private int fromPool;
    private int allocated;
    private int grown;

    private TransferFromCall(long max) {
        this.max = max;
    }

    static long run(ReadableByteChannel channel, InProcessWriteEnd out, long max) throws IOException {
        out.ensureOpen();
        if (!channel.isOpen()) {
            throw new ClosedChannelException(); // refused before the pipe is touched
        }
        if (max == 0) {
            return 0;
        }
        TransferFromCall c = new TransferFromCall(max);
        PipeCore b = out.core();
        b.lock();
        if (out.isClosed()) {
            b.unlock();
            throw PipeCore.closedMeanwhile();
        }
        c.begin(null, out);
        if (Blocking.run(c) == 0) {
            return 0; // nonblocking and full: the channel is not touched
        }
        return c.fromChannel(channel);
    }

    @Override
    String op() {
        return "transferFrom";
    }

    /** Waits for a free slot as a write does, then reserves the slots the channel may fill. */
    @Override
    int step() {
        PipeCore b = target;
        if (!b.hasReaders()) {
            return fail(Failures.broken(0));
        }
        if (b.isFull()) {
            return WAIT_ROOM;
        }
        // Pages for max bytes, rounded up, without overflowing near Long.MAX_VALUE.
        long wanted = max / PipeCore.PAGE + (max % PipeCore.PAGE == 0 ? 0 : 1);
        int n = (int) Math.min(b.freeSlots(), wanted);
        b.ring().reserve(n);
        long hits = b.pool().hits();
        long allocations = b.pool().allocations();
        long growth = b.pool().grown();
        pages = new Page[n];
        for (int i = 0; i < n; i++) {
            pages[i] = b.ring().takePage();
        }
        fromPool = (int) (b.pool().hits() - hits);
        allocated = (int) (b.pool().allocations() - allocations);
        grown = (int) (b.pool().grown() - growth);
        return done(n);
    }

    /** Without the lock: one read of the channel into the reserved pages, then their publication. */
    private long fromChannel(ReadableByteChannel channel) throws IOException {
        ByteBuffer[] into = new ByteBuffer[pages.length];
        int[] lens = new int[pages.length];
        long left = max;
        for (int i = 0; i < pages.length; i++) {
            lens[i] = (int) Math.min(PipeCore.PAGE, left);
            into[i] = ChannelViews.of(pages[i], 0, lens[i]);
            left -= lens[i];
        }
        long result = 0;
        IOException channelFailure = null;
        boolean completed = false;
        IOException dropped;
        try {
            result = channel instanceof ScatteringByteChannel s ? s.read(into) : channel.read(into[0]);
            completed = true;
        } catch (IOException e) {
            channelFailure = e;
        } finally {
            // Always, even on an unchecked refusal (a write-only file): publish what the channel gave into the
            // reserved room; it cannot be full.
            dropped = publish(into, lens, completed);
        }
        if (channelFailure != null) {
            IOException e = Failures.partly(channelFailure, done, "the channel failed after giving " + done
                    + " bytes, which are in the pipe");
            if (dropped != null) {
                e.addSuppressed(dropped);
            }
            throw e;
        }
        if (dropped != null) {
            throw dropped;
        }
        return result < 0 && done == 0 ? -1 : done;
    }

    /**
     * With the lock: gives back the reservation and, in its place, links the pages the channel filled.
     *
     * @param completed whether the channel's read returned normally
     * @return why bytes that were read were dropped, or null
     */
    private IOException publish(ByteBuffer[] into, int[] lens, boolean completed) {
        PipeCore b = target;
        int flags = out.isPacketMode() ? PipeBuffer.FLAG_PACKET : PipeBuffer.FLAG_CAN_MERGE;
        long got = 0;
        for (int i = 0; i < pages.length; i++) {
            got += lens[i] - into[i].remaining();
        }
        IOException dropped = null;
        int linked = 0;
        b.lock();
        try {
            b.ring().unreserve(pages.length);
            beginStretch();
            if (got > 0) {
                dropped = whyUnreadable(b, got);
                // A scattering read fills the buffers in order, so the filled pages come first.
                for (int i = 0; dropped == null && i < pages.length && lens[i] > into[i].remaining(); i++) {
                    b.ring().push(pages[i], lens[i] - into[i].remaining(), flags); // the slot takes our reference
                    done += lens[i] - into[i].remaining();
                    linked++;
                }
                b.countWrite(done);
                wakeReadersForStored();
            }
            if (got == 0 && !completed) {
                b.pool().untake(pages, fromPool, allocated); // a refused call leaves the pool as it was
                b.pool().ungrow(grown);
            } else {
                b.releaseAll(pages, linked, pages.length);
            }
            if (linked < pages.length && !b.isFull()) {
                wake(WAKE_TARGET_WRITERS); // reserved room that went unused is free again
            }
        } finally {
            b.unlock();
        }
        flushWakes();
        fireReadiness();
        return dropped;
    }

    /** Why bytes a channel gave cannot be stored: no reader can ever get them. */
    private IOException whyUnreadable(PipeCore b, long got) {
        if (!b.hasReaders()) {
            return new BrokenPipeException("broken pipe: every read end closed while the channel was read; the "
                    + got + " bytes it gave were dropped", 0);
        }
        if (!b.hasWriters()) {
            IOException e = new AsynchronousCloseException();
            e.addSuppressed(new IOException("the write end was closed while the channel was read; it was the"
                    + " last, so the " + got + " bytes the channel gave were dropped"));
            return e;
        }
        return null;
    }
}
