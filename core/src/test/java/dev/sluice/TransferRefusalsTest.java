package dev.sluice;

import static dev.sluice.ConformanceSupport.pattern;
import static dev.sluice.ConformanceSupport.readFully;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.sluice.ConformanceSupport.Running;
import dev.sluice.ConformanceSupport.ThreadKind;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.AsynchronousCloseException;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.FileChannel;
import java.nio.channels.NonReadableChannelException;
import java.nio.channels.NonWritableChannelException;
import java.nio.channels.WritableByteChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Transfers between an in-process pipe and a channel, tried as a hostile caller would: a channel that is
 * itself a pipe end (nonblocking and full, or of the very same pipe), a channel that takes nothing, sizes near
 * {@code Long.MAX_VALUE}, and channels that refuse the call. Each case ends (nothing spins or waits for
 * good), and a refused call leaves the pipe, its counters and its pool as they were.
 */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class TransferRefusalsTest {

    /** A full pipe whose write end is nonblocking takes nothing: the transfer returns instead of spinning. */
    @Test
    void aTransferIntoANonblockingFullPipeEndReturns() throws Exception {
        Pipe a = Pipe.open();
        Pipe b = Pipe.open();
        byte[] data = pattern(10_000);
        a.writer().write(data);
        b.writer().setNonBlocking(true);
        while (b.writer().write(new byte[4096]) > 0) {
            // fill b
        }
        Running<Long> t = ConformanceSupport.start(ThreadKind.PLATFORM,
                () -> Splice.transferTo(a.reader(), b.writer(), data.length));
        assertThat(t.join()).as("a full nonblocking pipe end took nothing").isZero();
        assertThat(a.reader().available()).as("every byte is still in the source").isEqualTo(data.length);
        a.reader().setNonBlocking(true);
        assertThat(readFully(a.reader(), data.length)).as("and readable by others: the hold is gone").isEqualTo(data);
    }

    /** A channel that always takes nothing: the transfer waits for it, and an interrupt ends the wait. */
    @ParameterizedTest
    @EnumSource(ThreadKind.class)
    void aChannelThatTakesNothingIsLeftOnInterrupt(ThreadKind kind) throws Exception {
        Pipe a = Pipe.open();
        a.writer().write(pattern(100));
        Running<Long> t = ConformanceSupport.start(kind, () -> Splice.transferTo(a.reader(), new Stuck(), 100));
        ConformanceSupport.awaitCondition("the transfer holds the pipe", () -> !a.reader().poll().readable());
        t.thread().interrupt();
        assertThat(t.failure()).isInstanceOf(PipeInterruptedException.class);
        assertThat(t.interruptedAtEnd()).as("the stream convention: the status stays set").isTrue();
        assertThat(a.reader().available()).isEqualTo(100);
        assertThat(a.reader().poll().readable()).as("the hold is given up").isTrue();
    }

    /** ... and so do a close of the transfer's own read handle and the handle's timeout. */
    @Test
    void aChannelThatTakesNothingIsLeftOnCloseAndTimeout() throws Exception {
        Pipe a = Pipe.open();
        a.writer().write(pattern(100));
        ReadEnd dup = a.reader().dup();
        Running<Long> t = ConformanceSupport.start(ThreadKind.VIRTUAL, () -> Splice.transferTo(dup, new Stuck(), 100));
        ConformanceSupport.awaitCondition("the transfer holds the pipe", () -> !a.reader().poll().readable());
        dup.close();
        assertThat(t.failure()).isInstanceOf(AsynchronousCloseException.class);
        a.reader().setTimeout(Duration.ofMillis(20));
        assertThatThrownBy(() -> Splice.transferTo(a.reader(), new Stuck(), 100))
                .isInstanceOf(PipeTimeoutException.class);
        assertThat(a.reader().available()).isEqualTo(100);
    }

    /** An end of the very same pipe as the channel would wait for itself: refused, as splice refuses it. */
    @Test
    void aTransferBetweenAPipeAndItsOwnEndIsRefused() throws Exception {
        Pipe p = Pipe.open();
        p.writer().write(pattern(100));
        WriteEnd dupWriter = p.writer().dup();
        ReadEnd dupReader = p.reader().dup();
        PipeCounters before = p.counters();
        assertThatThrownBy(() -> Splice.transferTo(p.reader(), p.writer(), 100))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("own ends");
        assertThatThrownBy(() -> Splice.transferTo(p.reader(), dupWriter, 100))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> Splice.transferFrom(p.reader(), p.writer(), 100))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("own ends");
        assertThatThrownBy(() -> Splice.transferFrom(dupReader, dupWriter, 100))
                .isInstanceOf(IllegalArgumentException.class);
        assertThat(p.counters()).isEqualTo(before);
        assertThat(p.reader().available()).isEqualTo(100);
    }

    /** maxBytes near Long.MAX_VALUE is "as much as there is room for", not an overflow. */
    @ParameterizedTest
    @ValueSource(longs = {Long.MAX_VALUE, Long.MAX_VALUE - 1, Long.MAX_VALUE - 4095, 1L << 62})
    void transferFromWithAHugeMaximumFillsTheRoom(long max, @TempDir Path dir) throws Exception {
        Pipe p = Pipe.open();
        byte[] data = pattern(100_000);
        long stored;
        try (FileChannel source = FileChannel.open(Files.write(dir.resolve("f"), data), StandardOpenOption.READ)) {
            stored = Splice.transferFrom(source, p.writer(), max);
        }
        assertThat(stored).as("one scattering read of the channel into all the free room").isEqualTo(p.capacity());
        p.reader().setNonBlocking(true);
        assertThat(readFully(p.reader(), (int) stored)).isEqualTo(java.util.Arrays.copyOf(data, (int) stored));
    }

    /** A closed or read-only channel refuses a transfer to it: nothing is counted, nothing leaves the pipe. */
    @Test
    void aRefusedTransferToChangesNothing(@TempDir Path dir) throws Exception {
        Pipe p = Pipe.open();
        p.writer().write(pattern(5000));
        PipeCounters before = p.counters();
        Path f = Files.createFile(dir.resolve("f"));
        FileChannel closed = FileChannel.open(f, StandardOpenOption.WRITE);
        closed.close();
        assertThatThrownBy(() -> Splice.transferTo(p.reader(), closed, 5000))
                .isInstanceOf(ClosedChannelException.class);
        try (FileChannel readOnly = FileChannel.open(f, StandardOpenOption.READ)) {
            assertThatThrownBy(() -> Splice.transferTo(p.reader(), readOnly, 5000))
                    .isInstanceOf(NonWritableChannelException.class);
        }
        assertThat(p.counters()).isEqualTo(before);
        assertThat(p.reader().available()).isEqualTo(5000);
    }

    /** A closed or write-only channel refuses a transfer from it: counters and the page pool as they were. */
    @Test
    void aRefusedTransferFromChangesNothing(@TempDir Path dir) throws Exception {
        Pipe p = Pipe.open();
        PipeCounters before = p.counters();
        Path f = Files.write(dir.resolve("f"), pattern(5000));
        try (FileChannel writeOnly = FileChannel.open(f, StandardOpenOption.WRITE)) {
            assertThatThrownBy(() -> Splice.transferFrom(writeOnly, p.writer(), 1 << 20))
                    .isInstanceOf(NonReadableChannelException.class);
        }
        FileChannel closed = FileChannel.open(f, StandardOpenOption.READ);
        closed.close();
        assertThatThrownBy(() -> Splice.transferFrom(closed, p.writer(), 1 << 20))
                .isInstanceOf(ClosedChannelException.class);
        assertThat(p.counters()).as("calls, bytes, pool hits and pages allocated").isEqualTo(before);
        assertThat(p.stat().bytesQueued()).isZero();
        // The pipe still works, and its pool was not given phantom pages.
        try (FileChannel in = FileChannel.open(f, StandardOpenOption.READ)) {
            assertThat(Splice.transferFrom(in, p.writer(), 5000)).isEqualTo(5000);
        }
        assertThat(p.counters().pagesAllocated()).isEqualTo(2);
    }

    /** A blocking channel that never takes anything. */
    private static final class Stuck implements WritableByteChannel {
        @Override
        public int write(ByteBuffer src) {
            Thread.onSpinWait();
            return 0;
        }

        @Override
        public boolean isOpen() {
            return true;
        }

        @Override
        public void close() throws IOException {
        }
    }
}
