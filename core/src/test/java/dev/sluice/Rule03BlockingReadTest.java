package dev.sluice;

import dev.sluice.testing.Capability;

import static dev.sluice.ConformanceSupport.awaitBlockedReading;
import static dev.sluice.ConformanceSupport.filled;
import static dev.sluice.ConformanceSupport.pattern;
import static dev.sluice.ConformanceSupport.readToEnd;
import static dev.sluice.ConformanceSupport.start;
import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.ConformanceSupport.Running;
import dev.sluice.ConformanceSupport.ThreadKind;
import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Rule 3, Linux {@code pipe_read} (fs/pipe.c; linux-pipe.md §3.2, §4 "blocking read", "EOF"): a blocking
 * read waits while the pipe is empty and has a writer; it returns as soon as it has at least one byte,
 * with what is queued up to the buffer's size (reading across slots, never waiting to fill the buffer).
 * Once every write end is closed, queued data is still read first, then every read returns end-of-stream
 * (-1 here, 0 from read(2)), and blocked readers are all woken to see it.
 */
@Timeout(value = 10, unit = TimeUnit.SECONDS)
class Rule03BlockingReadTest extends ConformanceTest {

    @ParameterizedTest
    @EnumSource(ThreadKind.class)
    void blockedReadReturnsWhatArrivesWithoutWaitingToFillTheBuffer(ThreadKind kind) throws Exception {
        Pipe p = open();
        byte[] buf = new byte[100];
        Running<Integer> reader = start(kind, () -> p.reader().read(buf));
        awaitBlockedReading(reader.thread(), p, 1);
        assertThat(reader.isDone()).as("a read of an empty pipe with a writer waits").isFalse();

        p.writer().write(pattern(10));

        assertThat(reader.join()).as("returns the 10 bytes that are there, not 100").isEqualTo(10);
        assertThat(Arrays.copyOf(buf, 10)).isEqualTo(pattern(10));
    }

    @Test
    void readReturnsAtMostTheBufferAndLeavesTheRest() throws Exception {
        Pipe p = open();
        p.writer().write(pattern(100));
        byte[] buf = new byte[30];
        assertThat(p.reader().read(buf)).isEqualTo(30);
        assertThat(buf).isEqualTo(Arrays.copyOf(pattern(100), 30));
        assertThat(p.reader().available()).isEqualTo(70);
    }

    @Test
    void oneReadTakesDataFromManySlots() throws Exception {
        Pipe p = open();
        byte[] data = pattern(3 * 4096 + 5);
        p.writer().write(data);
        if (has(Capability.OCCUPANCY)) assertThat(p.stat().slotsUsed()).isEqualTo(4);

        byte[] buf = new byte[20000];
        assertThat(p.reader().read(buf)).as("everything queued, across four slots").isEqualTo(data.length);
        assertThat(Arrays.copyOf(buf, data.length)).isEqualTo(data);
    }

    @Test
    void scatteringReadFillsBuffersInOrder() throws Exception {
        Pipe p = open();
        p.writer().write(pattern(10));
        ByteBuffer a = ByteBuffer.allocate(4);
        ByteBuffer b = ByteBuffer.allocate(100);
        assertThat(p.reader().read(new ByteBuffer[] {a, b})).isEqualTo(10);
        assertThat(a.position()).isEqualTo(4);
        assertThat(b.position()).isEqualTo(6);
        byte[] got = new byte[10];
        a.flip().get(got, 0, 4);
        b.flip().get(got, 4, 6);
        assertThat(got).isEqualTo(pattern(10));
    }

    @Test
    void dataWrittenBeforeTheLastWriterClosesIsReadBeforeEndOfStream() throws Exception {
        Pipe p = open();
        p.writer().write(pattern(5));
        p.writer().close();

        byte[] buf = new byte[100];
        assertThat(p.reader().read(buf)).isEqualTo(5);
        assertThat(Arrays.copyOf(buf, 5)).isEqualTo(pattern(5));
        assertThat(p.reader().read(buf)).as("end-of-stream").isEqualTo(-1);
        assertThat(p.reader().read(buf)).as("and it stays so").isEqualTo(-1);
        assertThat(p.reader().read(ByteBuffer.allocate(10))).isEqualTo(-1);
    }

    @Test
    void zeroLengthReadReturnsZeroEvenOnAnEmptyPipe() throws Exception {
        Pipe p = open();
        assertThat(p.reader().read(new byte[0])).as("len 0 returns 0 at once, without blocking").isZero();
        p.writer().close();
        assertThat(p.reader().read(new byte[0])).as("len 0 returns 0 before looking for EOF").isZero();
    }

    @ParameterizedTest
    @EnumSource(ThreadKind.class)
    void largeStreamThenCloseIsReadCompletelyThenEndOfStream(ThreadKind kind) throws Exception {
        Pipe p = open();
        byte[] data = pattern(300 * 1024 + 7);
        Running<Void> writer = start(kind, () -> {
            try (WriteEnd out = p.writer()) {
                out.write(data);
            }
            return null;
        });
        Running<byte[]> reader = start(kind, () -> readToEnd(p.reader()));
        writer.join();
        assertThat(reader.join()).isEqualTo(data);
    }

    @ParameterizedTest
    @EnumSource(ThreadKind.class)
    void closingTheLastWriterWakesEveryBlockedReaderWithEndOfStream(ThreadKind kind) throws Exception {
        Pipe p = open();
        ReadEnd second = p.reader().dup();
        Running<Integer> r1 = start(kind, () -> p.reader().read(new byte[10]));
        awaitBlockedReading(r1.thread(), p, 1);
        Running<Integer> r2 = start(kind, () -> second.read(new byte[10]));
        awaitBlockedReading(r2.thread(), p, 2);

        p.writer().close();

        assertThat(r1.join()).isEqualTo(-1);
        assertThat(r2.join()).isEqualTo(-1);
    }

    @ParameterizedTest
    @EnumSource(ThreadKind.class)
    void blockedReaderGetsDataWrittenJustBeforeTheClose(ThreadKind kind) throws Exception {
        Pipe p = open();
        byte[] buf = new byte[100];
        Running<Integer> reader = start(kind, () -> p.reader().read(buf));
        awaitBlockedReading(reader.thread(), p, 1);

        p.writer().write(filled(7, 42));
        p.writer().close();

        assertThat(reader.join()).isEqualTo(7);
        assertThat(p.reader().read(buf)).isEqualTo(-1);
    }
}
