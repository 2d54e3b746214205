package dev.sluice;

import dev.sluice.ring.Page;
import dev.sluice.ring.PagePool;
import dev.sluice.ring.PageRing;
import dev.sluice.ring.PipeBuffer;
import dev.sluice.sync.WaitQueue;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.AsynchronousCloseException;
import java.nio.channels.GatheringByteChannel;
import java.nio.channels.ReadableByteChannel;
import java.nio.channels.ScatteringByteChannel;
import java.nio.channels.SelectableChannel;
import java.nio.channels.WritableByteChannel;

/**
 * The engine behind {@link Splice#transferTo} and {@link Splice#transferFrom}: pipe pages to and from a
 * byte channel with no caller buffer in between.
 *
 * <p>Channel I/O can block, and nothing may block under a pipe's lock; Linux calls {@code write_iter} and
 * {@code splice_read} with the pipe's mutex held, which keeps every other reader and writer out. Here the
 * channel is called without the lock, and two promises made under it stand in for the mutex, each keeping
 * out only the side that could lose or reorder bytes:
 * <ul>
 *   <li><b>pipe → channel</b>: the pages stay in the ring while the channel writes them, and the pipe is
 *       <em>held</em> for reading ({@code readHeld}): other reads, splices, tees and transfers of this pipe
 *       wait (or return 0 if nonblocking) until the transfer is done. Afterwards exactly the bytes the channel
 *       took are consumed, so whatever it did not take is still first in line. Writers go on appending
 *       meanwhile. The transfer holds its own reference to each page, so that not even a close of both ends,
 *       which drains the ring, can recycle memory the channel is still reading;</li>
 *   <li><b>channel → pipe</b>: room is <em>reserved</em> before the channel is read ({@link PageRing#reserve}),
 *       and at most that much is read, so the bytes never have to wait for room afterwards, and no wait
 *       (interrupt, timeout) can come between reading them and storing them.</li>
 * </ul>
 * How many bytes the channel took or gave is read off the buffers (what remains in them), not the call's
 * result: a JDK channel that is interrupted during a write or read completes the system call, advances the
 * buffer and then throws, and those bytes have moved all the same.
 */
final class ChannelTransfer {
    private ChannelTransfer() {
    }

    // ---- pipe → channel --------------------------------------------------------------------------------

    static long transferTo(InProcessReadEnd in, WritableByteChannel channel, long max) throws IOException {
        in.ensureOpen();
        if (max == 0) {
            return 0;
        }
        final PipeCore a = in.core;
        long deadline = 0;
        boolean woken = false; // the last wait ended with a wake-up meant for this thread
        boolean wakeWriter = false;
        boolean passData = false;
        IOException failure = null;
        boolean eof = false;
        Page[] pages = null;
        ByteBuffer[] views = null;
        int n = 0;
        long total = 0;
        a.lock();
        try {
            if (in.closed) {
                throw new AsynchronousCloseException();
            }
            for (;;) {
                if (!a.readHeld) {
                    if (!a.ring.isEmpty()) {
                        break;
                    }
                    if (a.writers == 0) {
                        eof = true;
                        break;
                    }
                }
                if (in.nonBlocking) {
                    break; // empty, or another transfer holds the pipe: EAGAIN
                }
                if (Thread.currentThread().isInterrupted()) {
                    failure = PipeCore.interrupted("transfer from an empty pipe", 0);
                    break;
                }
                if (in.timeoutNanos > 0) {
                    if (deadline == 0) {
                        deadline = PipeCore.deadlineAfter(in.timeoutNanos);
                    } else if (System.nanoTime() - deadline >= 0) {
                        failure = new PipeTimeoutException("transfer timed out on an empty pipe", 0);
                        break;
                    }
                }
                WaitQueue.Outcome outcome;
                a.unlock();
                try {
                    a.fireReadiness();
                    outcome = a.rdWait.await(in.readableCheck, deadline, 0, a.spinNanos);
                } finally {
                    a.lock();
                }
                // Before the closed check: a woken thread that gives up still passes on what it was woken for.
                woken = a.exclusive && outcome == WaitQueue.Outcome.WOKEN;
                if (in.closed) {
                    failure = new AsynchronousCloseException();
                    break;
                }
            }
            PageRing ring = a.ring;
            if (failure == null && !eof && !a.readHeld && !ring.isEmpty()) {
                PipeBuffer first = ring.tailBuffer();
                if (first.isGift() && first.ref().giftReused()) {
                    failure = Gifts.reused(first);
                    boolean wasFull = ring.isFull();
                    int before = ring.occupancy();
                    ring.discardRest(first);
                    ring.releaseTail();
                    wakeWriter = Splicer.wakeWritersAfterFreeing(a, before, wasFull);
                } else {
                    int occ = ring.occupancy();
                    pages = new Page[occ];
                    views = new ByteBuffer[occ];
                    while (n < occ && total < max) {
                        PipeBuffer buf = ring.bufferAt(n);
                        if (n > 0 && (buf.length() > max - total || buf.isGift() && buf.ref().giftReused())) {
                            // Whole slots only, as splice: only a first slot larger than max is cut. A reused
                            // gift further on is left for the next call to report.
                            break;
                        }
                        int len = (int) Math.min(buf.length(), max - total);
                        Page page = buf.ref();
                        page.retain(); // ours until the channel is done, whatever becomes of the slot
                        pages[n] = page;
                        views[n] = view(page, buf.offset(), len);
                        n++;
                        total += len;
                    }
                    a.readHeld = true;
                }
            }
            // Woken for data that this call leaves to others: pass the wake-up on. A transfer that holds the
            // pipe passes it when it lets go (consume), since until then nobody else can read.
            passData = woken && n == 0 && !ring.isEmpty() && !a.readHeld;
        } finally {
            a.unlock();
        }
        if (wakeWriter) {
            a.wake(a.wrWait);
        }
        if (passData) {
            a.wakeNext(a.rdWait);
        }
        a.fireReadiness();
        if (failure != null) {
            throw failure;
        }
        if (eof) {
            return -1;
        }
        if (n == 0) {
            return 0;
        }
        IOException channelFailure = null;
        long written;
        try {
            writeAll(channel, views, n);
        } catch (IOException e) {
            channelFailure = e;
        } finally {
            // Always, even on an Error: consume what the channel took, let go of the pipe and the pages.
            written = consume(a, pages, n, total - remaining(views, n));
        }
        if (channelFailure != null) {
            throw partly(channelFailure, written, "the channel failed after taking " + written + " of " + total
                    + " bytes; the other " + (total - written) + " are still in the pipe, first in line");
        }
        return written;
    }

    /**
     * A buffer whose remaining bytes are the {@code len} bytes of a page from {@code offset} (its position is
     * not necessarily 0: count what a channel moved by what remains).
     */
    private static ByteBuffer view(Page page, int offset, int len) {
        if (page.bytes() != null) {
            return ByteBuffer.wrap(page.bytes(), offset, len);
        }
        // Direct memory (a direct page or gift) goes to the channel as it is; a slice of its own, because
        // the page's buffer is shared by every thread reading the page and its position must not move.
        return page.direct().slice(offset, len);
    }

    /**
     * Writes the buffers to the channel until all are written, or until a nonblocking channel takes
     * nothing more (its buffer is full: what it did not take stays in the pipe).
     */
    private static void writeAll(WritableByteChannel channel, ByteBuffer[] bufs, int n) throws IOException {
        boolean nonBlocking = channel instanceof SelectableChannel s && !s.isBlocking();
        int first = 0;
        while (first < n) {
            long w = channel instanceof GatheringByteChannel g ? g.write(bufs, first, n - first)
                    : channel.write(bufs[first]);
            while (first < n && !bufs[first].hasRemaining()) {
                first++;
            }
            if (w == 0 && first < n) {
                if (nonBlocking) {
                    return;
                }
                Thread.yield(); // a blocking channel that took nothing: let it make room
            }
        }
    }

    /**
     * Under {@code a}'s lock: consumes from the ring's tail the {@code written} bytes the channel took, lets go of the read hold and of the transfer's page references, and wakes whoever can now
     * go on: writers for freed slots, the next reader if there is data (or end-of-stream) for it.
     *
     * @return bytes the channel took
     */
    private static long consume(PipeCore a, Page[] pages, int n, long written) {
        boolean wakeWriter;
        boolean wakeReader;
        a.lock();
        try {
            PageRing ring = a.ring;
            boolean wasFull = ring.isFull();
            int before = ring.occupancy();
            long left = written;
            // The held slots are still first in line: nobody else consumed. The ring can only be shorter if
            // every end was closed meanwhile, which drained it; then there is nothing left to consume.
            while (left > 0 && !ring.isEmpty()) {
                PipeBuffer buf = ring.tailBuffer();
                int k = (int) Math.min(buf.length(), left);
                ring.consumed(buf, k);
                left -= k;
                if (buf.length() == 0) {
                    ring.releaseTail();
                }
            }
            wakeWriter = Splicer.wakeWritersAfterFreeing(a, before, wasFull);
            a.readHeld = false;
            a.readCalls++;
            a.bytesOut += written;
            if (a.timestamps && written > 0) {
                a.atime = System.currentTimeMillis();
            }
            releaseAll(a, pages, 0, n);
            // Readers that came while the pipe was held are waiting for it whatever their wake rule says
            // (no write woke them: the pipe was never empty); the first of them passes the baton on.
            wakeReader = !ring.isEmpty() || a.writers == 0;
        } finally {
            a.unlock();
        }
        if (wakeWriter) {
            a.wake(a.wrWait);
        }
        if (wakeReader) {
            a.wake(a.rdWait);
        }
        a.fireReadiness();
        return written;
    }

    /** @return the bytes left in {@code bufs[0..n)} */
    private static long remaining(ByteBuffer[] bufs, int n) {
        long r = 0;
        for (int i = 0; i < n; i++) {
            r += bufs[i].remaining();
        }
        return r;
    }

    /**
     * The exception for a channel that failed after {@code moved} bytes: its own when nothing moved (the pipe
     * is as it was), else one that carries the count.
     */
    private static IOException partly(IOException e, long moved, String message) {
        if (moved == 0) {
            return e;
        }
        if (e instanceof InterruptedIOException) {
            InterruptedIOException ie = new InterruptedIOException(message);
            ie.initCause(e);
            ie.bytesTransferred = PipeCore.clamp(moved);
            return ie;
        }
        return new PartialTransferException(message, moved, e);
    }

    // ---- channel → pipe --------------------------------------------------------------------------------

    static long transferFrom(ReadableByteChannel channel, InProcessWriteEnd out, long max) throws IOException {
        out.ensureOpen();
        if (max == 0) {
            return 0;
        }
        final PipeCore b = out.core;
        // Phase 1: wait for room under the end's mode, then reserve the slots the channel may fill.
        Page[] pages = null;
        Room room;
        boolean passRoom;
        b.lock();
        try {
            room = awaitRoom(b, out);
            if (room.failure == null && !b.ring.isFull()) {
                int free = b.ring.maxUsage() - b.ring.occupancy();
                int n = (int) Math.min(free, (max + PipeCore.PAGE - 1) / PipeCore.PAGE);
                b.ring.reserve(n);
                pages = new Page[n];
                for (int i = 0; i < n; i++) {
                    pages[i] = b.ring.takePage();
                }
            }
            // As a write does (wake_next_writer): a woken writer that leaves room passes the wake-up on.
            passRoom = room.woken && b.exclusive && !b.ring.isFull();
        } finally {
            b.unlock();
        }
        if (passRoom) {
            b.wakeNext(b.wrWait);
        }
        if (room.failure != null) {
            throw room.failure;
        }
        if (pages == null) {
            return 0; // nonblocking and full: the channel is not touched
        }
        // Phase 2: one read of the channel into the pages, holding no lock.
        ByteBuffer[] into = new ByteBuffer[pages.length];
        int[] lens = new int[pages.length];
        long left = max;
        for (int i = 0; i < pages.length; i++) {
            lens[i] = (int) Math.min(PipeCore.PAGE, left);
            into[i] = view(pages[i], 0, lens[i]);
            left -= lens[i];
        }
        long result = 0;
        IOException channelFailure = null;
        Stored stored;
        try {
            result = channel instanceof ScatteringByteChannel s ? s.read(into) : channel.read(into[0]);
        } catch (IOException e) {
            channelFailure = e;
        } finally {
            // Phase 3, always: publish what the channel gave into the reserved room; it cannot be full.
            stored = publish(b, out, pages, into, lens);
        }
        if (channelFailure != null) {
            IOException e = partly(channelFailure, stored.bytes, "the channel failed after giving " + stored.bytes
                    + " bytes, which are in the pipe");
            if (stored.dropped != null) {
                e.addSuppressed(stored.dropped);
            }
            throw e;
        }
        if (stored.dropped != null) {
            throw stored.dropped;
        }
        return result < 0 && stored.bytes == 0 ? -1 : stored.bytes;
    }

    /** What {@link #publish} did: bytes stored, and why bytes read were dropped instead (else null). */
    private record Stored(long bytes, IOException dropped) {
    }

    /**
     * Under {@code b}'s lock: gives back the reservation and, in its place, links the pages the channel filled
     * ({@code lens[i] - into[i].remaining()} bytes each). Only two things can stop that, and both mean that no reader can ever
     * get the bytes: every read end closed, or this call's own end was closed and it was the last write end
     * (readers may already have seen end-of-stream, and nothing may follow it). Then the bytes are dropped.
     */
    private static Stored publish(PipeCore b, InProcessWriteEnd out, Page[] pages, ByteBuffer[] into, int[] lens) {
        final int flags = out.packetMode ? PipeBuffer.FLAG_PACKET : PipeBuffer.FLAG_CAN_MERGE;
        int[] filled = new int[pages.length];
        long got = 0;
        for (int i = 0; i < pages.length; i++) {
            filled[i] = lens[i] - into[i].remaining();
            got += filled[i];
        }
        long stored = 0;
        int linked = 0;
        boolean wasEmpty = false;
        boolean roomLeft;
        IOException dropped = null;
        b.lock();
        try {
            b.ring.unreserve(pages.length);
            if (got > 0) {
                if (b.readers == 0) {
                    dropped = new BrokenPipeException("broken pipe: every read end closed while the channel was"
                            + " read; the " + got + " bytes it gave were dropped", 0);
                } else if (b.writers == 0) {
                    dropped = new AsynchronousCloseException();
                    dropped.addSuppressed(new IOException("the write end was closed while the channel was read;"
                            + " it was the last, so the " + got + " bytes the channel gave were dropped"));
                } else {
                    wasEmpty = b.ring.isEmpty();
                    // A scattering read fills the buffers in order, so the filled pages come first.
                    for (int i = 0; i < pages.length && filled[i] > 0; i++) {
                        b.ring.push(pages[i], filled[i], flags); // the slot takes our reference
                        stored += filled[i];
                        linked++;
                    }
                }
                b.writeCalls++;
                b.bytesIn += stored;
                if (b.timestamps && stored > 0) {
                    b.mtime = b.ctime = System.currentTimeMillis();
                }
            }
            releaseAll(b, pages, linked, pages.length);
            roomLeft = !b.ring.isFull();
        } finally {
            b.unlock();
        }
        if (stored > 0 && b.readerWakePolicy.wakeReader(wasEmpty, b.pollUsed)) {
            b.wake(b.rdWait);
        }
        if (linked < pages.length && roomLeft) {
            b.wake(b.wrWait); // reserved room that went unused is free again: a writer may be waiting for it
        }
        b.fireReadiness();
        return new Stored(stored, dropped);
    }

    /** Why {@link #awaitRoom} returned, and whether its last wait ended with a wake-up meant for this thread. */
    private record Room(IOException failure, boolean woken) {
    }

    /**
     * With {@code b}'s lock held, waits (releasing it) until the ring has a free slot, as a write does; a
     * nonblocking end does not wait.
     */
    private static Room awaitRoom(PipeCore b, InProcessWriteEnd out) {
        long deadline = 0;
        boolean woken = false;
        for (;;) {
            if (out.closed) {
                return new Room(new AsynchronousCloseException(), woken);
            }
            if (b.readers == 0) {
                return new Room(PipeCore.broken(0), woken);
            }
            if (!b.ring.isFull() || out.nonBlocking) {
                return new Room(null, woken);
            }
            if (Thread.currentThread().isInterrupted()) {
                return new Room(PipeCore.interrupted("transfer to a full pipe", 0), woken);
            }
            if (out.timeoutNanos > 0) {
                if (deadline == 0) {
                    deadline = PipeCore.deadlineAfter(out.timeoutNanos);
                } else if (System.nanoTime() - deadline >= 0) {
                    return new Room(new PipeTimeoutException("transfer to a full pipe timed out", 0), woken);
                }
            }
            b.unlock();
            try {
                b.fireReadiness();
                woken = b.wrWait.await(out.writableCheck, deadline, 0, b.spinNanos) == WaitQueue.Outcome.WOKEN;
            } finally {
                b.lock();
            }
        }
    }

    /**
     * Drops this call's references to {@code pages[from..to)}, with {@code p}'s lock held: a page of {@code p}'s
     * pool goes straight back to it, unless the pipe is closed on both sides (its pool is gone).
     */
    private static void releaseAll(PipeCore p, Page[] pages, int from, int to) {
        PagePool mine = p.readers == 0 && p.writers == 0 ? null : p.pool;
        for (int i = from; i < to; i++) {
            pages[i].release(mine);
        }
    }
}
