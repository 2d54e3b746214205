package dev.sluice;

import dev.sluice.testing.Capability;

import static dev.sluice.ConformanceSupport.awaitBlockedReading;
import static dev.sluice.ConformanceSupport.awaitBlockedWriting;
import static dev.sluice.ConformanceSupport.filled;
import static dev.sluice.ConformanceSupport.pattern;
import static dev.sluice.ConformanceSupport.readFully;
import static dev.sluice.ConformanceSupport.start;
import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.ConformanceSupport.Running;
import dev.sluice.ConformanceSupport.ThreadKind;
import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Rule 4, {@code O_NONBLOCK} (pipe(7); fs/pipe.c; linux-pipe.md §1.6, §4 "nonblocking read", "partial
 * writes"): the flag belongs to each end. A nonblocking read of an empty pipe that still has a writer
 * fails with {@code EAGAIN} (0 here); without writers it is end-of-stream. A nonblocking write stores what
 * fits without waiting and returns the count, 0 for {@code EAGAIN}: first the write's sub-page remainder
 * merges into the last page if it fits there, then whole pages go into free slots. So a write larger than
 * {@code PIPE_BUF} into a full ring can still store its remainder, and a partial count is "remainder +
 * 4096 × free slots".
 */
@Timeout(value = 10, unit = TimeUnit.SECONDS)
class Rule04NonBlockingTest extends ConformanceTest {

    @Test
    void readOfAnEmptyPipeWithAWriterReturnsZero() throws Exception {
        Pipe p = open(options().nonBlockingRead(true).build());
        assertThat(p.reader().read(new byte[10])).as("EAGAIN").isZero();
        assertThat(p.counters().readerWaits()).as("it never waited").isZero();

        p.writer().write(pattern(3));
        byte[] buf = new byte[10];
        assertThat(p.reader().read(buf)).isEqualTo(3);
        assertThat(p.reader().read(buf)).isZero();
    }

    @Test
    void readOfAnEmptyPipeWithoutWritersIsEndOfStream() throws Exception {
        Pipe p = openNonBlocking(PipeOptions.DEFAULT_CAPACITY);
        p.writer().write(pattern(3));
        p.writer().close();
        byte[] buf = new byte[10];
        assertThat(p.reader().read(buf)).isEqualTo(3);
        assertThat(p.reader().read(buf)).isEqualTo(-1);
    }

    @Test
    void nonBlockingWriteIntoAnEmptyPipeStoresWholePagesUpToCapacity() throws Exception {
        Pipe p = openNonBlocking(PipeOptions.DEFAULT_CAPACITY);
        byte[] data = pattern(100_000);
        assertThat(p.writer().write(data)).as("16 free slots of 4096 bytes").isEqualTo(65536);
        assertThat(p.writer().write(data, 65536, data.length - 65536)).isZero();
        assertThat(readFully(p.reader(), 65536)).isEqualTo(java.util.Arrays.copyOf(data, 65536));
    }

    @Test
    void partialCountIsMergedRemainderPlusWholePagesForFreeSlots() throws Exception {
        Pipe p = openNonBlocking(PipeOptions.DEFAULT_CAPACITY);
        // 13 full pages and one page with 100 bytes: 14 slots used, 2 free, 3996 bytes of merge room.
        p.writer().write(pattern(13 * 4096 + 100));
        if (has(Capability.OCCUPANCY)) assertThat(p.stat().slotsUsed()).isEqualTo(14);

        byte[] data = pattern(13000); // remainder 13000 & 4095 = 712
        int n = p.writer().write(data);
        assertThat(n).as("712 merged + 2 × 4096").isEqualTo(712 + 2 * 4096);
        if (has(Capability.OCCUPANCY)) assertThat(p.stat().slotsUsed()).isEqualTo(16);

        ByteArrayOutputStream want = new ByteArrayOutputStream();
        want.write(pattern(13 * 4096 + 100));
        want.write(data, 0, n);
        assertThat(readFully(p.reader(), want.size())).isEqualTo(want.toByteArray());
    }

    @Test
    void writeThatExactlyFitsMergeRoomAndFreeSlotsIsStoredWhole() throws Exception {
        Pipe p = openNonBlocking(PipeOptions.DEFAULT_CAPACITY);
        p.writer().write(pattern(13 * 4096 + 100)); // 2 free slots, 3996 bytes of merge room
        assertThat(p.writer().write(pattern(12000))).as("3808 merged + 2 × 4096").isEqualTo(12000);
        if (has(Capability.OCCUPANCY)) assertThat(p.stat().slotsUsed()).isEqualTo(16);
    }

    @Test
    void largeWriteIntoAFullRingStoresOnlyItsRemainderWhenThatMerges() throws Exception {
        Pipe p = openNonBlocking(PipeOptions.DEFAULT_CAPACITY);
        p.writer().write(pattern(15 * 4096 + 1000)); // ring full, 3096 bytes of room in the last page
        if (has(Capability.OCCUPANCY)) assertThat(p.stat().slotsUsed()).isEqualTo(16);

        assertThat(p.writer().write(pattern(5000))).as("the 904-byte remainder merges, no slot is free")
                .isEqualTo(904);
        assertThat(p.writer().write(pattern(8192))).as("no remainder, no slot: EAGAIN").isZero();
        assertThat(p.stat().bytesQueued()).isEqualTo(15 * 4096 + 1000 + 904);
    }

    @Test
    void writeOfZeroBytesReturnsZero() throws Exception {
        Pipe p = openNonBlocking(PipeOptions.DEFAULT_CAPACITY);
        p.writer().write(pattern(65536));
        assertThat(p.writer().write(new byte[0])).isZero();
        assertThat(p.stat().bytesQueued()).isEqualTo(65536);
    }

    @ParameterizedTest
    @EnumSource(ThreadKind.class)
    void nonBlockingReadEndDoesNotMakeTheWriteEndNonBlocking(ThreadKind kind) throws Exception {
        Pipe p = open(options().nonBlockingRead(true).build());
        assertThat(p.writer().isNonBlocking()).isFalse();
        p.writer().write(pattern(65536));

        Running<Integer> writer = start(kind, () -> p.writer().write(filled(10, 1)));
        awaitBlockedWriting(writer.thread(), p, 1);
        assertThat(writer.isDone()).as("the blocking write end waits on a full pipe").isFalse();

        assertThat(p.reader().read(new byte[65536])).isEqualTo(65536);
        assertThat(writer.join()).isEqualTo(10);
        assertThat(p.reader().read(new byte[100])).isEqualTo(10);
        assertThat(p.reader().read(new byte[100])).as("and the read end still does not wait").isZero();
    }

    @ParameterizedTest
    @EnumSource(ThreadKind.class)
    void nonBlockingWriteEndDoesNotMakeTheReadEndNonBlocking(ThreadKind kind) throws Exception {
        Pipe p = open(options().nonBlockingWrite(true).build());
        assertThat(p.reader().isNonBlocking()).isFalse();
        Running<Integer> reader = start(kind, () -> p.reader().read(new byte[10]));
        awaitBlockedReading(reader.thread(), p, 1);
        assertThat(reader.isDone()).isFalse();

        assertThat(p.writer().write(filled(3, 1))).isEqualTo(3);
        assertThat(reader.join()).isEqualTo(3);
    }

    @ParameterizedTest
    @EnumSource(ThreadKind.class)
    void modeCanBeChangedOnAnOpenEnd(ThreadKind kind) throws Exception {
        Pipe p = open();
        p.reader().setNonBlocking(true);
        assertThat(p.reader().read(new byte[1])).isZero();
        p.reader().setNonBlocking(false);

        Running<Integer> reader = start(kind, () -> p.reader().read(new byte[10]));
        awaitBlockedReading(reader.thread(), p, 1);
        p.writer().setNonBlocking(true);
        assertThat(p.writer().write(filled(2, 1))).isEqualTo(2);
        assertThat(reader.join()).isEqualTo(2);
    }

    @Test
    void dupStartsWithTheModeOfItsOriginal() throws Exception {
        Pipe p = openNonBlocking(PipeOptions.DEFAULT_CAPACITY);
        ReadEnd r2 = p.reader().dup();
        WriteEnd w2 = p.writer().dup();
        assertThat(r2.isNonBlocking()).isTrue();
        assertThat(w2.isNonBlocking()).isTrue();
        assertThat(r2.read(new byte[1])).isZero();
    }

    @Test
    void partialNonBlockingWriteAdvancesTheBufferByExactlyTheCount() throws Exception {
        Pipe p = openNonBlocking(PipeOptions.DEFAULT_CAPACITY);
        p.writer().write(pattern(14 * 4096)); // 2 free slots, last page full
        byte[] data = pattern(10_000);
        ByteBuffer src = ByteBuffer.wrap(data);

        assertThat(p.writer().write(src)).isEqualTo(8192);
        assertThat(src.position()).isEqualTo(8192);
        assertThat(p.writer().write(src)).isZero();
        assertThat(src.position()).isEqualTo(8192);

        readFully(p.reader(), 14 * 4096);
        assertThat(readFully(p.reader(), 8192)).isEqualTo(java.util.Arrays.copyOf(data, 8192));
    }
}
