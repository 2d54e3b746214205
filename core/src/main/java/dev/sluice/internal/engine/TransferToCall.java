package dev.sluice.internal.engine;

import dev.sluice.PipeEnd;
import dev.sluice.internal.Deadline;
import dev.sluice.internal.Failures;
import dev.sluice.internal.ring.Page;
import dev.sluice.internal.ring.PageRing;
import dev.sluice.internal.ring.PipeBuffer;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.GatheringByteChannel;
import java.nio.channels.SelectableChannel;
import java.nio.channels.WritableByteChannel;

/**
 * Pipe pages to a byte channel with no caller buffer in between ({@code Splice.transferTo}; the
 * {@code splice(pipe -> file)} analogue).
 *
 * <p>Channel I/O can block, and nothing may block under a pipe's lock (Linux calls {@code write_iter} with
 * the pipe's mutex held, which keeps every other reader out). Here the channel is written without the lock;
 * the pages stay in the ring meanwhile and the pipe is <em>held</em> for reading ({@link PipeCore#hold}):
 * other reads, splices, tees and transfers wait (or return 0 if nonblocking) until the transfer is done.
 * Afterwards exactly the bytes the channel took are consumed, so whatever it did not take is still first in
 * line. Writers go on appending meanwhile. The transfer holds its own reference to each page, so not even a
 * close of both ends, which drains the ring, can recycle memory the channel is still reading.
 *
 * <p>How many bytes the channel took is read off the buffers (what remains in them), not the call's result:
 * a JDK channel interrupted during a write completes the system call, advances the buffer and then throws,
 * and those bytes have moved all the same. A channel that throws having taken nothing leaves the pipe, its
 * counters and its pool as they were.
 */
final class TransferToCall extends Call {
    private final long max;
    private Page[] pages;
    private ByteBuffer[] views;
    private int n;

    private TransferToCall(long max) {
        this.max = max;
    }

    static long run(InProcessReadEnd in, WritableByteChannel channel, long max) throws IOException {
        in.ensureOpen();
        if (!channel.isOpen()) {
            throw new ClosedChannelException(); // refused before the pipe is touched
        }
        if (max == 0) {
            return 0;
        }
        TransferToCall c = new TransferToCall(max);
        PipeCore a = in.core();
        a.lock();
        if (in.isClosed()) {
            a.unlock();
            throw PipeCore.closedMeanwhile();
        }
        c.begin(in, null);
        long offered = Blocking.run(c); // waits for data and holds the pipe's first slots
        if (offered <= 0) {
            return offered;
        }
        return c.toChannel(channel, offered);
    }

    @Override
    String op() {
        return "transferTo";
    }

    /** Waits for data as a read does; then holds the first slots: whole ones only, as splice, up to max. */
    @Override
    int step() {
        PipeCore a = source;
        if (!a.hasData()) {
            return a.atEndOfStream() ? done(-1) : WAIT_DATA;
        }
        PageRing ring = a.ring();
        PipeBuffer first = ring.tailBuffer();
        if (first.isGift() && first.ref().giftReused()) {
            boolean fullAtStart = a.isFull();
            int before = a.occupancy();
            failure = a.dropBrokenGift();
            if (a.writersToWake(before, fullAtStart)) {
                wake(WAKE_SOURCE_WRITERS);
            }
            return DONE;
        }
        int occ = ring.occupancy();
        pages = new Page[occ];
        views = new ByteBuffer[occ];
        long total = 0;
        while (n < occ && total < max) {
            PipeBuffer buf = ring.bufferAt(n);
            if (n > 0 && (buf.length() > max - total || buf.isGift() && buf.ref().giftReused())) {
                break; // only a first slot larger than max is cut; a reused gift further on is the next call's
            }
            int len = (int) Math.min(buf.length(), max - total);
            Page page = buf.ref();
            page.retain(); // ours until the channel is done, whatever becomes of the slot
            pages[n] = page;
            views[n] = ChannelViews.of(page, buf.offset(), len);
            n++;
            total += len;
        }
        a.hold(true);
        return done(total);
    }

    /** Without the lock: offers the held bytes to the channel, then consumes exactly what it took. */
    private long toChannel(WritableByteChannel channel, long offered) throws IOException {
        IOException channelFailure = null;
        boolean completed = false;
        long written;
        try {
            writeAll(channel);
            completed = true;
        } catch (IOException e) {
            channelFailure = e;
        } finally {
            // Always, even on an unchecked refusal (a read-only file) or an Error: consume what the channel
            // took, let go of the pipe and the pages.
            written = consume(offered - ChannelViews.remaining(views, n), completed);
        }
        if (channelFailure != null) {
            throw Failures.partly(channelFailure, written, "the channel failed after taking " + written + " of "
                    + offered + " bytes; the other " + (offered - written) + " are still in the pipe, first in line");
        }
        return written;
    }

    /**
     * Writes the views to the channel until all are written, or until a nonblocking channel takes nothing
     * more (what it did not take stays in the pipe). A Sluice or kernel pipe end counts as nonblocking when its
     * handle is. A blocking channel that takes nothing is waited for, yielding, for as long as the read end's
     * timeout allows, and not past an interrupt or a close of the read end: the transfer holds the pipe's
     * other readers out meanwhile, so it must not hang.
     */
    private void writeAll(WritableByteChannel channel) throws IOException {
        Deadline deadline = null;
        int first = 0;
        while (first < n) {
            long w = channel instanceof GatheringByteChannel g ? g.write(views, first, n - first)
                    : channel.write(views[first]);
            while (first < n && !views[first].hasRemaining()) {
                first++;
            }
            if (w == 0 && first < n) {
                if (isNonBlocking(channel)) {
                    return;
                }
                if (deadline == null) {
                    deadline = new Deadline().reset(in.timeoutNanos());
                }
                checkStillWanted(deadline);
                Thread.yield(); // a blocking channel that took nothing: let it make room
            }
        }
    }

    private static boolean isNonBlocking(WritableByteChannel channel) {
        return channel instanceof SelectableChannel s && !s.isBlocking()
                || channel instanceof PipeEnd e && e.isNonBlocking();
    }

    /** Between two attempts on a channel that took nothing: the read end's interrupt, timeout and close. */
    private void checkStillWanted(Deadline deadline) throws IOException {
        if (Thread.currentThread().isInterrupted()) {
            throw Failures.interrupted("transferTo to a channel that takes nothing", 0);
        }
        if (in.isClosed()) {
            throw PipeCore.closedMeanwhile();
        }
        if (deadline.expired()) {
            throw Failures.timedOut("transferTo to a channel that takes nothing", 0);
        }
    }

    /**
     * Consumes from the ring's tail the {@code written} bytes the channel took, lets go of the hold and of the
     * transfer's page references, and wakes whoever can now go on: writers for freed slots, readers that came
     * while the pipe was held (no write woke them: the pipe was never empty; the first passes the baton on).
     *
     * @param completed whether the channel returned normally; one that threw having taken nothing was a
     *                  refused call, which is not counted
     * @return bytes the channel took
     */
    private long consume(long written, boolean completed) {
        PipeCore a = source;
        a.lock();
        try {
            boolean fullAtStart = a.isFull();
            int before = a.occupancy();
            a.consumeHeld(written);
            if (a.writersToWake(before, fullAtStart)) {
                wake(WAKE_SOURCE_WRITERS);
            }
            a.hold(false);
            if (completed || written > 0) {
                a.countRead(written);
            }
            a.releaseAll(pages, 0, n);
            if (a.hasData() || !a.hasWriters()) {
                wake(WAKE_SOURCE_READERS);
            }
        } finally {
            a.unlock();
        }
        flushWakes();
        fireReadiness();
        return written;
    }
}
