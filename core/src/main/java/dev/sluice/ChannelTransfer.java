package dev.sluice;

import dev.sluice.ring.Page;
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
import java.nio.channels.WritableByteChannel;

/**
 * The engine behind {@link Splice#transferTo} and {@link Splice#transferFrom}: pipe pages to and from a
 * byte channel with no caller buffer in between.
 *
 * <p>Channel I/O can block, and nothing may block under a pipe's lock, so unlike Linux (which calls
 * {@code write_iter} with the pipe locked) the pages are taken out of the ring under the lock and handed to
 * the channel after it is released; their references are dropped afterwards without the lock, through
 * {@link Page#release} and the home pool's return stack. Coming the other way, spare pages are taken under
 * the lock, filled from the channel without it, and published under it again.
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
        boolean wakeWriter = false;
        boolean wakeNextReader = false;
        IOException failure = null;
        boolean eof = false;
        ByteBuffer[] out = null;
        Page[] held = null;
        int taken = 0;
        long done = 0;
        a.lock();
        try {
            if (in.closed) {
                throw new AsynchronousCloseException();
            }
            for (;;) {
                if (!a.ring.isEmpty()) {
                    break;
                }
                if (a.writers == 0) {
                    eof = true;
                    break;
                }
                if (in.nonBlocking) {
                    break;
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
                wakeNextReader = a.exclusive && outcome == WaitQueue.Outcome.WOKEN; // passed on even if closed
                if (in.closed) {
                    failure = new AsynchronousCloseException();
                    break;
                }
            }
            if (failure == null && !eof && !a.ring.isEmpty()) {
                PageRing ring = a.ring;
                boolean wasFull = ring.isFull();
                int before = ring.occupancy();
                int n = before;
                held = new Page[n];
                out = new ByteBuffer[n];
                while (taken < n && done < max) {
                    PipeBuffer buf = ring.tailBuffer();
                    if (buf.isGift() && buf.ref().giftReused()) {
                        if (taken == 0) {
                            failure = Gifts.reused(buf);
                            ring.discardRest(buf);
                            ring.releaseTail();
                        }
                        break;
                    }
                    if (taken > 0 && buf.length() > max - done) {
                        break; // whole slots only, as splice: only a first slot larger than max is cut
                    }
                    int len = (int) Math.min(buf.length(), max - done);
                    Page page = buf.ref();
                    out[taken] = view(page, buf.offset(), len);
                    if (len == buf.length()) {
                        held[taken] = page; // the slot's reference is ours now
                        ring.detachTail();
                    } else {
                        page.retain(); // a first slot bigger than max: share it, the rest stays queued
                        held[taken] = page;
                        ring.consumed(buf, len);
                    }
                    taken++;
                    done += len;
                }
                int after = ring.occupancy();
                wakeWriter = wasFull && a.wakePolicy.wakeIfFullAtStart();
                if (after < before) {
                    int need = a.wakePolicy.usesWriterNeed() ? a.wrWait.firstTag() : 0;
                    for (int occ = before; occ > after; occ--) {
                        wakeWriter |= a.wakePolicy.wakeOnFree(occ, ring.maxUsage(), need);
                    }
                }
                a.readCalls++;
                a.bytesOut += done;
                if (a.timestamps && done > 0) {
                    a.atime = System.currentTimeMillis();
                }
            }
            if (a.ring.isEmpty()) {
                wakeNextReader = false;
            }
        } finally {
            a.unlock();
        }
        if (wakeWriter) {
            a.wake(a.wrWait);
        }
        if (wakeNextReader) {
            a.wakeNext(a.rdWait);
        }
        a.fireReadiness();
        if (failure != null) {
            throw failure;
        }
        if (eof) {
            return -1;
        }
        if (taken == 0) {
            return 0;
        }
        try {
            writeFully(channel, out, taken, done);
        } finally {
            for (int i = 0; i < taken; i++) {
                held[i].release(null); // no lock held: a page of the pool goes back through its return stack
            }
        }
        return done;
    }

    /** A buffer over {@code len} bytes of a page from {@code offset}, position 0 relative to those bytes. */
    private static ByteBuffer view(Page page, int offset, int len) {
        if (page.bytes() != null) {
            return ByteBuffer.wrap(page.bytes(), offset, len);
        }
        return page.direct().slice(offset, len); // the giver's direct memory, handed to the channel as is
    }

    private static void writeFully(WritableByteChannel channel, ByteBuffer[] bufs, int n, long total)
            throws IOException {
        long written = 0;
        int first = 0;
        try {
            while (written < total) {
                long w;
                if (channel instanceof GatheringByteChannel g) {
                    w = g.write(bufs, first, n - first);
                } else {
                    w = channel.write(bufs[first]);
                }
                written += w;
                while (first < n && !bufs[first].hasRemaining()) {
                    first++;
                }
                if (w == 0) {
                    Thread.yield(); // a blocking channel that took nothing: let it make room
                }
            }
        } catch (IOException e) {
            IOException lost = new IOException("the channel failed after " + written + " of " + total
                    + " bytes taken from the pipe; the other " + (total - written) + " are lost", e);
            if (e instanceof InterruptedIOException) {
                InterruptedIOException ie = new InterruptedIOException(lost.getMessage());
                ie.initCause(e);
                ie.bytesTransferred = PipeCore.clamp(written);
                throw ie;
            }
            throw lost;
        }
    }

    // ---- channel → pipe --------------------------------------------------------------------------------

    static long transferFrom(ReadableByteChannel channel, InProcessWriteEnd out, long max) throws IOException {
        out.ensureOpen();
        if (max == 0) {
            return 0;
        }
        final PipeCore b = out.core;
        // Phase 1: wait for room, under the end's mode, then take spare pages for what fits.
        Page[] pages;
        b.lock();
        try {
            IOException failure = awaitRoom(b, out, out.nonBlocking, 0, "transfer to a full pipe");
            if (failure != null) {
                throw failure;
            }
            if (b.ring.isFull()) {
                return 0; // nonblocking and full: the channel is not touched
            }
            long room = (long) (b.ring.maxUsage() - b.ring.occupancy()) * PipeCore.PAGE;
            int n = (int) ((Math.min(room, max) + PipeCore.PAGE - 1) / PipeCore.PAGE);
            pages = new Page[n];
            for (int i = 0; i < n; i++) {
                pages[i] = b.ring.takePage();
            }
        } finally {
            b.unlock();
        }
        // Phase 2: one read of the channel into the pages, holding no lock.
        ByteBuffer[] into = new ByteBuffer[pages.length];
        long left = max;
        for (int i = 0; i < pages.length; i++) {
            int len = (int) Math.min(PipeCore.PAGE, left);
            into[i] = ByteBuffer.wrap(pages[i].bytes(), 0, len);
            left -= len;
        }
        long got;
        try {
            got = channel instanceof ScatteringByteChannel s ? s.read(into) : channel.read(into[0]);
        } catch (IOException | RuntimeException e) {
            releaseAll(pages, 0);
            throw e;
        }
        if (got <= 0) {
            releaseAll(pages, 0);
            return got < 0 ? -1 : 0;
        }
        // Phase 3: publish the filled pages, waiting for room if other writers took it meanwhile.
        final int flags = out.packetMode ? PipeBuffer.FLAG_PACKET : PipeBuffer.FLAG_CAN_MERGE;
        long stored = 0;
        int next = 0;
        boolean wasEmpty = false;
        IOException failure = null;
        b.lock();
        try {
            wasEmpty = b.ring.isEmpty();
            while (stored < got) {
                failure = awaitRoom(b, out, false, stored, "transfer to a full pipe");
                if (failure != null) {
                    break;
                }
                int len = into[next].position();
                b.ring.push(pages[next], len, flags);
                next++;
                stored += len;
            }
            b.writeCalls++;
            b.bytesIn += stored;
            if (b.timestamps && stored > 0) {
                b.mtime = b.ctime = System.currentTimeMillis();
            }
        } finally {
            b.unlock();
        }
        releaseAll(pages, next);
        if (stored > 0 && b.readerWakePolicy.wakeReader(wasEmpty, b.pollUsed)) {
            b.wake(b.rdWait);
        }
        b.fireReadiness();
        if (failure != null) {
            // Bytes already read from the channel that did not make it into the pipe are gone: say so.
            String lost = (got - stored) + " bytes read from the channel could not be stored and are lost";
            if (failure instanceof BrokenPipeException) {
                throw new BrokenPipeException("broken pipe: every read end closed; " + lost, stored);
            }
            if (failure instanceof PipeTimeoutException) {
                throw new PipeTimeoutException("transfer timed out on a full pipe; " + lost, PipeCore.clamp(stored));
            }
            if (failure instanceof InterruptedIOException) {
                InterruptedIOException e = new InterruptedIOException("interrupted on a full pipe; " + lost
                        + " (the thread's interrupt status is still set)");
                e.bytesTransferred = PipeCore.clamp(stored);
                throw e;
            }
            failure.addSuppressed(new IOException(lost));
            throw failure;
        }
        return stored;
    }

    /**
     * With {@code b}'s lock held, waits (releasing it) until the ring has a free slot, as a write does.
     *
     * @return null when there is room, or when nonblocking and full; else why it gave up
     */
    private static IOException awaitRoom(PipeCore b, InProcessWriteEnd out, boolean nonBlocking, long done,
            String what) {
        long deadline = 0;
        for (;;) {
            if (out.closed) {
                return new AsynchronousCloseException();
            }
            if (b.readers == 0) {
                return PipeCore.broken(done);
            }
            if (!b.ring.isFull() || nonBlocking) {
                return null;
            }
            if (Thread.currentThread().isInterrupted()) {
                return PipeCore.interrupted(what, done);
            }
            if (out.timeoutNanos > 0) {
                if (deadline == 0) {
                    deadline = PipeCore.deadlineAfter(out.timeoutNanos);
                } else if (System.nanoTime() - deadline >= 0) {
                    return new PipeTimeoutException(what + " timed out", PipeCore.clamp(done));
                }
            }
            b.unlock();
            try {
                b.fireReadiness();
                b.wrWait.await(out.writableCheck, deadline, 0, b.spinNanos);
            } finally {
                b.lock();
            }
        }
    }

    private static void releaseAll(Page[] pages, int from) {
        for (int i = from; i < pages.length; i++) {
            pages[i].release(null); // unused: back to the pool through its return stack
        }
    }
}
