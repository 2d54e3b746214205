package dev.sluice;

import dev.sluice.testing.Capability;

import static dev.sluice.FeatureSupport.drain;
import static dev.sluice.FeatureSupport.sequence;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.ClosedChannelException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Rule 14, bad input: a call with bad arguments fails with the Java exception for the mistake and leaves
 * the pipe exactly as it was.
 *
 * <p>Linux rejects a closed descriptor ({@code EBADF}) and a bad {@code iovec} ({@code EINVAL}) before the
 * call reaches the pipe, and a user buffer that faults ({@code EFAULT}) is found during the copy, before
 * the slot is consumed or published ({@code pipe_read()}/{@code pipe_write()}), so the pipe does not change
 * either way. In Java those mistakes are {@link NullPointerException} (with a message),
 * {@link IndexOutOfBoundsException}, {@link IllegalArgumentException} (a read-only destination) and
 * {@link ClosedChannelException}, all raised before the pipe is touched. {@code F_SETPIPE_SZ} rounds its argument with
 * {@code round_pipe_size()}
 * (below a page, including 0, gives one page) and fails with {@code EINVAL}/{@code EPERM} for sizes it
 * cannot have, or {@code EBUSY} when the data would not fit (linux-pipe.md §1.5).
 *
 * <p>Every rejected call below runs against a pipe holding 5010 known bytes in two slots, and afterwards
 * the test compares {@link Pipe#stat()}, {@link Pipe#counters()}, the handles' modes, the positions and
 * limits of every buffer involved, and finally reads the bytes back in order.
 */
@Timeout(30)
class Rule14BadInputTest extends ConformanceTest {
    private static final byte[] CONTENT = sequence(5010, 0);

    /** A pipe with {@link #CONTENT} queued, spare handles on both sides, and some buffers. */
    final class Fixture {
        final Pipe pipe = open();
        final ReadEnd reader = pipe.reader();
        final WriteEnd writer = pipe.writer();
        final ReadEnd spareReader;
        final WriteEnd spareWriter;
        final ByteBuffer a = ByteBuffer.allocate(16).position(3);
        final ByteBuffer b = ByteBuffer.allocateDirect(16).limit(9);
        final ByteBuffer readOnly = ByteBuffer.wrap(new byte[16]).asReadOnlyBuffer();
        final ByteBuffer readOnlyDirect = ByteBuffer.allocateDirect(16).asReadOnlyBuffer();
        final byte[] array = new byte[10];

        Fixture() throws IOException {
            writer.write(CONTENT, 0, 5000);
            writer.write(CONTENT, 5000, 10);
            spareReader = reader.dup();
            spareWriter = writer.dup();
        }

        List<ByteBuffer> buffers() {
            return List.of(a, b, readOnly, readOnlyDirect);
        }
    }

    @FunctionalInterface
    interface BadCall {
        void run(Fixture f) throws Exception;
    }

    private static Arguments bad(String name, Class<? extends Throwable> type, String message, BadCall call) {
        return Arguments.of(name, type, message, (BadCall) f -> { }, call);
    }

    /** A call on a handle that {@code setup} closed; the snapshot is taken after the close. */
    private static Arguments closed(String name, BadCall setup, BadCall call) {
        return Arguments.of(name, ClosedChannelException.class, null, setup, call);
    }

    /**
     * The message of a refused shrink (EBUSY): a kernel pipe does not know how many pages hold the data, so its
     * message names EBUSY, while the in-process pipe names the pages; see {@link #expected}.
     */
    private static final String BUSY = "(EBUSY message)";

    /** {@code setCapacity(long)}: F_SETPIPE_SZ takes an unsigned 32-bit size; above the largest pipe, EPERM. */
    private static List<Arguments> badLongCapacities() {
        List<Arguments> all = new ArrayList<>();
        for (long bytes : new long[] {-1L, Integer.MIN_VALUE - 1L, Long.MIN_VALUE}) {
            all.add(bad("setCapacity(" + bytes + "L)", IllegalArgumentException.class, "negative",
                    f -> f.pipe.setCapacity(bytes)));
        }
        for (long bytes : new long[] {1L << 31, (1L << 32) - 1, 1L << 32, Long.MAX_VALUE}) {
            all.add(bad("setCapacity(" + bytes + "L)", IllegalArgumentException.class, "exceeds",
                    f -> f.pipe.setCapacity(bytes)));
        }
        return all;
    }

    static Stream<Arguments> badCalls() {
        List<Arguments> all = new ArrayList<>();
        all.addAll(nullArguments());
        all.addAll(ranges());
        all.addAll(readOnlyDestinations());
        all.addAll(closedHandles());
        all.addAll(capacitiesAndTimeouts());
        return all.stream();
    }

    /** Calls given null where an array, a buffer or a timeout belongs. */
    private static List<Arguments> nullArguments() {
        List<Arguments> all = new ArrayList<>();
        all.add(bad("read(null byte[])", NullPointerException.class, null, f -> f.reader.read((byte[]) null)));
        all.add(bad("read(null, 0, 1)", NullPointerException.class, "byte array is null",
                f -> f.reader.read((byte[]) null, 0, 1)));
        all.add(bad("read(null ByteBuffer)", NullPointerException.class, "destination buffer is null",
                f -> f.reader.read((ByteBuffer) null)));
        all.add(bad("read(null ByteBuffer[])", NullPointerException.class, null,
                f -> f.reader.read((ByteBuffer[]) null)));
        all.add(bad("read(null ByteBuffer[], 0, 0)", NullPointerException.class, "buffer array is null",
                f -> f.reader.read((ByteBuffer[]) null, 0, 0)));
        all.add(bad("read({a, null, b})", NullPointerException.class, "buffer [1] is null",
                f -> f.reader.read(new ByteBuffer[] {f.a, null, f.b})));
        all.add(bad("read({a, b, null}, 1, 2)", NullPointerException.class, "buffer [2] is null",
                f -> f.reader.read(new ByteBuffer[] {f.a, f.b, null}, 1, 2)));
        all.add(bad("write(null byte[])", NullPointerException.class, null, f -> f.writer.write((byte[]) null)));
        all.add(bad("write(null, 0, 1)", NullPointerException.class, "byte array is null",
                f -> f.writer.write((byte[]) null, 0, 1)));
        all.add(bad("write(null ByteBuffer)", NullPointerException.class, "source buffer is null",
                f -> f.writer.write((ByteBuffer) null)));
        all.add(bad("write(null ByteBuffer[])", NullPointerException.class, null,
                f -> f.writer.write((ByteBuffer[]) null)));
        all.add(bad("write({a, null})", NullPointerException.class, "buffer [1] is null",
                f -> f.writer.write(new ByteBuffer[] {f.a, null})));
        all.add(bad("write({null, a}) (nothing is written before the null)", NullPointerException.class,
                "buffer [0] is null", f -> f.writer.write(new ByteBuffer[] {null, f.a})));
        all.add(bad("InputStream.read(null, 0, 1)", NullPointerException.class, "byte array is null",
                f -> f.reader.asInputStream().read(null, 0, 1)));
        all.add(bad("OutputStream.write(null, 0, 1)", NullPointerException.class, "byte array is null",
                f -> f.writer.asOutputStream().write(null, 0, 1)));
        all.add(bad("OutputStream.write(null)", NullPointerException.class, null,
                f -> f.writer.asOutputStream().write((byte[]) null)));
        all.add(bad("setTimeout(null)", NullPointerException.class, "timeout is null",
                f -> f.reader.setTimeout(null)));
        return all;
    }

    /** Offsets and lengths outside a {@code byte[10]} or a two-buffer array. */
    private static List<Arguments> ranges() {
        List<Arguments> all = new ArrayList<>();
        int[][] ranges = {{-1, 1}, {0, -1}, {5, 6}, {11, 0}, {Integer.MAX_VALUE, 1}, {1, Integer.MAX_VALUE},
                {Integer.MIN_VALUE, 0}};
        for (int[] r : ranges) {
            int off = r[0];
            int len = r[1];
            all.add(bad("read(byte[10], " + off + ", " + len + ")", IndexOutOfBoundsException.class, null,
                    f -> f.reader.read(f.array, off, len)));
            all.add(bad("write(byte[10], " + off + ", " + len + ")", IndexOutOfBoundsException.class, null,
                    f -> f.writer.write(f.array, off, len)));
            all.add(bad("InputStream.read(byte[10], " + off + ", " + len + ")", IndexOutOfBoundsException.class,
                    null, f -> f.reader.asInputStream().read(f.array, off, len)));
            all.add(bad("OutputStream.write(byte[10], " + off + ", " + len + ")",
                    IndexOutOfBoundsException.class, null, f -> f.writer.asOutputStream().write(f.array, off, len)));
        }
        int[][] bufferRanges = {{-1, 1}, {0, 3}, {1, 2}, {2, -1}, {3, 0}, {Integer.MAX_VALUE, 2}};
        for (int[] r : bufferRanges) {
            int off = r[0];
            int len = r[1];
            all.add(bad("read({a, b}, " + off + ", " + len + ")", IndexOutOfBoundsException.class, null,
                    f -> f.reader.read(new ByteBuffer[] {f.a, f.b}, off, len)));
            all.add(bad("write({a, b}, " + off + ", " + len + ")", IndexOutOfBoundsException.class, null,
                    f -> f.writer.write(new ByteBuffer[] {f.a, f.b}, off, len)));
        }
        return all;
    }

    /** Reads into read-only buffers. */
    private static List<Arguments> readOnlyDestinations() {
        List<Arguments> all = new ArrayList<>();
        all.add(bad("read(read-only heap buffer)", IllegalArgumentException.class, "read-only",
                f -> f.reader.read(f.readOnly)));
        all.add(bad("read(read-only direct buffer)", IllegalArgumentException.class, "read-only",
                f -> f.reader.read(f.readOnlyDirect)));
        all.add(bad("read({a, readOnly, b})", IllegalArgumentException.class, "buffer [1]",
                f -> f.reader.read(new ByteBuffer[] {f.a, f.readOnly, f.b})));
        return all;
    }

    /** Calls on read and write handles (or their streams) that were closed first. */
    private static List<Arguments> closedHandles() {
        List<Arguments> all = new ArrayList<>();
        all.add(closed("read on a closed handle", f -> f.reader.close(), f -> f.reader.read(f.array)));
        all.add(closed("zero-length read on a closed handle", f -> f.reader.close(),
                f -> f.reader.read(f.array, 0, 0)));
        all.add(closed("read(ByteBuffer) on a closed handle", f -> f.reader.close(), f -> f.reader.read(f.a)));
        all.add(closed("read(ByteBuffer[]) on a closed handle", f -> f.reader.close(),
                f -> f.reader.read(new ByteBuffer[] {f.a, f.b})));
        all.add(closed("available() on a closed handle", f -> f.reader.close(), f -> f.reader.available()));
        all.add(closed("dup() of a closed read handle", f -> f.reader.close(), f -> f.reader.dup()));
        all.add(closed("InputStream.read() on a closed stream", f -> f.reader.asInputStream().close(),
                f -> f.reader.asInputStream().read()));
        all.add(closed("InputStream.read(byte[]) on a closed stream", f -> f.reader.asInputStream().close(),
                f -> f.reader.asInputStream().read(f.array)));
        all.add(closed("write on a closed handle", f -> f.writer.close(), f -> f.writer.write(f.array)));
        all.add(closed("zero-length write on a closed handle", f -> f.writer.close(),
                f -> f.writer.write(new byte[0])));
        all.add(closed("write(ByteBuffer) on a closed handle", f -> f.writer.close(), f -> f.writer.write(f.a)));
        all.add(closed("write(ByteBuffer[]) on a closed handle", f -> f.writer.close(),
                f -> f.writer.write(new ByteBuffer[] {f.a, f.b})));
        all.add(closed("dup() of a closed write handle", f -> f.writer.close(), f -> f.writer.dup()));
        all.add(closed("OutputStream.write(int) on a closed stream", f -> f.writer.asOutputStream().close(),
                f -> f.writer.asOutputStream().write(1)));
        all.add(closed("OutputStream.write(byte[]) on a closed stream", f -> f.writer.asOutputStream().close(),
                f -> f.writer.asOutputStream().write(f.array)));
        return all;
    }

    /** Capacities the pipe cannot have or cannot shrink to, and negative timeouts. */
    private static List<Arguments> capacitiesAndTimeouts() {
        List<Arguments> all = new ArrayList<>();
        for (int bytes : new int[] {-1, -4096, Integer.MIN_VALUE}) {
            all.add(bad("setCapacity(" + bytes + ")", IllegalArgumentException.class, "negative",
                    f -> f.pipe.setCapacity(bytes)));
        }
        for (int bytes : new int[] {PipeOptions.ABSOLUTE_MAX_CAPACITY + 1, Integer.MAX_VALUE}) {
            all.add(bad("setCapacity(" + bytes + ")", IllegalArgumentException.class, "exceeds",
                    f -> f.pipe.setCapacity(bytes)));
        }
        all.addAll(badLongCapacities());
        all.add(bad("setCapacity above maxCapacity (EPERM)", IllegalArgumentException.class, "maxCapacity",
                f -> f.pipe.setCapacity(2 * PipeOptions.DEFAULT_MAX_CAPACITY)));
        all.add(bad("setCapacity(1 GiB) above maxCapacity (EPERM)", IllegalArgumentException.class,
                "maxCapacity", f -> f.pipe.setCapacity(PipeOptions.ABSOLUTE_MAX_CAPACITY)));
        String busy = BUSY;
        all.add(bad("setCapacity(0): one page cannot hold two slots of data (EBUSY)", IllegalStateException.class,
                busy, f -> f.pipe.setCapacity(0)));
        all.add(bad("setCapacity(4096) (EBUSY)", IllegalStateException.class, busy,
                f -> f.pipe.setCapacity(Pipe.PAGE_SIZE)));
        all.add(bad("setTimeout(-1 ns) on the reader", IllegalArgumentException.class, "negative",
                f -> f.reader.setTimeout(Duration.ofNanos(-1))));
        all.add(bad("setTimeout(-1 s) on the writer", IllegalArgumentException.class, "negative",
                f -> f.writer.setTimeout(Duration.ofSeconds(-1))));
        return all;
    }

    private record Snapshot(PipeStat stat, PipeCounters counters, List<String> ends, List<String> buffers) {
        static Snapshot of(Fixture f) {
            List<String> ends = new ArrayList<>();
            for (PipeEnd e : List.of(f.reader, f.writer, f.spareReader, f.spareWriter)) {
                ends.add(e.isOpen() + "/" + e.isNonBlocking() + "/" + e.timeout());
            }
            List<String> buffers = new ArrayList<>();
            for (ByteBuffer b : f.buffers()) {
                buffers.add(b.position() + ".." + b.limit() + " " + Arrays.toString(contentOf(b)));
            }
            buffers.add(Arrays.toString(f.array));
            return new Snapshot(f.pipe.stat(), f.pipe.counters(), ends, buffers);
        }

        private static byte[] contentOf(ByteBuffer b) {
            byte[] all = new byte[b.capacity()];
            b.duplicate().clear().get(all);
            return all;
        }
    }

    private String expected(String message) {
        return !message.equals(BUSY) ? message : has(Capability.OCCUPANCY) ? "2 pages" : "EBUSY";
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("badCalls")
    void aRejectedCallLeavesThePipeExactlyAsItWas(String name, Class<? extends Throwable> type, String message,
                                                 BadCall setup, BadCall call) throws Exception {
        Fixture f = new Fixture();
        assertThat(f.pipe.stat().bytesQueued()).isEqualTo(CONTENT.length);
        if (has(Capability.OCCUPANCY)) assertThat(f.pipe.stat().slotsUsed()).isEqualTo(2);
        setup.run(f);
        Snapshot before = Snapshot.of(f);

        var thrown = assertThatThrownBy(() -> call.run(f)).as(name).isInstanceOf(type);
        if (message != null) {
            thrown.hasMessageContaining(expected(message));
        } else if (type == NullPointerException.class) {
            thrown.hasMessageContaining("null");
        }

        Snapshot after = Snapshot.of(f);
        assertThat(after.stat().bytesQueued()).as("bytes queued").isEqualTo(before.stat().bytesQueued());
        assertThat(after.stat().slotsUsed()).as("slots used").isEqualTo(before.stat().slotsUsed());
        assertThat(after.stat().capacity()).as("capacity").isEqualTo(before.stat().capacity());
        assertThat(after.stat()).as("the whole stat").isEqualTo(before.stat());
        assertThat(after.counters()).as("counters").isEqualTo(before.counters());
        assertThat(after.ends()).as("handles: open, nonblocking, timeout").isEqualTo(before.ends());
        assertThat(after.buffers()).as("buffers: positions, limits and content").isEqualTo(before.buffers());

        // The data is all there, in order, and the pipe still works both ways.
        WriteEnd w = f.writer.isOpen() ? f.writer : f.spareWriter;
        ReadEnd r = f.reader.isOpen() ? f.reader : f.spareReader;
        w.write(new byte[] {-1});
        byte[] expected = Arrays.copyOf(CONTENT, CONTENT.length + 1);
        expected[CONTENT.length] = -1;
        assertThat(drain(r)).isEqualTo(expected);
    }

    // ---- PipeOptions.Builder ------------------------------------------------------------------------

    @ParameterizedTest
    @ValueSource(ints = {-1, -4096, Integer.MIN_VALUE, PipeOptions.ABSOLUTE_MAX_CAPACITY + 1, Integer.MAX_VALUE})
    void absurdCapacitiesAreRefusedByTheBuilderWhichStaysAsItWas(int bytes) {
        PipeOptions.Builder b = options().capacity(8192);
        assertThatThrownBy(() -> b.capacity(bytes)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("capacity").hasMessageContaining(String.valueOf(bytes));
        assertThatThrownBy(() -> b.maxCapacity(bytes)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("maxCapacity");
        assertThat(b.build().capacity()).isEqualTo(8192);
        assertThat(b.build().maxCapacity()).isEqualTo(PipeOptions.DEFAULT_MAX_CAPACITY);
    }

    @ParameterizedTest
    @ValueSource(ints = {-2, -100, Integer.MIN_VALUE})
    void poolPagesBelowMinusOneAreRefused(int pages) {
        PipeOptions.Builder b = options().poolPages(3);
        assertThatThrownBy(() -> b.poolPages(pages)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("poolPages").hasMessageContaining(String.valueOf(pages));
        assertThat(b.build().poolPages()).isEqualTo(3);
        assertThat(options().poolPages(-1).build().poolPages()).isEqualTo(-1);
        assertThat(options().poolPages(0).build().poolPages()).isZero();
    }

    @ParameterizedTest
    @ValueSource(ints = {-1, -100, Integer.MIN_VALUE})
    void negativePoolRotationsAreRefused(int pages) {
        PipeOptions.Builder b = options().poolRotation(40);
        assertThatThrownBy(() -> b.poolRotation(pages)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("poolRotation").hasMessageContaining(String.valueOf(pages));
        assertThat(b.build().poolRotation()).isEqualTo(40);
        assertThat(b.build()).isNotEqualTo(options().build()).hasToString(b.build().toString());
        assertThat(b.build().toString()).contains("poolRotation=40");
        assertThat(options().build().poolRotation()).isEqualTo(PipeOptions.DEFAULT_POOL_ROTATION);
    }

    @Test
    void capacitiesRoundLikeRoundPipeSize() {
        assume(Capability.RESIZE);
        int[][] cases = {{0, 4096}, {1, 4096}, {4095, 4096}, {4096, 4096}, {4097, 8192}, {65536, 65536},
                {100_000, 131_072}, {PipeOptions.DEFAULT_MAX_CAPACITY, PipeOptions.DEFAULT_MAX_CAPACITY}};
        for (int[] c : cases) {
            assertThat(options().capacity(c[0]).build().capacity()).as("capacity(%d)", c[0])
                    .isEqualTo(c[1]);
            Pipe p = open();
            assertThat(p.setCapacity(c[0])).as("setCapacity(%d)", c[0]).isEqualTo(c[1]);
            assertThat(p.capacity()).isEqualTo(c[1]);
            assertThat(p.stat().slots()).isEqualTo(c[1] / Pipe.PAGE_SIZE);
        }
        PipeOptions huge = options().maxCapacity(PipeOptions.ABSOLUTE_MAX_CAPACITY)
                .capacity(PipeOptions.ABSOLUTE_MAX_CAPACITY).build();
        assertThat(huge.capacity()).as("1 GiB is the largest pipe").isEqualTo(1 << 30);
    }

    @Test
    void aZeroCapacityPipeIsOnePageAndWorks() throws IOException {
        Pipe p = open(options().capacity(0).nonBlocking(true).build());
        assertThat(p.capacity()).isEqualTo(Pipe.PAGE_SIZE);
        assertThat(p.writer().write(new byte[5000])).as("one page fits, then EAGAIN").isEqualTo(Pipe.PAGE_SIZE);
        assertThat(p.writer().poll().writable()).isFalse();
        assertThat(p.reader().read(new byte[5000])).isEqualTo(Pipe.PAGE_SIZE);
    }

    @Test
    void aCapacityAboveTheMaximumFailsAtBuild() {
        PipeOptions.Builder b = options().capacity(2 * PipeOptions.DEFAULT_MAX_CAPACITY);
        assertThatThrownBy(b::build).isInstanceOf(IllegalArgumentException.class).hasMessageContaining("maxCapacity");
        PipeOptions.Builder tooSmallMax = options().maxCapacity(0);
        assertThatThrownBy(tooSmallMax::build).as("default 64 KiB over a one-page maximum")
                .isInstanceOf(IllegalArgumentException.class);
        assertThat(tooSmallMax.capacity(0).build().maxCapacity()).isEqualTo(Pipe.PAGE_SIZE);
    }

    @Test
    void openingWithNullOptionsIsRefusedWithAHint() {
        assertThatThrownBy(() -> open((PipeOptions) null)).isInstanceOf(NullPointerException.class)
                .hasMessageContaining("PipeOptions.defaults()");
    }

    @Test
    void aRefusedTimeoutKeepsThePreviousOne() {
        Pipe p = open();
        p.reader().setTimeout(Duration.ofMillis(250));
        assertThatThrownBy(() -> p.reader().setTimeout(Duration.ofMillis(-250)))
                .isInstanceOf(IllegalArgumentException.class);
        assertThat(p.reader().timeout()).isEqualTo(Duration.ofMillis(250));
        p.reader().setTimeout(Duration.ZERO);
        assertThat(p.reader().timeout()).isZero();
    }

    @Test
    void nullsOutsideTheRangeOfABufferArrayAreNotLookedAt() throws IOException {
        Pipe p = open();
        ByteBuffer src = ByteBuffer.wrap(new byte[] {1, 2, 3});
        assertThat(p.writer().write(new ByteBuffer[] {null, src, null}, 1, 1)).isEqualTo(3);
        ByteBuffer dst = ByteBuffer.allocate(8);
        ByteBuffer readOnly = ByteBuffer.allocate(8).asReadOnlyBuffer();
        assertThat(p.reader().read(new ByteBuffer[] {readOnly, dst, null}, 1, 1)).isEqualTo(3);
        assertThat(Arrays.copyOf(dst.array(), 3)).containsExactly(1, 2, 3);
        assertThatCode(() -> p.writer().write(new ByteBuffer[] {null}, 1, 0)).doesNotThrowAnyException();
    }

    /**
     * The same buffer object twice in a {@code ByteBuffer[]} range counts once: buffers carry their own
     * position, so the second appearance sees what the first left. Nothing outside the range is touched,
     * and the count returned is what was moved. (Found by this suite: the room was once counted twice and
     * the copy ran past the range.)
     */
    @Test
    void theSameBufferTwiceInARangeTouchesNothingOutsideTheRange() throws IOException {
        Pipe p = open();
        p.writer().write(sequence(8, 0));
        ByteBuffer twice = ByteBuffer.allocate(4);
        ByteBuffer outside = ByteBuffer.allocate(4);
        long n = p.reader().read(new ByteBuffer[] {twice, twice, outside}, 0, 2);
        assertThat(outside.position()).as("a buffer outside the read's range was written to").isZero();
        assertThat(n).isEqualTo(4);
        assertThat(p.stat().bytesQueued()).isEqualTo(4);

        ByteBuffer src = ByteBuffer.wrap(sequence(4, 0));
        ByteBuffer notToBeWritten = ByteBuffer.wrap(sequence(4, 50));
        Pipe q = open();
        assertThat(q.writer().write(new ByteBuffer[] {src, src, notToBeWritten}, 0, 2)).isEqualTo(4);
        assertThat(notToBeWritten.position()).as("a buffer outside the write's range was read from").isZero();

        Pipe r = open();
        r.writer().write(sequence(8, 0));
        ByteBuffer alone = ByteBuffer.allocate(4);
        assertThat(r.reader().read(new ByteBuffer[] {alone, alone})).as("no ArrayIndexOutOfBoundsException")
                .isEqualTo(4);
        assertThat(r.stat().bytesQueued()).isEqualTo(4);
    }
}
