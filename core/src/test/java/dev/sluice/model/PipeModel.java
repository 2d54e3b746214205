package dev.sluice.model;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Set;

/**
 * A reference model of one Linux pipe, written from the kernel's rules (shared/design/linux-pipe.md §1.5,
 * §1.6, §3.2, §4) and not from Sluice's code, for single-threaded use: nothing ever frees room or brings
 * data while a call waits, so a call that would block waits until its handle's timeout instead (Linux: until
 * a signal arrives) and then reports what it moved.
 *
 * <p>State: a ring of at most {@code slots} page slots, each {@code {page, offset, len, PACKET | CAN_MERGE}};
 * open handles per side, each referring to an open file description; per description O_NONBLOCK and
 * (write side) O_DIRECT, which every handle of it sees ({@code dup} shares a description, {@code reopen} makes
 * a new one with a copy of the mode, as open(2) of {@code /proc/self/fd/N} does).
 *
 * <p>Where Sluice deliberately follows a rule of its own, the model says so at that spot; every other
 * behaviour is Linux's.
 */
final class PipeModel {
    static final int PAGE = 4096;
    static final int PIPE_BUF = 4096;
    /** Sluice's largest pipe (PipeOptions.ABSOLUTE_MAX_CAPACITY); Linux's round_pipe_size limit is 2^31. */
    static final int ABSOLUTE_MAX = 1 << 30;

    // Linux's poll bits, as Readiness.linuxPollMask() reports them.
    static final int POLLIN = 0x001 | 0x040;  // POLLIN | POLLRDNORM, as pipe_poll sets them together
    static final int POLLOUT = 0x004 | 0x100; // POLLOUT | POLLWRNORM
    static final int POLLERR = 0x008;
    static final int POLLHUP = 0x010;
    static final int POLLNVAL = 0x020;

    /** One ring slot, {@code struct pipe_buffer}; tee and a cut splice make two slots share one page. */
    static final class Slot {
        final byte[] page;
        int offset;
        int len;
        boolean packet;
        boolean canMerge;

        Slot() {
            this.page = new byte[PAGE];
        }

        /** A slot over {@code len} bytes of another slot's page from {@code offset}. */
        Slot(byte[] page, int offset, int len, boolean packet, boolean canMerge) {
            this.page = page;
            this.offset = offset;
            this.len = len;
            this.packet = packet;
            this.canMerge = canMerge;
        }

        @Override
        public String toString() {
            return "[" + offset + "+" + len + (packet ? " PACKET" : "") + (canMerge ? " CAN_MERGE" : "") + "]";
        }
    }

    /** One open file description ({@code struct file}): the flags of {@code f_flags} a pipe looks at. */
    static final class Description {
        /** For traces: which handles share a description. */
        final int id;
        boolean nonBlocking;
        /** O_DIRECT: meaningful for write handles only. */
        boolean packet;

        Description(int id, boolean nonBlocking, boolean packet) {
            this.id = id;
            this.nonBlocking = nonBlocking;
            this.packet = packet;
        }
    }

    /** One handle (file descriptor): open or closed, and the description it refers to. */
    static final class Handle {
        final boolean reader;
        final Description description;
        boolean open = true;

        Handle(boolean reader, Description description) {
            this.reader = reader;
            this.description = description;
        }

        boolean nonBlocking() {
            return description.nonBlocking;
        }

        boolean packet() {
            return description.packet;
        }

        @Override
        public String toString() {
            return (reader ? "R" : "W") + (open ? "" : " closed") + " d" + description.id
                    + (nonBlocking() ? " nonblocking" : "") + (packet() ? " O_DIRECT" : "");
        }
    }

    /** What a call did: returned a value (and, for a read, bytes), or threw one of some exception types. */
    sealed interface Outcome {
        /** @param data the bytes a read returned, else null */
        record Returned(long value, byte[] data) implements Outcome {
            @Override
            public boolean equals(Object o) {
                return o instanceof Returned r && r.value == value && Arrays.equals(r.data, data);
            }

            @Override
            public int hashCode() {
                return Long.hashCode(value) * 31 + Arrays.hashCode(data);
            }

            @Override
            public String toString() {
                return "returned " + value + (data == null ? "" : " (" + data.length + " bytes)");
            }
        }

        /**
         * @param types            acceptable exception types (several when several errors apply at once and
         *                         neither Linux nor the API documents which one wins)
         * @param bytesTransferred for BrokenPipeException and InterruptedIOException: bytes the call moved
         */
        record Threw(Set<String> types, long bytesTransferred) implements Outcome {
            static Threw of(Class<?> type, long bytesTransferred) {
                return new Threw(Set.of(type.getSimpleName()), bytesTransferred);
            }

            static Threw of(Class<?> type) {
                return of(type, 0);
            }

            @Override
            public String toString() {
                return "threw " + String.join(" or ", types) + (bytesTransferred != 0 ? " after " + bytesTransferred
                        + " bytes" : "");
            }
        }

        static Returned value(long v) {
            return new Returned(v, null);
        }
    }

    // Exceptions named by their simple names: the model does not need the library's classes.
    static final String CLOSED = "ClosedChannelException";
    static final String BROKEN = "BrokenPipeException";
    static final String TIMEOUT = "PipeTimeoutException";
    static final String ILLEGAL_ARGUMENT = "IllegalArgumentException";
    static final String ILLEGAL_STATE = "IllegalStateException";
    static final String IO = "IOException";
    static final String PARTIAL = "PartialTransferException";

    /**
     * Whether a packet-mode write may merge its sub-page remainder into a preceding normal write's page.
     * Linux's anon_pipe_write does (its merge step tests only the last buffer's CAN_MERGE, never the
     * writer's O_DIRECT), and so does Sluice. The switch stays so the model can describe the other choice.
     */
    final boolean packetWritesMerge;
    /** Which interesting cases a run went through, for the generator's coverage statistics. */
    final java.util.Set<String> events;
    final int maxCapacity;
    int slots;
    final ArrayDeque<Slot> ring = new ArrayDeque<>();
    final List<Handle> readHandles = new ArrayList<>();
    final List<Handle> writeHandles = new ArrayList<>();
    int readers = 1;
    int writers = 1;
    /** Descriptions made so far, for their ids in traces. */
    int descriptions;

    // Sluice's counters (PipeCounters), kept by their documented meaning.
    long bytesWritten;
    long bytesRead;
    long writeCalls;
    long readCalls;
    int peakSlots;
    /** Calls that had to wait (and, alone in the model, waited until their timeout), per side. */
    long readerWaits;
    long writerWaits;
    /** What the channel of the last {@link #transferTo} took. */
    byte[] lastTransferred = new byte[0];

    /** A pipe as opened with these options; the cases it goes through are added to {@code events}. */
    PipeModel(int capacity, int maxCapacity, boolean packetMode, boolean nonBlockingRead, boolean nonBlockingWrite,
              boolean packetWritesMerge, java.util.Set<String> events) {
        this.events = events;
        this.maxCapacity = roundPipeSize(maxCapacity);
        this.slots = roundPipeSize(capacity) / PAGE;
        this.packetWritesMerge = packetWritesMerge;
        // pipe2 makes one description per side; O_DIRECT goes to the write side only.
        readHandles.add(new Handle(true, new Description(++descriptions, nonBlockingRead, false)));
        writeHandles.add(new Handle(false, new Description(++descriptions, nonBlockingWrite, packetMode)));
    }

    /** Linux round_pipe_size: below a page one page, else the next power of two. */
    static int roundPipeSize(long bytes) {
        if (bytes < 0 || bytes > ABSOLUTE_MAX) {
            throw new IllegalArgumentException("not a pipe size: " + bytes);
        }
        if (bytes <= PAGE) {
            return PAGE;
        }
        return (int) Long.highestOneBit(bytes - 1) << 1;
    }

    long queued() {
        long sum = 0;
        for (Slot s : ring) {
            sum += s.len;
        }
        return sum;
    }

    boolean full() {
        return ring.size() >= slots;
    }

    // ---- write: anon_pipe_write (§1.6, §3.3, §4) ----------------------------------------------------------

    Outcome write(Handle h, byte[] data) {
        if (!h.open) {
            return Outcome.Threw.of(closed());
        }
        int n = data.length;
        if (n == 0) {
            return Outcome.value(0); // a null write succeeds before the readers check: no EPIPE
        }
        if (readers == 0) {
            events.add("write: EPIPE");
            return new Outcome.Threw(Set.of(BROKEN), 0);
        }
        writeCalls++;
        int done = 0;
        // Merge step, once, on entry: the sub-page remainder goes into the newest page if that page allows
        // merging and has room for all of it.
        int chars = n & (PAGE - 1);
        if (chars != 0 && !ring.isEmpty() && (packetWritesMerge || !h.packet())) {
            Slot last = ring.peekLast();
            if (last.canMerge && last.offset + last.len + chars <= PAGE) {
                System.arraycopy(data, 0, last.page, last.offset + last.len, chars);
                last.len += chars;
                done = chars;
                events.add(n > PIPE_BUF ? "write: merged remainder of a large write" : "write: merged");
            }
        }
        while (done < n) {
            if (!full()) {
                Slot s = new Slot();
                int k = Math.min(PAGE, n - done);
                System.arraycopy(data, done, s.page, 0, k);
                s.len = k;
                s.packet = h.packet();
                s.canMerge = !h.packet();
                ring.addLast(s);
                peakSlots = Math.max(peakSlots, ring.size());
                done += k;
                continue;
            }
            if (h.nonBlocking()) {
                events.add(done == 0 ? "write: EAGAIN" : "write: partial");
                break; // partial count, or EAGAIN (0)
            }
            // Blocking on a full ring: nobody else runs, so the wait ends by timeout with what was stored.
            writerWaits++;
            bytesWritten += done;
            events.add(done == 0 ? "write: blocked" : "write: blocked after storing some");
            return new Outcome.Threw(Set.of(TIMEOUT), done);
        }
        bytesWritten += done;
        return Outcome.value(done);
    }

    // ---- read: anon_pipe_read (§3.2, §4) ------------------------------------------------------------------

    Outcome read(Handle h, int len) {
        if (!h.open) {
            return Outcome.Threw.of(closed());
        }
        if (len == 0) {
            return new Outcome.Returned(0, new byte[0]);
        }
        readCalls++;
        byte[] out = new byte[len];
        int done = 0;
        for (;;) {
            if (!ring.isEmpty()) {
                Slot s = ring.peekFirst();
                int chars = Math.min(s.len, len - done);
                System.arraycopy(s.page, s.offset, out, done, chars);
                s.offset += chars;
                s.len -= chars;
                done += chars;
                if (s.packet) {
                    if (s.len > 0) {
                        events.add("read: packet truncated");
                    }
                    s.len = 0; // one packet per read; the rest of it is discarded
                }
                if (s.len == 0) {
                    ring.removeFirst();
                }
                if (s.packet || done == len) {
                    break;
                }
                if (!ring.isEmpty()) {
                    events.add("read: spans slots");
                }
                continue;
            }
            if (writers == 0 || done > 0) {
                break;
            }
            if (h.nonBlocking()) {
                events.add("read: EAGAIN");
                return new Outcome.Returned(0, new byte[0]); // EAGAIN
            }
            events.add("read: blocked");
            readerWaits++;
            return new Outcome.Threw(Set.of(TIMEOUT), 0);
        }
        if (done == 0) {
            events.add("read: EOF");
            return new Outcome.Returned(-1, new byte[0]); // end-of-stream: empty and no writers
        }
        bytesRead += done;
        return new Outcome.Returned(done, Arrays.copyOf(out, done));
    }

    // ---- F_SETPIPE_SZ (§1.5) ------------------------------------------------------------------------------

    /** F_SETPIPE_SZ takes an unsigned 32-bit size; Sluice refuses what is above its largest pipe (EPERM). */
    Outcome setCapacity(long bytes) {
        if (bytes < 0 || bytes > ABSOLUTE_MAX) {
            events.add("setCapacity: EINVAL");
            return Outcome.Threw.of(IllegalArgumentException.class); // EINVAL
        }
        int size = roundPipeSize(bytes);
        int newSlots = size / PAGE;
        java.util.Set<String> errors = new java.util.HashSet<>();
        if (readers == 0 && writers == 0) {
            errors.add(ILLEGAL_STATE); // Sluice: no handle left; Linux has no fd to call fcntl on
        }
        if (newSlots > slots && size > maxCapacity) {
            errors.add(ILLEGAL_ARGUMENT); // EPERM: growing beyond pipe-max-size
            events.add("setCapacity: EPERM");
        } else if (newSlots < ring.size()) {
            errors.add(ILLEGAL_STATE); // EBUSY: data is never dropped
            events.add("setCapacity: EBUSY");
        }
        if (!errors.isEmpty()) {
            return new Outcome.Threw(Set.copyOf(errors), 0);
        }
        if (newSlots < slots && !ring.isEmpty()) {
            events.add("setCapacity: shrank a pipe holding data");
        }
        if (newSlots > slots && full()) {
            events.add("setCapacity: grew a full pipe");
        }
        slots = newSlots;
        return Outcome.value(size);
    }

    // ---- handles ------------------------------------------------------------------------------------------

    /** dup(2): another handle on the same description. */
    Outcome dup(Handle h) {
        return addHandle(h, h.description);
    }

    /** open("/proc/self/fd/N"): another handle on a new description, with a copy of the mode. */
    Outcome reopen(Handle h) {
        return addHandle(h, new Description(descriptions + 1, h.nonBlocking(), h.packet()));
    }

    private Outcome addHandle(Handle h, Description d) {
        if (!h.open) {
            return Outcome.Threw.of(closed());
        }
        if (d != h.description) {
            descriptions++;
        }
        Handle copy = new Handle(h.reader, d);
        if (h.reader) {
            readHandles.add(copy);
            readers++;
        } else {
            writeHandles.add(copy);
            writers++;
        }
        return Outcome.value(0);
    }

    /** fcntl(F_SETFL, O_NONBLOCK): the description's flag, so every handle of it; a closed handle: EBADF. */
    Outcome setNonBlocking(Handle h, boolean on) {
        if (h.open) {
            noteShared(h);
            h.description.nonBlocking = on;
        }
        return Outcome.value(0); // Sluice reports nothing for a closed handle; nothing changes
    }

    /** fcntl(F_SETFL, O_DIRECT), as {@link #setNonBlocking}. */
    Outcome setPacketMode(Handle h, boolean on) {
        if (h.open) {
            noteShared(h);
            h.description.packet = on;
        }
        return Outcome.value(0);
    }

    /** Records a mode change that reaches another open handle than the one it was made through. */
    private void noteShared(Handle h) {
        for (Handle o : h.reader ? readHandles : writeHandles) {
            if (o != h && o.open && o.description == h.description) {
                events.add("mode: set through a shared description");
                return;
            }
        }
    }

    Outcome close(Handle h) {
        if (h.open) {
            h.open = false;
            if (h.reader) {
                readers--;
            } else {
                writers--;
            }
            if (readers == 0 && writers == 0) {
                events.add("close: last handle");
                ring.clear(); // the pipe is released with its last file
            } else if (h.reader ? readers == 0 : writers == 0) {
                events.add(h.reader ? "close: last reader" : "close: last writer");
            }
        }
        return Outcome.value(0);
    }

    Outcome available(Handle h) {
        if (!h.open) {
            return Outcome.Threw.of(closed());
        }
        return Outcome.value(queued()); // FIONREAD
    }

    /** pipe_poll (§4): POLLOUT only when a whole slot is free; POLLERR with no readers; POLLHUP with no writers. */
    int poll(Handle h) {
        if (!h.open) {
            return POLLNVAL;
        }
        int mask = 0;
        if (h.reader) {
            if (!ring.isEmpty()) {
                mask |= POLLIN;
            }
            if (writers == 0) {
                mask |= POLLHUP;
            }
        } else {
            if (!full()) {
                mask |= POLLOUT;
            }
            if (readers == 0) {
                mask |= POLLERR;
            }
        }
        return mask;
    }

    /** Whether {@link dev.sluice.PipeEnd#whenReady()} on this handle completes now. */
    boolean ready(Handle h) {
        int m = poll(h);
        return (m & POLLNVAL) != 0 || (h.reader ? (m & (POLLIN | POLLHUP)) != 0 : (m & (POLLOUT | POLLERR)) != 0);
    }

    void resetCounters() {
        bytesWritten = bytesRead = writeCalls = readCalls = readerWaits = writerWaits = 0;
        peakSlots = ring.size();
    }

    // ---- splice and tee between two pipes (§5: splice_pipe_to_pipe, link_pipe; Splice's documentation) -----

    /**
     * splice ({@code tee == false}) or tee of up to {@code max} bytes from this pipe, through read handle
     * {@code in}, into pipe {@code to}, through its write handle {@code out}. Whole slots move (flags and all)
     * or are shared (both copies lose CAN_MERGE) while they fit in {@code max} and the target has room; only
     * a first slot bigger than {@code max} is cut, and its two parts share the page without CAN_MERGE. The
     * source end's mode governs waiting for data, the target's for room. Results as Java's read: -1 at the
     * source's end-of-stream, 0 for EAGAIN. Sluice: same pipe or a negative count is IllegalArgumentException
     * before anything else, and -1 for EOF where Linux returns 0.
     */
    Outcome spliceTo(Handle in, PipeModel to, Handle out, long max, boolean tee) {
        String op = tee ? "tee" : "splice";
        if (max < 0 || to == this) {
            events.add(op + ": EINVAL");
            return Outcome.Threw.of(IllegalArgumentException.class);
        }
        if (!in.open || !out.open) {
            return Outcome.Threw.of(closed());
        }
        if (max == 0) {
            return Outcome.value(0);
        }
        if (to.readers == 0) { // checked before the source's end-of-stream, as Linux does
            events.add(op + ": EPIPE");
            return new Outcome.Threw(Set.of(BROKEN), 0);
        }
        if (ring.isEmpty()) {
            return emptySource(in, op);
        }
        if (to.full()) {
            if (out.nonBlocking()) {
                events.add(op + ": EAGAIN, full target");
                return Outcome.value(0);
            }
            events.add(op + ": blocked on a full target");
            to.writerWaits++;
            return new Outcome.Threw(Set.of(TIMEOUT), 0);
        }
        long done = 0;
        for (Slot s : new ArrayList<>(ring)) {
            if (done == max) {
                break;
            }
            if (to.full()) {
                events.add(op + ": stopped by a full target");
                break;
            }
            if (s.len > max - done) {
                if (done == 0) { // the only cut: a first slot bigger than max
                    int n = (int) max;
                    s.canMerge = false;
                    to.link(new Slot(s.page, s.offset, n, s.packet, false));
                    if (!tee) {
                        s.offset += n;
                        s.len -= n;
                    }
                    done = n;
                    events.add(op + ": cut the first slot");
                }
                break;
            }
            if (tee) {
                s.canMerge = false;
                to.link(new Slot(s.page, s.offset, s.len, s.packet, false));
            } else {
                ring.removeFirst();
                to.link(s); // moved whole: its flags travel with it
            }
            done += s.len;
        }
        events.add(op + (tee ? ": shared" : ": moved"));
        to.writeCalls++;
        to.bytesWritten += done;
        if (!tee) {
            readCalls++;
            bytesRead += done;
        }
        return Outcome.value(done);
    }

    /**
     * What a splice, tee or transfer from this pipe does when it is empty: -1 at end-of-stream, EAGAIN (0) if
     * the read handle is nonblocking, else it waits as a read does, here until its timeout.
     */
    private Outcome emptySource(Handle in, String op) {
        if (writers == 0) {
            events.add(op + ": EOF");
            return Outcome.value(-1);
        }
        if (in.nonBlocking()) {
            events.add(op + ": EAGAIN, empty source");
            return Outcome.value(0);
        }
        events.add(op + ": blocked on an empty source");
        readerWaits++;
        return new Outcome.Threw(Set.of(TIMEOUT), 0);
    }

    private void link(Slot s) {
        ring.addLast(s);
        peakSlots = Math.max(peakSlots, ring.size());
    }

    // ---- transfer to a channel (splice pipe → file; Splice.transferTo) --------------------------------------

    /**
     * {@code Splice.transferTo} through read handle {@code in} into a channel that takes at most
     * {@code budget} bytes and then fails: waits for data as a read does; offers whole slots up to {@code max}
     * (only a first slot bigger than {@code max} is cut, and a packet is not discarded: its rest stays); then
     * exactly what the channel took leaves the pipe, and the rest stays first in line. A channel that took
     * nothing throws its own exception; one that took part, a PartialTransferException with the count.
     */
    Outcome transferTo(Handle in, long max, long budget) {
        lastTransferred = new byte[0];
        if (max < 0) {
            return Outcome.Threw.of(IllegalArgumentException.class);
        }
        if (!in.open) {
            return Outcome.Threw.of(closed());
        }
        if (max == 0) {
            return Outcome.value(0);
        }
        if (ring.isEmpty()) {
            return emptySource(in, "transferTo");
        }
        long offered = 0;
        int slots = 0;
        for (Slot s : ring) {
            if (offered == max || slots > 0 && s.len > max - offered) {
                break;
            }
            offered += Math.min(s.len, max - offered);
            slots++;
        }
        int taken = (int) Math.min(offered, budget);
        byte[] out = new byte[taken];
        for (int done = 0; done < taken; ) {
            Slot s = ring.peekFirst();
            int k = Math.min(s.len, taken - done);
            System.arraycopy(s.page, s.offset, out, done, k);
            s.offset += k;
            s.len -= k;
            done += k;
            if (s.len == 0) {
                ring.removeFirst();
            } else if (s.packet) {
                events.add("transferTo: left part of a packet");
            }
        }
        lastTransferred = out;
        if (taken > 0) {
            readCalls++; // a channel that threw having taken nothing refused the call: nothing is counted
            bytesRead += taken;
        }
        if (taken == offered) {
            events.add(slots > 1 ? "transferTo: several slots" : "transferTo: one slot");
            return Outcome.value(offered);
        }
        if (taken == 0) {
            events.add("transferTo: the channel failed at once");
            return new Outcome.Threw(Set.of(IO), 0);
        }
        events.add("transferTo: the channel failed part way");
        return new Outcome.Threw(Set.of(PARTIAL), taken);
    }

    private static Class<?> closed() {
        return java.nio.channels.ClosedChannelException.class;
    }

    @Override
    public String toString() {
        return "model[slots " + ring.size() + "/" + slots + " " + ring + ", readers " + readers + ", writers " + writers
                + ", read handles " + readHandles + ", write handles " + writeHandles + "]";
    }
}
