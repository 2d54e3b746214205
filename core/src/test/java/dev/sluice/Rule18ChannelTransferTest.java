package dev.sluice;

import dev.sluice.testing.Capability;
import dev.sluice.testing.Requires;

import static dev.sluice.ConformanceSupport.awaitBlockedReading;
import static dev.sluice.ConformanceSupport.awaitBlockedWriting;
import static dev.sluice.ConformanceSupport.pattern;
import static dev.sluice.ConformanceSupport.readFully;
import static dev.sluice.ConformanceSupport.readToEnd;
import static dev.sluice.ConformanceSupport.start;
import static dev.sluice.ConformanceSupport.thrownBy;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.sluice.ConformanceSupport.Running;
import dev.sluice.ConformanceSupport.ThreadKind;
import dev.sluice.testing.ScriptedChannel;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.Channels;
import java.nio.channels.ClosedByInterruptException;
import java.nio.channels.ReadableByteChannel;
import java.nio.channels.FileChannel;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.Arrays;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Rule 18, transfers between a pipe and a byte channel (splice to and from files and sockets; linux-pipe.md
 * §5 "pipe → file", "file → pipe"): the pipe's pages go to the channel with no caller buffer in between,
 * and the channel's bytes land in pipe pages; waits, end-of-stream and broken pipe as reads and writes.
 */
@Timeout(value = 20, unit = TimeUnit.SECONDS)
@Requires(Capability.CHANNEL_TRANSFER)
class Rule18ChannelTransferTest extends ConformanceTest {

    @TempDir
    Path dir;

    @ParameterizedTest
    @EnumSource(PageMemory.class)
    void pipeToFileAndBackByteExact(PageMemory memory) throws Exception {
        Pipe p = open(memory);
        byte[] data = pattern(40000);
        Path file = dir.resolve("out");
        Running<Void> writer = start(ThreadKind.VIRTUAL, () -> {
            p.writer().write(data, 0, 5);
            Splice.gift(p.writer(), ByteBuffer.allocateDirect(9000).put(data, 5, 9000).flip());
            p.writer().write(data, 9005, data.length - 9005);
            p.writer().close();
            return null;
        });
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.WRITE)) {
            long total = 0;
            for (long n; (n = Splice.transferTo(p.reader(), ch, 7000)) != -1; ) {
                assertThat(n).isBetween(1L, 7000L);
                total += n;
            }
            assertThat(total).isEqualTo(data.length);
        }
        writer.join();
        assertThat(Files.readAllBytes(file)).isEqualTo(data);

        Pipe q = open(memory);
        Running<byte[]> reader = start(ThreadKind.PLATFORM, () -> readToEnd(q.reader()));
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.READ)) {
            long total = 0;
            for (long n; (n = Splice.transferFrom(ch, q.writer(), 10000)) != -1; ) {
                total += n;
            }
            assertThat(total).isEqualTo(data.length);
        }
        q.writer().close();
        assertThat(reader.join()).isEqualTo(data);
    }

    @ParameterizedTest
    @EnumSource(PageMemory.class)
    void pipeToSocketAndSocketToPipe(PageMemory memory) throws Exception {
        try (ServerSocketChannel server = ServerSocketChannel.open()) {
            server.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
            try (SocketChannel client = SocketChannel.open(server.getLocalAddress());
                 SocketChannel accepted = server.accept()) {
                Pipe in = open(memory);
                Pipe out = open(memory);
                byte[] data = pattern(100_000);
                Running<Void> feeder = start(ThreadKind.VIRTUAL, () -> {
                    in.writer().write(data);
                    in.writer().close();
                    return null;
                });
                Running<Void> pump = start(ThreadKind.VIRTUAL, () -> { // socket -> pipe
                    while (Splice.transferFrom(accepted, out.writer(), 64 * 1024) != -1) {
                        // keep going until the client shuts its output
                    }
                    out.writer().close();
                    return null;
                });
                Running<byte[]> reader = start(ThreadKind.VIRTUAL, () -> readToEnd(out.reader()));
                while (Splice.transferTo(in.reader(), client, 64 * 1024) != -1) {
                    // pipe -> socket
                }
                client.shutdownOutput();
                feeder.join();
                pump.join();
                assertThat(reader.join()).isEqualTo(data);
            }
        }
    }

    @Test
    void transferToTakesWholeSlotsAndCutsOnlyAFirstOneTooBig() throws Exception {
        Pipe p = open();
        p.writer().write(pattern(5000)); // slots of 4096 and 904
        ByteArrayOutputStream sink = new ByteArrayOutputStream();
        var ch = Channels.newChannel(sink);
        assertThat(Splice.transferTo(p.reader(), ch, 100)).isEqualTo(100);
        assertThat(Splice.transferTo(p.reader(), ch, 4000)).as("the rest of the first slot").isEqualTo(3996);
        assertThat(Splice.transferTo(p.reader(), ch, 4000)).isEqualTo(904);
        assertThat(sink.toByteArray()).isEqualTo(pattern(5000));
        p.writer().write(pattern(3)); // the shared first page went back to the pool: still byte-exact
        assertThat(readFully(p.reader(), 3)).isEqualTo(pattern(3));
    }

    @Test
    void endOfStreamNonBlockingAndBrokenPipe() throws Exception {
        Pipe p = open();
        var sink = Channels.newChannel(new ByteArrayOutputStream());
        p.reader().setNonBlocking(true);
        assertThat(Splice.transferTo(p.reader(), sink, 10)).isZero();
        p.writer().close();
        assertThat(Splice.transferTo(p.reader(), sink, 10)).isEqualTo(-1);
        assertThat(Splice.transferTo(p.reader(), sink, 0)).isZero();

        Pipe q = open(options().capacity(4096).build());
        q.writer().write(pattern(1));
        q.writer().setNonBlocking(true);
        var source = Channels.newChannel(new ByteArrayInputStream(pattern(10)));
        assertThat(Splice.transferFrom(source, q.writer(), 10)).as("full: the channel is not touched").isZero();
        assertThat(source.read(ByteBuffer.allocate(10))).isEqualTo(10);

        Pipe r = open();
        r.reader().close();
        thrownBy(BrokenPipeException.class, () -> Splice.transferFrom(
                Channels.newChannel(new ByteArrayInputStream(pattern(10))), r.writer(), 10));
        assertThat(Splice.transferFrom(Channels.newChannel(new ByteArrayInputStream(new byte[0])), open().writer(), 10))
                .isEqualTo(-1);
    }

    @Test
    void badInputIsRefused() throws Exception {
        Pipe p = open();
        p.writer().write(pattern(10));
        assertThatThrownBy(() -> Splice.transferTo(p.reader(), null, 10)).isInstanceOf(NullPointerException.class);
        assertThatThrownBy(() -> Splice.transferTo(p.reader(), Channels.newChannel(new ByteArrayOutputStream()), -1))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> Splice.transferFrom(null, p.writer(), 10)).isInstanceOf(NullPointerException.class);
        assertThatThrownBy(() -> Splice.transferTo(Rule15SpliceTest.foreignReader(),
                Channels.newChannel(new ByteArrayOutputStream()), 1)).isInstanceOf(IllegalArgumentException.class);
        assertThat(Arrays.equals(readFully(p.reader(), 10), pattern(10))).isTrue();
    }

    // ---- a failing channel loses nothing: what it did not take stays in the pipe, first in line ---------

    @ParameterizedTest
    @EnumSource(PageMemory.class)
    void aChannelThatFailsPartWayLeavesTheRestInThePipeInOrder(PageMemory memory) throws Exception {
        Pipe p = open(memory);
        byte[] data = pattern(10_000); // slots of 4096, 4096, 1808
        p.writer().write(data);
        ScriptedChannel ch = ScriptedChannel.failingAfter(5_000, 3_000); // takes 3000, 2000, then fails

        PartialTransferException e = thrownBy(PartialTransferException.class,
                () -> Splice.transferTo(p.reader(), ch, Long.MAX_VALUE));

        assertThat(e.bytesTransferred()).isEqualTo(5_000);
        assertThat(e.getCause()).hasMessage("disk full");
        assertThat(ch.bytes()).isEqualTo(Arrays.copyOf(data, 5_000));
        assertThat(p.stat().bytesQueued()).isEqualTo(5_000);
        assertThat(p.counters().bytesRead()).isEqualTo(5_000);
        assertThat(readFully(p.reader(), 5_000)).as("the rest, first in line").isEqualTo(
                Arrays.copyOfRange(data, 5_000, 10_000));
        p.writer().write(pattern(3)); // the partly taken pages went back to the pool intact
        assertThat(readFully(p.reader(), 3)).isEqualTo(pattern(3));
    }

    @Test
    void aChannelThatFailsAtOnceLeavesThePipeAsItWas() throws Exception {
        Pipe p = open();
        byte[] data = pattern(10_000);
        p.writer().write(data);
        IOException own = new IOException("refused");
        ScriptedChannel ch = new ScriptedChannel(0, 4096, () -> own);
        int slots = p.stat().slotsUsed();

        assertThat(thrownBy(IOException.class, () -> Splice.transferTo(p.reader(), ch, 7_000)))
                .as("the channel's own exception: nothing moved").isSameAs(own);

        assertThat(p.stat().bytesQueued()).isEqualTo(data.length);
        assertThat(p.stat().slotsUsed()).isEqualTo(slots);
        assertThat(p.counters().bytesRead()).isZero();
        assertThat(readFully(p.reader(), data.length)).isEqualTo(data);
    }

    @Test
    void aChannelThatTakesBytesAndThenThrowsCountsThem() throws Exception {
        // As a JDK channel interrupted in a write: the buffer moved, then the exception.
        Pipe p = open();
        byte[] data = pattern(9_000);
        p.writer().write(data);
        ScriptedChannel ch = ScriptedChannel.interruptedAfter(6_000, 6_000).takeThenThrow();

        InterruptedIOException e = thrownBy(InterruptedIOException.class,
                () -> Splice.transferTo(p.reader(), ch, Long.MAX_VALUE));

        assertThat(e.bytesTransferred).isEqualTo(6_000);
        assertThat(ch.bytes()).isEqualTo(Arrays.copyOf(data, 6_000));
        assertThat(readFully(p.reader(), 3_000)).isEqualTo(Arrays.copyOfRange(data, 6_000, 9_000));
    }

    @Test
    void anInterruptedFileChannelLeavesThePipeAsItWas() throws Exception {
        Pipe p = open();
        byte[] data = pattern(20_000);
        p.writer().write(data);
        try (FileChannel ch = FileChannel.open(dir.resolve("interrupted"), StandardOpenOption.CREATE,
                StandardOpenOption.WRITE)) {
            Thread.currentThread().interrupt(); // the channel closes itself and throws before writing
            try {
                thrownBy(ClosedByInterruptException.class, () -> Splice.transferTo(p.reader(), ch, Long.MAX_VALUE));
            } finally {
                Thread.interrupted();
            }
        }
        assertThat(readFully(p.reader(), data.length)).isEqualTo(data);
    }

    @Test
    void aNonBlockingChannelTakesWhatFitsAndTheRestStays() throws Exception {
        Pipe p = open(options().capacity(512 * 1024).maxCapacity(512 * 1024).build());
        byte[] data = pattern(400_000); // more than a kernel pipe holds
        p.writer().write(data);
        java.nio.channels.Pipe nio = java.nio.channels.Pipe.open();
        try (var sink = nio.sink(); var source = nio.source()) {
            sink.configureBlocking(false);
            long first = Splice.transferTo(p.reader(), sink, Long.MAX_VALUE);
            assertThat(first).as("what the kernel pipe took").isBetween(1L, data.length - 1L);
            assertThat(Splice.transferTo(p.reader(), sink, Long.MAX_VALUE)).as("full: takes nothing").isZero();
            assertThat(p.stat().bytesQueued()).isEqualTo(data.length - first);

            ByteBuffer got = ByteBuffer.allocate((int) first);
            while (got.hasRemaining()) {
                source.read(got);
            }
            assertThat(got.array()).isEqualTo(Arrays.copyOf(data, (int) first));
            assertThat(readFully(p.reader(), (int) (data.length - first)))
                    .isEqualTo(Arrays.copyOfRange(data, (int) first, data.length));
        }
    }

    // ---- while the channel writes, the pipe is held for reading ----------------------------------------

    @ParameterizedTest
    @EnumSource(ThreadKind.class)
    void whileAChannelWritesOtherReadersWaitAndThenGetTheRestFirst(ThreadKind kind) throws Exception {
        Pipe p = open();
        Pipe other = open();
        byte[] data = pattern(10_000);
        p.writer().write(data);
        ScriptedChannel ch = ScriptedChannel.failingAfter(3_000, 3_000).pauseAt(3_000);
        Running<Throwable> transfer = start(kind, () -> {
            try {
                Splice.transferTo(p.reader(), ch, Long.MAX_VALUE);
                return null;
            } catch (IOException e) {
                return e;
            }
        });
        ch.awaitPaused(); // the channel has taken 3000 bytes and is still writing
        ReadEnd nonBlocking = p.reader().reopen(); // a description of its own: a dup would share the mode
        nonBlocking.setNonBlocking(true);
        assertThat(nonBlocking.read(new byte[100])).as("EAGAIN while held").isZero();
        assertThat(nonBlocking.poll().readable()).isFalse();
        assertThat(nonBlocking.available()).as("the bytes are still in the pipe").isEqualTo(data.length);
        assertThat(Splice.splice(nonBlocking, other.writer(), 100)).isZero();
        assertThat(Splice.tee(nonBlocking, other.writer(), 100)).isZero();
        assertThat(Splice.transferTo(nonBlocking, ScriptedChannel.collecting(10), 100)).isZero();
        ReadEnd timed = p.reader().dup();
        timed.setTimeout(Duration.ofMillis(20));
        thrownBy(PipeTimeoutException.class, () -> timed.read(new byte[100]));

        long waits = p.counters().readerWaits();
        Running<byte[]> reader = start(kind, () -> readFully(p.reader(), 7_000 + 500));
        awaitBlockedReading(reader.thread(), p, waits + 1);
        byte[] more = ConformanceSupport.filled(500, 7);
        assertThat(p.writer().write(more)).as("writers are not held up").isEqualTo(500);
        assertThat(reader.isDone()).isFalse();

        ch.resume();
        assertThat(transfer.join()).isInstanceOf(PartialTransferException.class)
                .satisfies(t -> assertThat(((PartialTransferException) t).bytesTransferred()).isEqualTo(3_000));
        byte[] rest = reader.join();
        assertThat(Arrays.copyOf(rest, 7_000)).as("the bytes the channel did not take, first")
                .isEqualTo(Arrays.copyOfRange(data, 3_000, 10_000));
        assertThat(Arrays.copyOfRange(rest, 7_000, 7_500)).isEqualTo(more);
        assertThat(ch.bytes()).isEqualTo(Arrays.copyOf(data, 3_000));
    }

    @ParameterizedTest
    @EnumSource(ThreadKind.class)
    void aReaderHeldOffByATransferCanBeInterruptedOrClosedAndReadinessWaitsForTheEnd(ThreadKind kind)
            throws Exception {
        Pipe p = open();
        byte[] data = pattern(5_000);
        p.writer().write(data);
        ScriptedChannel ch = ScriptedChannel.collecting(500).pauseAt(500);
        Running<Long> transfer = start(kind, () -> Splice.transferTo(p.reader(), ch, 1_000));
        ch.awaitPaused();
        var whenReady = p.reader().whenReady();
        assertThat(whenReady).as("held: not readable").isNotDone();

        long waits = p.counters().readerWaits();
        Running<Integer> interrupted = start(kind, () -> p.reader().read(new byte[10]));
        awaitBlockedReading(interrupted.thread(), p, waits + 1);
        interrupted.thread().interrupt();
        assertThat(interrupted.failure()).isInstanceOf(InterruptedIOException.class);

        ReadEnd own = p.reader().dup();
        Running<Integer> closed = start(kind, () -> own.read(new byte[10]));
        awaitBlockedReading(closed.thread(), p, waits + 2);
        own.close();
        assertThat(closed.failure()).isInstanceOf(java.nio.channels.AsynchronousCloseException.class);

        ch.resume();
        assertThat(transfer.join()).isEqualTo(1_000);
        assertThat(ch.bytes()).isEqualTo(Arrays.copyOf(data, 1_000));
        assertThat(whenReady).as("readable again once the transfer let go").isDone();
        assertThat(whenReady.get().readable()).isTrue();
        assertThat(readFully(p.reader(), 4_000)).isEqualTo(Arrays.copyOfRange(data, 1_000, 5_000));
    }

    @ParameterizedTest
    @EnumSource(ThreadKind.class)
    void aHeldPipeWithNoWritersLeftIsNeitherReadableNorHungUpUntilTheTransferLetsGo(ThreadKind kind)
            throws Exception {
        Pipe p = open();
        byte[] data = pattern(5_000);
        p.writer().write(data);
        p.writer().close(); // end-of-stream comes after these 5000 bytes
        ScriptedChannel ch = ScriptedChannel.collecting(500).pauseAt(500);
        Running<Long> transfer = start(kind, () -> Splice.transferTo(p.reader(), ch, 1_000));
        ch.awaitPaused();
        Readiness held = p.reader().poll();
        assertThat(held.readable()).as("held: not readable").isFalse();
        assertThat(held.hungUp()).as("held with data left: not at end-of-stream either").isFalse();
        var whenReady = p.reader().whenReady();
        assertThat(whenReady).isNotDone();

        ch.resume();
        assertThat(transfer.join()).isEqualTo(1_000);
        assertThat(whenReady).as("ready once the transfer let go").isDone();
        assertThat(whenReady.get().readable()).isTrue();
        assertThat(whenReady.get().hungUp()).isTrue();
        assertThat(readFully(p.reader(), 4_000)).isEqualTo(Arrays.copyOfRange(data, 1_000, 5_000));
        Readiness drained = p.reader().poll();
        assertThat(drained.readable()).isFalse();
        assertThat(drained.hungUp()).as("empty and no writers: end-of-stream").isTrue();
    }

    @Test
    void pagesStayIntactForTheChannelEvenIfThePipeIsClosedMeanwhile() throws Exception {
        // The pages come from b's pool by splice. Closing a drains its ring; were the transfer not holding its
        // own references, the pages would go home to b and be overwritten by b's next writes.
        Pipe a = open();
        Pipe b = open();
        byte[] data = pattern(16 * 4096);
        b.writer().write(data);
        assertThat(Splice.splice(b.reader(), a.writer(), Long.MAX_VALUE)).isEqualTo(data.length);
        ScriptedChannel ch = ScriptedChannel.collecting(4096).pauseAt(0);
        Running<Long> transfer = start(ThreadKind.PLATFORM, () -> Splice.transferTo(a.reader(), ch, Long.MAX_VALUE));
        ch.awaitPaused();
        a.reader().close();
        a.writer().close();
        byte[] other = ConformanceSupport.filled(16 * 4096, 0x5A);
        for (int i = 0; i < 4; i++) { // cycle b's pool: any page returned to it gets overwritten
            b.writer().write(other);
            assertThat(readFully(b.reader(), other.length)).isEqualTo(other);
        }
        ch.resume();
        assertThat(transfer.join()).isEqualTo(data.length);
        assertThat(ch.bytes()).isEqualTo(data);
    }

    // ---- from a channel: room is reserved first, so what is read is stored ------------------------------

    @ParameterizedTest
    @EnumSource(ThreadKind.class)
    void transferFromReservesRoomBeforeItReadsTheChannel(ThreadKind kind) throws Exception {
        Pipe p = open(options().capacity(4 * 4096).build());
        byte[] fromChannel = pattern(2 * 4096);
        PausingSource source = new PausingSource(fromChannel);
        Running<Long> transfer = start(kind, () -> Splice.transferFrom(source, p.writer(), 2 * 4096));
        source.entered.await();

        WriteEnd w = p.writer().reopen(); // a description of its own: a dup would share the mode
        w.setNonBlocking(true);
        byte[] other = ConformanceSupport.filled(4 * 4096, 9);
        assertThat(w.write(other)).as("two of four slots are promised to the transfer").isEqualTo(2 * 4096);
        assertThat(w.poll().writable()).isFalse();
        assertThat(p.capacity()).as("the capacity is what the pipe was sized to").isEqualTo(4 * 4096);
        assertThat(p.stat().capacity()).isEqualTo(4 * 4096);
        assertThatThrownBy(() -> p.setCapacity(2 * 4096)).as("EBUSY: data and reserved room")
                .isInstanceOf(IllegalStateException.class);
        assertThat(p.capacity()).isEqualTo(4 * 4096);

        source.release.countDown();
        assertThat(transfer.join()).isEqualTo(2 * 4096);
        assertThat(readFully(p.reader(), 2 * 4096)).isEqualTo(Arrays.copyOf(other, 2 * 4096));
        assertThat(readFully(p.reader(), 2 * 4096)).isEqualTo(fromChannel);
        assertThat(w.write(other)).as("all four slots free again").isEqualTo(4 * 4096);
    }

    @Test
    void unusedReservedRoomIsGivenBackAndWakesAWriter() throws Exception {
        Pipe p = open(options().capacity(2 * 4096).build());
        PausingSource source = new PausingSource(pattern(100)); // reserves 2 slots, fills 100 bytes of one
        Running<Long> transfer = start(ThreadKind.PLATFORM, () -> Splice.transferFrom(source, p.writer(), 2 * 4096));
        source.entered.await();
        long waits = p.counters().writerWaits();
        Running<Integer> writer = start(ThreadKind.VIRTUAL, () -> p.writer().write(pattern(4096)));
        awaitBlockedWriting(writer.thread(), p, waits + 1);
        source.release.countDown();
        assertThat(transfer.join()).isEqualTo(100);
        assertThat(writer.join()).as("woken by the slot given back").isEqualTo(4096);
        assertThat(readFully(p.reader(), 100)).isEqualTo(pattern(100));
        assertThat(readFully(p.reader(), 4096)).isEqualTo(pattern(4096));
    }

    @Test
    void transferFromStoresWhatTheChannelGaveBeforeItFailed() throws Exception {
        Pipe p = open();
        byte[] data = pattern(5_000);
        ReadableByteChannel failing = new ReadableByteChannel() {
            @Override
            public int read(ByteBuffer dst) throws IOException {
                dst.put(data, 0, Math.min(dst.remaining(), data.length));
                throw new IOException("connection reset"); // after moving the buffer, as an interrupted read can
            }

            @Override
            public boolean isOpen() {
                return true;
            }

            @Override
            public void close() {
            }
        };
        PartialTransferException e = thrownBy(PartialTransferException.class,
                () -> Splice.transferFrom(failing, p.writer(), 10_000));
        assertThat(e.bytesTransferred()).as("one page: a plain channel gets one buffer").isEqualTo(4096);
        assertThat(readFully(p.reader(), 4096)).isEqualTo(Arrays.copyOf(data, 4096));

        IOException own = new IOException("refused");
        ReadableByteChannel refusing = Channels.newChannel(new java.io.InputStream() {
            @Override
            public int read() throws IOException {
                throw own;
            }
        });
        assertThat(thrownBy(IOException.class, () -> Splice.transferFrom(refusing, p.writer(), 10))).isSameAs(own);
        assertThat(p.stat().bytesQueued()).isZero();
        assertThat(p.writer().write(pattern(4 * 4096))).as("no room left reserved").isEqualTo(4 * 4096);
    }

    @Test
    void bytesReadWhileTheLastReaderOrWriterClosesAreDroppedAndSaidSo() throws Exception {
        Pipe p = open();
        PausingSource source = new PausingSource(pattern(100));
        Running<Long> transfer = start(ThreadKind.PLATFORM, () -> Splice.transferFrom(source, p.writer(), 100));
        source.entered.await();
        p.reader().close();
        source.release.countDown();
        assertThat(transfer.failure()).isInstanceOf(BrokenPipeException.class).hasMessageContaining("100 bytes");

        Pipe q = open();
        PausingSource again = new PausingSource(pattern(100));
        Running<Long> last = start(ThreadKind.PLATFORM, () -> Splice.transferFrom(again, q.writer(), 100));
        again.entered.await();
        q.writer().close(); // the last write end: the reader may already see end-of-stream
        assertThat(q.reader().read(new byte[10])).isEqualTo(-1);
        again.release.countDown();
        assertThat(last.failure()).isInstanceOf(java.nio.channels.AsynchronousCloseException.class);
        assertThat(q.reader().read(new byte[10])).as("nothing after end-of-stream").isEqualTo(-1);

        Pipe r = open();
        WriteEnd spare = r.writer().dup();
        PausingSource third = new PausingSource(pattern(100));
        Running<Long> stored = start(ThreadKind.PLATFORM, () -> Splice.transferFrom(third, r.writer(), 100));
        third.entered.await();
        r.writer().close(); // another write end remains: no end-of-stream, so the bytes are kept
        third.release.countDown();
        assertThat(stored.join()).isEqualTo(100);
        spare.close();
        assertThat(readToEnd(r.reader())).isEqualTo(pattern(100));
    }

    /** A scattering source whose read parks until released, then gives its bytes. */
    private static final class PausingSource implements java.nio.channels.ScatteringByteChannel {
        final java.util.concurrent.CountDownLatch entered = new java.util.concurrent.CountDownLatch(1);
        final java.util.concurrent.CountDownLatch release = new java.util.concurrent.CountDownLatch(1);
        private final ByteBuffer data;

        PausingSource(byte[] data) {
            this.data = ByteBuffer.wrap(data);
        }

        @Override
        public long read(ByteBuffer[] dsts, int offset, int length) throws IOException {
            entered.countDown();
            try {
                release.await();
            } catch (InterruptedException e) {
                throw new InterruptedIOException();
            }
            long n = 0;
            for (int i = offset; i < offset + length && data.hasRemaining(); i++) {
                int k = Math.min(dsts[i].remaining(), data.remaining());
                dsts[i].put(data.slice(data.position(), k));
                data.position(data.position() + k);
                n += k;
            }
            return n == 0 && !data.hasRemaining() ? -1 : n;
        }

        @Override
        public long read(ByteBuffer[] dsts) throws IOException {
            return read(dsts, 0, dsts.length);
        }

        @Override
        public int read(ByteBuffer dst) throws IOException {
            return (int) read(new ByteBuffer[] {dst}, 0, 1);
        }

        @Override
        public boolean isOpen() {
            return true;
        }

        @Override
        public void close() {
        }
    }
}
