package dev.sluice;

import dev.sluice.testing.Capability;
import dev.sluice.testing.TestPipes;
import org.junit.jupiter.api.Assumptions;

import static dev.sluice.FeatureSupport.randomBytes;
import static dev.sluice.FeatureSupport.sequence;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.sluice.FeatureSupport.ThreadKind;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.net.URISyntaxException;
import java.nio.ByteBuffer;
import java.nio.channels.Channels;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.IllegalBlockingModeException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.spi.ToolProvider;
import java.util.stream.Stream;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordingStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Rule 13, adapters: the stream and channel views move the same bytes as the raw ends, in order, with
 * {@code readv}/{@code writev} semantics for scattering and gathering, and blocking never holds a
 * virtual thread's carrier.
 *
 * <p>Linux: {@code readv(2)} fills its buffers in order and returns what one {@code read} would;
 * {@code writev(2)} to a pipe is one {@code pipe_write()} over the whole iovec, so it is atomic when the
 * total is at most {@code PIPE_BUF} (linux-pipe.md §1.6). {@code FIONREAD} is {@code available()}.
 * A Java {@code InputStream}/{@code OutputStream} cannot express {@code EAGAIN}, so on a nonblocking
 * handle the adapters throw {@link IllegalBlockingModeException}, as {@link Channels#newInputStream} does.
 * The kernel sleeps in {@code wait_event}; the Java analogue must park (no {@code synchronized}, no
 * {@code Object.wait}) so that a blocked virtual thread gives its carrier back.
 */
@Timeout(60)
class Rule13AdaptersTest extends ConformanceTest {

    private static String sha256(byte[] data) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(data));
        } catch (NoSuchAlgorithmException e) {
            throw new AssertionError(e);
        }
    }

    // ---- streams -------------------------------------------------------------------------------------

    @ParameterizedTest
    @EnumSource(ThreadKind.class)
    void fiveMegabytesOfRandomDataRoundTripThroughTheStreamsInRandomChunks(ThreadKind kind) throws Exception {
        byte[] data = randomBytes(5 * 1024 * 1024, 2024);
        Pipe p = open();
        var writer = kind.run("stream-writer", () -> {
            SplittableRandom rnd = new SplittableRandom(1);
            try (OutputStream out = p.writer().asOutputStream()) {
                int off = 0;
                while (off < data.length) {
                    if (rnd.nextInt(10) == 0) {
                        out.write(data[off++]);
                        continue;
                    }
                    int n = Math.min(data.length - off, 1 + rnd.nextInt(20_000));
                    out.write(data, off, n);
                    off += n;
                }
            }
        });
        MessageDigest md = MessageDigest.getInstance("SHA-256");
        long total = 0;
        SplittableRandom rnd = new SplittableRandom(2);
        try (InputStream in = p.reader().asInputStream()) {
            byte[] buf = new byte[20_000];
            for (;;) {
                if (rnd.nextInt(10) == 0) {
                    int b = in.read();
                    if (b < 0) {
                        break;
                    }
                    md.update((byte) b);
                    total++;
                    continue;
                }
                int n = in.read(buf, 0, 1 + rnd.nextInt(buf.length));
                if (n < 0) {
                    break;
                }
                assertThat(n).isPositive();
                md.update(buf, 0, n);
                total += n;
            }
            assertThat(in.read()).as("end-of-stream stays").isEqualTo(-1);
            assertThat(in.read(buf)).isEqualTo(-1);
        }
        writer.join();
        assertThat(total).isEqualTo(data.length);
        assertThat(HexFormat.of().formatHex(md.digest())).isEqualTo(sha256(data));
    }

    @Test
    void singleByteWritesTakeTheLowEightBitsAndReadsReturnThemUnsigned() throws IOException {
        Pipe p = open();
        OutputStream out = p.writer().asOutputStream();
        InputStream in = p.reader().asInputStream();
        int[] values = {0, 1, 127, 128, 255, 256, -1, 0x1234};
        for (int v : values) {
            out.write(v);
        }
        if (has(Capability.OCCUPANCY)) {
            assertThat(p.stat().slotsUsed()).as("single-byte writes merge like any small write").isEqualTo(1);
        }
        for (int v : values) {
            assertThat(in.read()).isEqualTo(v & 0xFF);
        }
        out.close();
        assertThat(in.read()).isEqualTo(-1);
        assertThat(in.read(new byte[4], 0, 4)).isEqualTo(-1);
        assertThat(in.read(new byte[4], 0, 0)).as("a zero-length read is 0 even at end-of-stream").isZero();
    }

    @Test
    void availableIsTheNumberOfQueuedBytes() throws IOException {
        Pipe p = open();
        InputStream in = p.reader().asInputStream();
        assertThat(in.available()).isZero();
        p.writer().write(new byte[5000]);
        p.writer().write(new byte[10]);
        assertThat(in.available()).isEqualTo(5010).isEqualTo(p.reader().available());
        assertThat(in.read(new byte[4096])).isEqualTo(4096);
        assertThat(in.available()).isEqualTo(914);
        assertThat(in.skip(14)).isEqualTo(14);
        assertThat(in.available()).isEqualTo(900);
        in.close();
        assertThatThrownBy(in::available).isInstanceOf(ClosedChannelException.class);
    }

    @Test
    void theStreamsRefuseANonblockingHandleAndLeaveThePipeAsItWas() throws IOException {
        Pipe p = open(options().nonBlocking(true).build());
        p.writer().write(new byte[] {1, 2, 3});
        InputStream in = p.reader().asInputStream();
        OutputStream out = p.writer().asOutputStream();
        PipeStat before = p.stat();

        assertThatThrownBy(in::read).isInstanceOf(IllegalBlockingModeException.class);
        assertThatThrownBy(() -> in.read(new byte[8])).isInstanceOf(IllegalBlockingModeException.class);
        assertThatThrownBy(() -> out.write(4)).isInstanceOf(IllegalBlockingModeException.class);
        assertThatThrownBy(() -> out.write(new byte[] {4, 5})).isInstanceOf(IllegalBlockingModeException.class);
        assertThat(p.stat()).isEqualTo(before);

        p.reader().setNonBlocking(false);
        p.writer().setNonBlocking(false);
        out.write(4);
        byte[] buf = new byte[8];
        assertThat(in.read(buf)).isEqualTo(4);
        assertThat(Arrays.copyOf(buf, 4)).containsExactly(1, 2, 3, 4);
    }

    @Test
    void closingAStreamClosesItsHandle() throws IOException {
        Pipe p = open();
        OutputStream out = p.writer().asOutputStream();
        out.write(new byte[] {1, 2});
        out.close();
        assertThat(p.writer().isOpen()).isFalse();
        assertThat(p.stat().writers()).isZero();
        assertThatThrownBy(() -> out.write(3)).isInstanceOf(ClosedChannelException.class);
        out.close(); // twice is harmless

        InputStream in = p.reader().asInputStream();
        assertThat(in.read(new byte[8])).isEqualTo(2);
        assertThat(in.read()).as("the writer's close is the reader's end-of-stream").isEqualTo(-1);
        in.close();
        assertThat(p.reader().isOpen()).isFalse();
        assertThat(p.stat().readers()).isZero();
        assertThatThrownBy(in::read).isInstanceOf(ClosedChannelException.class);
    }

    @Test
    void closingTheInputStreamBreaksThePipeForTheWriter() throws IOException {
        Pipe p = open();
        p.reader().asInputStream().close();
        OutputStream out = p.writer().asOutputStream();
        assertThatThrownBy(() -> out.write(1)).isInstanceOf(BrokenPipeException.class);
    }

    @ParameterizedTest
    @EnumSource(ThreadKind.class)
    void jdkChannelStreamsInteroperate(ThreadKind kind) throws Exception {
        byte[] data = randomBytes(1 << 20, 77);
        Pipe p = open();
        var writer = kind.run("channel-writer", () -> {
            try (OutputStream out = Channels.newOutputStream(p.writer())) {
                for (int off = 0; off < data.length; off += 7777) {
                    out.write(data, off, Math.min(7777, data.length - off));
                }
            }
        });
        byte[] got;
        try (InputStream in = Channels.newInputStream(p.reader())) {
            got = in.readAllBytes();
        }
        writer.join();
        assertThat(got.length).isEqualTo(data.length);
        assertThat(sha256(got)).isEqualTo(sha256(data));
        assertThat(p.reader().isOpen()).isFalse();
    }

    // ---- channels: scatter and gather ---------------------------------------------------------------

    @Test
    void aScatteringReadFillsTheBuffersInOrder() throws IOException {
        Pipe p = open();
        p.writer().write(sequence(10, 0));
        ByteBuffer a = ByteBuffer.allocate(3);
        ByteBuffer b = ByteBuffer.allocateDirect(4);
        ByteBuffer c = ByteBuffer.allocate(5);
        assertThat(p.reader().read(new ByteBuffer[] {a, b, c})).isEqualTo(10);
        assertThat(a.position()).isEqualTo(3);
        assertThat(b.position()).isEqualTo(4);
        assertThat(c.position()).isEqualTo(3);
        assertThat(a.array()).containsExactly(0, 1, 2);
        byte[] bb = new byte[4];
        b.flip().get(bb);
        assertThat(bb).containsExactly(3, 4, 5, 6);
        assertThat(Arrays.copyOf(c.array(), 3)).containsExactly(7, 8, 9);
    }

    @Test
    void aScatteringReadUsesOnlyItsRangeAndEachBuffersRemaining() throws IOException {
        Pipe p = open();
        p.writer().write(sequence(100, 0));
        ByteBuffer outside = ByteBuffer.allocate(8);
        ByteBuffer full = ByteBuffer.allocate(4).position(4);
        ByteBuffer window = ByteBuffer.allocateDirect(20).position(5).limit(9);
        ByteBuffer last = ByteBuffer.allocate(6).position(1);
        ByteBuffer[] dsts = {outside, full, window, last, outside};
        assertThat(p.reader().read(dsts, 1, 3)).isEqualTo(9);
        assertThat(outside.position()).isZero();
        assertThat(full.position()).isEqualTo(4);
        assertThat(window.position()).isEqualTo(9);
        assertThat(window.limit()).isEqualTo(9);
        assertThat(window.get(5)).isEqualTo((byte) 0);
        assertThat(window.get(8)).isEqualTo((byte) 3);
        assertThat(window.get(4)).as("before the position: untouched").isZero();
        assertThat(last.position()).isEqualTo(6);
        assertThat(Arrays.copyOfRange(last.array(), 1, 6)).containsExactly(4, 5, 6, 7, 8);
        assertThat(p.reader().available()).isEqualTo(91);
    }

    @Test
    void aScatteringReadReturnsWhatIsQueuedAndMinusOneAtEndOfStream() throws IOException {
        Pipe p = open();
        p.writer().write(sequence(5, 0));
        ByteBuffer[] dsts = {ByteBuffer.allocate(4), ByteBuffer.allocate(4)};
        assertThat(p.reader().read(dsts)).isEqualTo(5);
        p.writer().close();
        assertThat(p.reader().read(dsts)).isEqualTo(-1);
        assertThat(p.reader().read(new ByteBuffer[] {ByteBuffer.allocate(0)})).as("no room: 0").isZero();
    }

    @Test
    void aGatheringWriteTakesTheBuffersInOrderFromTheirPositions() throws IOException {
        Pipe p = open();
        ByteBuffer a = ByteBuffer.wrap(sequence(10, 0)).position(7);                 // 7, 8, 9
        ByteBuffer b = ByteBuffer.allocateDirect(5).put(sequence(5, 10)).flip();     // 10..14
        ByteBuffer c = ByteBuffer.wrap(sequence(10, 15)).limit(2).asReadOnlyBuffer(); // 15, 16
        ByteBuffer skipped = ByteBuffer.wrap(new byte[] {99});
        assertThat(p.writer().write(new ByteBuffer[] {skipped, a, b, c, skipped}, 1, 3)).isEqualTo(10);
        assertThat(a.hasRemaining()).isFalse();
        assertThat(b.hasRemaining()).isFalse();
        assertThat(c.hasRemaining()).isFalse();
        assertThat(skipped.position()).isZero();
        byte[] got = new byte[32];
        assertThat(p.reader().read(got)).isEqualTo(10);
        assertThat(Arrays.copyOf(got, 10)).isEqualTo(sequence(10, 7));
    }

    @Test
    void heapAndDirectBuffersRoundTripWithNonZeroPositions() throws IOException {
        Pipe p = open();
        byte[] data = randomBytes(70_000, 5);
        ByteBuffer src = ByteBuffer.allocateDirect(80_000).position(3000);
        src.put(data).flip().position(3000);
        // 70000 bytes do not fit a 64 KiB pipe: write and read in two rounds.
        ByteBuffer part = src.duplicate().limit(3000 + 60_000);
        assertThat(p.writer().write(part)).isEqualTo(60_000);
        ByteBuffer dst = ByteBuffer.allocate(75_000).position(1000);
        assertThat(p.reader().read(dst)).isEqualTo(60_000);
        src.position(3000 + 60_000);
        assertThat(p.writer().write(src)).isEqualTo(10_000);
        assertThat(p.reader().read(dst)).isEqualTo(10_000);
        assertThat(dst.position()).isEqualTo(71_000);
        assertThat(Arrays.copyOfRange(dst.array(), 1000, 71_000)).isEqualTo(data);
    }

    /**
     * Records of 3 to 4096 bytes, each written by one gathering write of three buffers from one of several
     * writers at once: every record must come out whole. A record is {@code [len hi][len lo][writer]} then
     * {@code len - 3} bytes equal to the writer's sequence number.
     */
    @ParameterizedTest
    @EnumSource(ThreadKind.class)
    void gatheringWritesOfAtMostPipeBufAreAtomicAmongConcurrentWriters(ThreadKind kind) throws Exception {
        Pipe p = open(options().capacity(4 * Pipe.PAGE_SIZE).build());
        int writers = 4;
        int records = 300;
        List<FeatureSupport.Helper<Void>> helpers = new ArrayList<>();
        List<WriteEnd> ends = new ArrayList<>();
        for (int w = 0; w < writers; w++) {
            ends.add(p.writer().dup());
        }
        p.writer().close();
        for (int w = 0; w < writers; w++) {
            int id = w;
            WriteEnd end = ends.get(w);
            helpers.add(kind.run("gather-writer-" + w, () -> {
                SplittableRandom rnd = new SplittableRandom(id);
                try (end) {
                    for (int seq = 0; seq < records; seq++) {
                        int len = 3 + rnd.nextInt(Pipe.PIPE_BUF - 2);
                        ByteBuffer head = ByteBuffer.allocate(3).put((byte) (len >> 8)).put((byte) len)
                                .put((byte) id).flip();
                        int cut = rnd.nextInt(len - 3 + 1);
                        ByteBuffer body1 = ByteBuffer.allocateDirect(cut);
                        ByteBuffer body2 = ByteBuffer.allocate(len - 3 - cut);
                        while (body1.hasRemaining()) {
                            body1.put((byte) seq);
                        }
                        Arrays.fill(body2.array(), (byte) seq);
                        body1.flip();
                        long n = end.write(new ByteBuffer[] {head, body1, body2});
                        if (n != len) {
                            throw new AssertionError("short gathering write " + n + " of " + len);
                        }
                    }
                }
            }));
        }
        InputStream in = p.reader().asInputStream();
        int[] nextSeq = new int[writers];
        byte[] body = new byte[Pipe.PIPE_BUF];
        for (int r = 0; r < writers * records; r++) {
            int hi = in.read();
            int lo = in.read();
            int id = in.read();
            assertThat(id).as("record %d: writer id", r).isBetween(0, writers - 1);
            int len = (hi << 8) | lo;
            assertThat(len).as("record %d: length", r).isBetween(3, Pipe.PIPE_BUF);
            int got = in.readNBytes(body, 0, len - 3);
            assertThat(got).isEqualTo(len - 3);
            byte expected = (byte) nextSeq[id];
            for (int i = 0; i < len - 3; i++) {
                if (body[i] != expected) {
                    throw new AssertionError("record " + r + " from writer " + id + " seq " + nextSeq[id]
                            + " is torn at byte " + i + " of " + (len - 3) + ": " + body[i]);
                }
            }
            nextSeq[id]++;
        }
        assertThat(in.read()).isEqualTo(-1);
        for (var h : helpers) {
            h.join();
        }
        assertThat(nextSeq).containsOnly(records);
    }

    // ---- blocking without pinning -------------------------------------------------------------------

    /**
     * More virtual threads than carriers block in reads and writes; a further pair of threads must still
     * get carriers and finish an exchange. A blocking path that pinned its carrier would starve them.
     * The parameter is the kind of the exchange's peer; the blocked threads are virtual by construction.
     */
    @ParameterizedTest
    @EnumSource(ThreadKind.class)
    void virtualThreadsBlockedInReadsAndWritesLeaveTheCarriersFree(ThreadKind kind) throws Exception {
        int each = 2 * Runtime.getRuntime().availableProcessors();
        List<Pipe> pipes = new ArrayList<>();
        List<FeatureSupport.Helper<Integer>> blocked = new ArrayList<>();
        for (int i = 0; i < each; i++) {
            Pipe r = open();
            pipes.add(r);
            blocked.add(ThreadKind.VIRTUAL.call("blocked-reader-" + i, () -> r.reader().read(new byte[16])));
            Pipe w = open(options().capacity(Pipe.PAGE_SIZE).build());
            pipes.add(w);
            blocked.add(ThreadKind.VIRTUAL.call("blocked-writer-" + i,
                    () -> w.writer().write(new byte[2 * Pipe.PAGE_SIZE])));
        }
        for (var b : blocked) {
            b.awaitBlocked();
        }

        Pipe ping = open();
        Pipe pong = open();
        var echo = kind.call("echo", () -> {
            byte[] b = new byte[1];
            for (int i = 0; i < 100; i++) {
                ping.reader().read(b);
                pong.writer().write(b);
            }
            return 100;
        });
        var driver = ThreadKind.VIRTUAL.call("driver", () -> {
            byte[] b = new byte[1];
            for (int i = 0; i < 100; i++) {
                ping.writer().write(new byte[] {(byte) i});
                if (pong.reader().read(b) != 1 || b[0] != (byte) i) {
                    throw new AssertionError("echo " + i + " came back as " + b[0]);
                }
            }
            return 100;
        });
        assertThat(driver.join()).isEqualTo(100);
        assertThat(echo.join()).isEqualTo(100);
        assertThat(blocked).allSatisfy(b -> assertThat(b.isDone()).as("still blocked").isFalse());

        for (int i = 0; i < each; i++) {
            pipes.get(2 * i).writer().write(new byte[] {1});
            Pipe w = pipes.get(2 * i + 1);
            byte[] sink = new byte[2 * Pipe.PAGE_SIZE];
            int got = 0;
            while (got < sink.length) {
                got += w.reader().read(sink, got, sink.length - got);
            }
        }
        for (int i = 0; i < blocked.size(); i++) {
            assertThat(blocked.get(i).join()).isEqualTo(i % 2 == 0 ? 1 : 2 * Pipe.PAGE_SIZE);
        }
    }

    /** JFR's pinning event, with no threshold, collected for the duration of {@code body}. */
    private static List<RecordedEvent> pinnedEventsDuring(FeatureSupport.VoidBody body) throws Exception {
        ConcurrentLinkedQueue<RecordedEvent> events = new ConcurrentLinkedQueue<>();
        try (RecordingStream rs = new RecordingStream()) {
            rs.enable("jdk.VirtualThreadPinned").withThreshold(Duration.ZERO).withStackTrace();
            rs.onEvent("jdk.VirtualThreadPinned", events::add);
            rs.startAsync();
            body.run();
            rs.stop(); // waits until every event recorded so far has been delivered
        }
        return new ArrayList<>(events);
    }

    /**
     * A virtual thread reads 256 KiB through a one-page pipe from a peer of the given kind, then a virtual
     * thread writes 256 KiB to a peer reader, so both block many times (reader on empty, writer on full)
     * while JFR watches for {@code jdk.VirtualThreadPinned}: there must be none. On JDK 24+ monitors no
     * longer pin, so this catches the remaining causes (a native frame on the stack);
     * {@link #theLibraryUsesNoMonitorsAndNoObjectWait} covers monitors for Java 21, and
     * {@link #theJfrPinningProbeSeesABlockingReadInsideAClassInitializer} shows the probe does see pinning.
     */
    @ParameterizedTest
    @EnumSource(ThreadKind.class)
    void blockingReadsAndWritesOfVirtualThreadsRecordNoPinning(ThreadKind peer) throws Exception {
        Pipe p = open(options().capacity(Pipe.PAGE_SIZE).build());
        byte[] data = randomBytes(64 * Pipe.PAGE_SIZE + 123, 8);
        List<RecordedEvent> pinned = pinnedEventsDuring(() -> {
            // A virtual reader against a writer of the other kind, then a virtual writer against a reader.
            var vreader = ThreadKind.VIRTUAL.call("vreader", () -> FeatureSupport.readFully(p.reader(), data.length));
            vreader.awaitBlocked(); // on the empty pipe
            var writer = peer.call("writer", () -> p.writer().write(data));
            assertThat(vreader.join()).isEqualTo(data);
            assertThat(writer.join()).isEqualTo(data.length);

            var vwriter = ThreadKind.VIRTUAL.call("vwriter", () -> p.writer().write(data));
            vwriter.awaitBlocked(); // on the full pipe
            var reader = peer.call("reader", () -> FeatureSupport.readFully(p.reader(), data.length));
            assertThat(reader.join()).isEqualTo(data);
            assertThat(vwriter.join()).isEqualTo(data.length);
            assertThat(p.counters().readerWaits()).as("readers did block").isPositive();
            assertThat(p.counters().writerWaits()).as("writers did block").isPositive();
        });
        assertThat(pinned).as("pinned virtual threads: %s", pinned).isEmpty();
    }

    static volatile Pipe classInitPipe;

    /** Its initializer blocks in a pipe read: a virtual thread running it is pinned (a VM call on the stack). */
    static final class ReadsInItsInitializer {
        static final int READ;

        static {
            try {
                READ = classInitPipe.reader().read(new byte[1]);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }

        private ReadsInItsInitializer() {
        }
    }

    /**
     * The positive control for the JFR probe: a blocking read inside a class initializer does pin, and the
     * event's stack shows the pipe's wait queue. Virtual only, since only virtual threads can be pinned;
     * a class initializes once, so this works once per JVM.
     */
    @Test
    void theJfrPinningProbeSeesABlockingReadInsideAClassInitializer() throws Exception {
        assume(Capability.ENGINE_WAITS); // looks for the wait queue's frames in the pinned stack
        Assumptions.assumeTrue(pipes == TestPipes.reference(), "a class initializes once per JVM: one configuration");
        classInitPipe = open();
        List<RecordedEvent> pinned = pinnedEventsDuring(() -> {
            var v = ThreadKind.VIRTUAL.call("pinned", () -> ReadsInItsInitializer.READ);
            v.awaitBlocked();
            classInitPipe.writer().write(new byte[] {1});
            assertThat(v.join()).isEqualTo(1);
        });
        assertThat(pinned).isNotEmpty();
        assertThat(pinned.get(0).getStackTrace().getFrames())
                .anySatisfy(f -> assertThat(f.getMethod().getType().getName()).startsWith("dev.sluice.internal.sync"));
    }

    /**
     * The stronger, static form of "never pins": no class of the library uses a monitor
     * ({@code synchronized} methods or blocks) or {@code Object.wait}/{@code notify}. Checked in the
     * bytecode with {@code javap}, so it covers code that no test happens to reach.
     */
    @Test
    void theLibraryUsesNoMonitorsAndNoObjectWait() throws IOException, URISyntaxException {
        Path classes = Path.of(Pipe.class.getProtectionDomain().getCodeSource().getLocation().toURI());
        org.junit.jupiter.api.Assumptions.assumeTrue(Files.isDirectory(classes),
                "the core's classes come from a jar here; the core's own build checks them");
        List<Path> files;
        try (Stream<Path> s = Files.walk(classes)) {
            files = s.filter(f -> f.toString().endsWith(".class")).toList();
        }
        assertThat(files).as("library classes found in %s", classes).hasSizeGreaterThan(10)
                .anySatisfy(f -> assertThat(f.getFileName().toString()).isEqualTo("WaitQueue.class"));
        ToolProvider javap = ToolProvider.findFirst("javap").orElseThrow();
        List<String> args = new ArrayList<>(List.of("-c", "-p"));
        files.forEach(f -> args.add(f.toString()));
        StringWriter out = new StringWriter();
        int rc = javap.run(new PrintWriter(out), new PrintWriter(out), args.toArray(String[]::new));
        assertThat(rc).as("javap: %s", out).isZero();
        List<String> offences = new ArrayList<>();
        String currentClass = "?";
        int classesSeen = 0;
        for (String line : out.toString().split("\n")) {
            if (line.startsWith("Compiled from")) {
                classesSeen++;
            } else if (!line.startsWith(" ") && line.endsWith("{")) {
                currentClass = line;
            }
            if (line.contains("monitorenter") || line.matches(".*\\bsynchronized\\b.*\\(.*")
                    || line.contains("java/lang/Object.wait") || line.contains("java/lang/Object.notify")) {
                offences.add(currentClass + ": " + line.trim());
            }
        }
        assertThat(classesSeen).as("classes disassembled").isEqualTo(files.size());
        assertThat(offences).isEmpty();
    }
}
