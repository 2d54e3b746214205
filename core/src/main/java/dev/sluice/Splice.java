package dev.sluice;

import dev.sluice.internal.Checks;
import dev.sluice.internal.engine.InProcessEnd;
import dev.sluice.internal.engine.InProcessReadEnd;
import dev.sluice.internal.engine.InProcessWriteEnd;
import dev.sluice.internal.engine.Splicing;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.Channel;
import java.nio.channels.AsynchronousCloseException;
import java.nio.channels.ReadableByteChannel;
import java.nio.channels.WritableByteChannel;
import java.util.Objects;

/**
 * Zero-copy between Sluice's in-process pipes: {@code splice(2)}, {@code tee(2)} and
 * {@code vmsplice(2)} with {@code SPLICE_F_GIFT}, plus transfers between a pipe and any byte channel
 * (files, sockets). Linux: fs/splice.c; see linux-pipe.md §5.
 *
 * <pre>{@code
 * Pipe a = Pipe.open(), b = Pipe.open(), c = Pipe.open();
 * Splice.tee(a.reader(), b.writer(), Long.MAX_VALUE);      // b gets a's bytes, a keeps them
 * Splice.splice(a.reader(), c.writer(), Long.MAX_VALUE);   // c takes them from a, pages and all
 * Splice.gift(a.writer(), buffer);                         // a reader gets buffer's own bytes
 * Splice.transferTo(c.reader(), fileChannel, 1 << 20);     // c's pages straight to the channel
 * }</pre>
 *
 * <h2>What moves</h2>
 * A pipe holds its bytes in slots of at most one page. {@link #splice} moves whole slots from one ring to
 * the other: the page changes hands, no byte is copied, and a slot that a reader has partly consumed keeps
 * its offset. {@link #tee} puts a second reference to the same pages into the other pipe. Both take whole
 * slots while they fit in {@code maxBytes}; a slot is cut only when the first one alone is bigger than
 * {@code maxBytes}, and then the target gets its first {@code maxBytes} bytes by reference to the same
 * page (Linux does the same, "split" in {@code splice_pipe_to_pipe}). Consequences:
 * <ul>
 *   <li><b>atomicity and packets survive.</b> A write of at most {@link Pipe#PIPE_BUF} bytes and a packet
 *       ({@link WriteEnd#setPacketMode}) always sit in one slot, so with {@code maxBytes >= PIPE_BUF} they
 *       arrive in the target whole and, since the target's other writers can only add slots before or
 *       after, uninterleaved. A smaller {@code maxBytes} may cut one, and then each part is a packet.</li>
 *   <li><b>capacity is in slots.</b> A slot of 10 bytes takes a whole slot in the target too, exactly as
 *       on Linux. Splicing many small slots can fill a target with far fewer bytes than its capacity.</li>
 *   <li><b>shared pages are never written.</b> A slot that tee or a cut shares loses {@code CAN_MERGE} in
 *       both pipes, so later small writes start a fresh page instead of appending to a page that another
 *       pipe still reads (CVE-2022-0847, "Dirty Pipe"). A whole slot moved by splice keeps its flags: the
 *       page is the target's alone.</li>
 *   <li><b>pages go home.</b> Each pipe has its own pool of spare pages. A page is recycled only when its
 *       last reference goes, into the pool of the pipe that allocated it, whichever pipe lets go last
 *       (through a lock-free return stack); if that pipe is closed the page is left to the collector.
 *       So a chain of spliced pipes allocates nothing in steady state.</li>
 * </ul>
 *
 * <h2>Waiting, errors, results</h2>
 * As on Linux with {@code SPLICE_F_NONBLOCK} taken from the files' {@code O_NONBLOCK}: the source end's mode
 * and timeout govern waiting for data, the target end's for waiting for room. A blocking call waits until
 * it can move at least one slot and then returns what it moved without waiting for more, as a read does.
 * Results follow Java's read convention, not {@code splice(2)}'s: bytes moved; <b>-1</b> when the source is
 * at end-of-stream (empty, every writer closed; Linux returns 0); <b>0</b> when nothing could be moved and the
 * end that would have to wait is nonblocking ({@code EAGAIN}), or {@code maxBytes} is 0. Every reader of the
 * target gone: {@link BrokenPipeException} (checked before end-of-stream, as Linux does). Interrupts and
 * timeouts: as reads and writes ({@link java.io.InterruptedIOException}, {@link PipeTimeoutException}),
 * thrown only before anything moved. Wake-ups: the target's readers as after a write, the source's writers
 * as after a read.
 *
 * <h2>Which pipes</h2>
 * splice, tee and gift work on Sluice's in-process pipes ({@link Pipe#open()}); their pages live in the JVM
 * (on the heap, or in direct memory with {@link PageMemory#DIRECT}) and cannot enter a kernel pipe, nor
 * kernel pages a Java ring. Between in-process pipes the two kinds of page mix freely: a page keeps the
 * memory it was born in wherever splice takes it. Given an end of another implementation
 * they throw {@link IllegalArgumentException} rather than quietly copying: a copying fallback could not
 * keep splice's guarantees (atomic whole slots, nothing consumed from the source that the target did not
 * take). Copy with read and write, or use the kernel module's own splice between kernel pipes. Bad
 * arguments are refused before either pipe is touched.
 *
 * <p>All methods are safe to call from many threads, also on the same pipes, and never pin a virtual
 * thread.
 */
public final class Splice {
    private Splice() {
    }

    /**
     * Moves up to {@code maxBytes} from {@code from}'s pipe into {@code to}'s without copying them
     * ({@code splice(2)} between two pipes). See the class documentation for what moves and when it waits.
     *
     * @param from     read end of the source pipe
     * @param to       write end of another in-process pipe
     * @param maxBytes most bytes to move, {@code >= 0}
     * @return bytes moved; -1 at end-of-stream of the source; 0 if {@code maxBytes} is 0 or the end that would
     *         have to wait is nonblocking
     * @throws IllegalArgumentException if an end is not an in-process pipe's, both ends are of the same pipe
     *                                  (Linux: {@code EINVAL}), or {@code maxBytes} is negative
     * @throws BrokenPipeException      if every read end of the target is closed
     * @throws IOException              on a closed end, interrupt or timeout
     */
    public static long splice(ReadEnd from, WriteEnd to, long maxBytes) throws IOException {
        InProcessReadEnd in = inProcess(from, "splice");
        InProcessWriteEnd out = inProcess(to, "splice");
        checkPair(in, out, maxBytes, "splice");
        return Splicing.splice(in, out, maxBytes, false);
    }

    /**
     * Copies up to {@code maxBytes} of what is queued in {@code from}'s pipe into {@code to}'s without
     * consuming it, by sharing the pages ({@code tee(2)}). {@code from}'s readers still get every byte.
     * Like Linux, a tee waits while the source is empty (source end's mode) and while the target is full
     * (target end's mode), and stops early when the target fills, returning what it linked.
     *
     * @param from     read end of the source pipe (nothing is read from it)
     * @param to       write end of another in-process pipe
     * @param maxBytes most bytes to duplicate, {@code >= 0}
     * @return bytes duplicated; -1 if the source is empty with every writer closed; 0 if {@code maxBytes} is 0
     *         or the end that would have to wait is nonblocking
     * @throws IllegalArgumentException as {@link #splice}
     * @throws BrokenPipeException      if every read end of the target is closed
     * @throws IOException              on a closed end, interrupt or timeout
     */
    public static long tee(ReadEnd from, WriteEnd to, long maxBytes) throws IOException {
        InProcessReadEnd in = inProcess(from, "tee");
        InProcessWriteEnd out = inProcess(to, "tee");
        checkPair(in, out, maxBytes, "tee");
        return Splicing.splice(in, out, maxBytes, true);
    }

    /**
     * Gives the remaining bytes of {@code buf} to the pipe without copying them: readers get them straight
     * from {@code buf}'s memory ({@code vmsplice(2)} with {@code SPLICE_F_GIFT}). Heap and direct buffers
     * both work.
     *
     * <p><b>Ownership.</b> The bytes from {@code buf}'s position to its new position belong to the pipe from
     * the moment this method returns (a blocking call: all of them) until a reader has read them. The caller
     * must not write to them, through {@code buf} or any other view, until then. The simple rule: give a
     * buffer away and never touch it again. The method advances {@code buf}'s position past what it gave; a
     * reader that later finds the position or limit moved back before that point (the caller cleared,
     * flipped or compacted the buffer) drops the bytes and throws {@link GiftReusedException}, since they may
     * have been overwritten. That check is best effort: writes through another view cannot be seen.
     *
     * <p>Each page's worth of the buffer takes one slot, as a write would. Blocking, the call waits for room
     * until all is given; nonblocking, it gives what fits, and a gift of at most {@link Pipe#PIPE_BUF} bytes
     * (one slot) goes all or nothing; what was not given stays the caller's. The slots never take merged
     * writes. In packet mode each slot is a packet. Wake-ups, broken pipe, interrupts and timeouts: as
     * {@link WriteEnd#write(ByteBuffer)}.
     *
     * @param to  write end of an in-process pipe
     * @param buf the bytes to give; must be writable (read-only buffers are views of memory somebody else
     *            can still change)
     * @return bytes given: all when blocking; possibly fewer, or 0, when nonblocking
     * @throws IllegalArgumentException if {@code to} is not an in-process pipe's, or {@code buf} is read-only
     * @throws BrokenPipeException      if every read end is closed (reports bytes given before)
     * @throws IOException              on a closed end, interrupt or timeout
     */
    public static long gift(WriteEnd to, ByteBuffer buf) throws IOException {
        InProcessWriteEnd out = inProcess(to, "gift");
        Objects.requireNonNull(buf, "buffer to gift is null");
        if (buf.isReadOnly()) {
            throw new IllegalArgumentException("cannot gift a read-only buffer: it is a view of memory that its"
                    + " owner can still change; gift a buffer you own, or write() it to have it copied");
        }
        return Splicing.gift(out, buf);
    }

    /**
     * Moves up to {@code maxBytes} from the pipe to {@code channel}: the pipe's pages are handed to the
     * channel as they are, with no copy into a buffer of the caller's. Direct pages
     * ({@link PipeOptions.Builder#pageMemory}) and direct gifts go to the system call as they are; heap pages
     * are copied once by the JDK into its own temporary direct buffer. The {@code sendfile} /
     * {@code splice(pipe → file)} analogue.
     *
     * <p>Waits for data as a read does, under the read end's mode, and returns -1 at end-of-stream, 0 if
     * nonblocking and empty. Then it offers up to {@code maxBytes} in whole slots (cutting only a first slot
     * larger than that) to the channel, outside the pipe's lock, and removes from the pipe exactly what the
     * channel took. A blocking channel is written until it has taken them all; a nonblocking one until it
     * takes nothing more, so the call may return fewer bytes, or 0.
     *
     * <p><b>Nothing is lost.</b> The bytes stay in the pipe until the channel has taken them. If the channel
     * fails, what it took is gone from the pipe and every other byte is still there, in order, first in line
     * for the next reader: the channel's own exception if it took nothing, else a
     * {@link PartialTransferException} (or, for an interrupt, an {@link java.io.InterruptedIOException}) whose
     * {@code bytesTransferred} says how much it took. Meanwhile the pipe is held for reading: other reads,
     * splices, tees and transfers from this pipe wait until the transfer is done, as they would for the pipe
     * mutex that Linux holds over the file's write; nonblocking ones return 0 ({@code EAGAIN}) and
     * {@link PipeEnd#poll()} does not report the pipe readable. So a channel that blocks for long (a socket
     * whose peer does not read) holds up the pipe's other readers for as long; their timeouts and interrupts
     * still work. Writers are not held up.
     *
     * @param from     read end of an in-process pipe
     * @param channel  where the bytes go
     * @param maxBytes most bytes to move, {@code >= 0}
     * @return bytes the channel took; -1 at end-of-stream; 0 if {@code maxBytes} is 0, nonblocking and empty
     *         (or held by another transfer), or a nonblocking channel took nothing
     * @throws IllegalArgumentException if {@code from} is not an in-process pipe's, or {@code maxBytes} is
     *                                  negative
     * @throws PartialTransferException if the channel failed after taking some bytes (see above)
     * @throws IOException              on a closed end, interrupt, timeout, or the channel's failure
     */
    public static long transferTo(ReadEnd from, WritableByteChannel channel, long maxBytes) throws IOException {
        InProcessReadEnd in = inProcess(from, "transferTo");
        Objects.requireNonNull(channel, "channel is null");
        Checks.checkMaxBytes(maxBytes);
        checkNotItself(in, channel, "transferTo");
        return Splicing.transferTo(in, channel, maxBytes);
    }

    /**
     * Reads up to {@code maxBytes} from {@code channel} straight into pages of the pipe, with no buffer of
     * the caller's in between (the {@code splice(file → pipe)} analogue); into direct pages
     * ({@link PipeOptions.Builder#pageMemory}) the system call reads directly, into heap pages through the
     * JDK's temporary direct buffer. One read of the channel, like one {@code read()}: it returns what the
     * channel gave, -1 if the channel is at end-of-stream.
     *
     * <p>Waits for room first, under the write end's mode (nonblocking and full: returns 0 without reading the
     * channel). Then it <em>reserves</em> the free slots it may fill, at most {@code maxBytes} worth, reads
     * the channel into spare pages outside the pipe's lock, and publishes what it read in the reserved room,
     * giving the rest back. While the channel is read, other writers see the pipe that much smaller; a channel
     * that blocks for long (a socket with nothing to read) holds that room for as long. Written as a normal
     * write would be (mergeable pages, or packets in packet mode); atomic with respect to other writers only up
     * to one page.
     *
     * <p><b>Nothing read is lost</b> to waiting: the room is there before the channel is read, so no interrupt,
     * timeout or other writer can come between reading the bytes and storing them. Bytes a channel gives and
     * then throws (a JDK channel interrupted during a read) are stored too, and reported by a
     * {@link PartialTransferException}. Two cases cannot be helped, because no reader could ever get the
     * bytes: every read end closes while the channel is read ({@link BrokenPipeException}), or another
     * thread closes this write end meanwhile and it was the pipe's last ({@link AsynchronousCloseException}:
     * readers may have seen end-of-stream already). Then the bytes read are dropped and the exception says
     * how many. If it was not the last write end, the bytes are stored and counted as usual.
     *
     * @param channel  where the bytes come from
     * @param to       write end of an in-process pipe
     * @param maxBytes most bytes to move, {@code >= 0}
     * @return bytes stored in the pipe; -1 if the channel is at end-of-stream; 0 if {@code maxBytes} is 0, the
     *         end is nonblocking and the pipe full, or the channel gave nothing
     * @throws IllegalArgumentException if {@code to} is not an in-process pipe's, or {@code maxBytes} is
     *                                  negative
     * @throws BrokenPipeException      if every read end is closed (bytes read meanwhile are dropped, see above)
     * @throws PartialTransferException if the channel gave some bytes, which are stored, and then failed
     * @throws IOException              on a closed end, interrupt, timeout, or the channel's failure
     */
    public static long transferFrom(ReadableByteChannel channel, WriteEnd to, long maxBytes) throws IOException {
        InProcessWriteEnd out = inProcess(to, "transferFrom");
        Objects.requireNonNull(channel, "channel is null");
        Checks.checkMaxBytes(maxBytes);
        checkNotItself(out, channel, "transferFrom");
        return Splicing.transferFrom(channel, out, maxBytes);
    }

    // ---- argument checks: refused before any pipe is touched -----------------------------------------

    private static InProcessReadEnd inProcess(ReadEnd end, String op) {
        Objects.requireNonNull(end, "read end is null");
        if (end instanceof InProcessReadEnd e) {
            return e;
        }
        throw notInProcess(end, op);
    }

    private static InProcessWriteEnd inProcess(WriteEnd end, String op) {
        Objects.requireNonNull(end, "write end is null");
        if (end instanceof InProcessWriteEnd e) {
            return e;
        }
        throw notInProcess(end, op);
    }

    private static IllegalArgumentException notInProcess(PipeEnd end, String op) {
        return new IllegalArgumentException(op + " works between Sluice's in-process pipes (Pipe.open()), but "
                + end.getClass().getName() + " is another kind of pipe (a kernel pipe?): in-process pages cannot"
                + " move into it nor its pages into a Java ring. Copy with read() and write(), or use the kernel"
                + " module's splice between kernel pipes");
    }

    private static void checkPair(InProcessReadEnd in, InProcessWriteEnd out, long maxBytes, String op) {
        Checks.checkMaxBytes(maxBytes);
        if (in.samePipe(out)) {
            throw new IllegalArgumentException(op + " from a pipe into itself (Linux: EINVAL): use two pipes");
        }
    }

    /**
     * A transfer whose channel is an end of the very pipe it moves bytes of would wait for itself: a full pipe
     * held for its own transfer cannot take the bytes back, an empty pipe waited on by its only writer never
     * fills. Refused as splice and tee refuse a pipe into itself.
     */
    private static void checkNotItself(InProcessEnd end, Channel channel, String op) {
        if (channel instanceof InProcessEnd other && end.samePipe(other)) {
            throw new IllegalArgumentException(op + " between a pipe and one of its own ends would wait for itself"
                    + " (Linux: EINVAL for splice within one pipe): use two pipes");
        }
    }
}
