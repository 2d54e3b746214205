package dev.sluice;

import dev.sluice.testing.Capability;

import static dev.sluice.ConformanceSupport.awaitBlockedWriting;
import static dev.sluice.ConformanceSupport.filled;
import static dev.sluice.ConformanceSupport.pattern;
import static dev.sluice.ConformanceSupport.readFully;
import static dev.sluice.ConformanceSupport.readToEnd;
import static dev.sluice.ConformanceSupport.start;
import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.ConformanceSupport.Running;
import dev.sluice.ConformanceSupport.ThreadKind;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Rule 1, Linux {@code pipe_write} (fs/pipe.c; pipe(7) "PIPE_BUF"): a blocking write transfers every byte
 * (it only stops early when the read side is gone or the thread is interrupted, see rules 5 and 7); a
 * write of at most {@code PIPE_BUF} = 4096 bytes is atomic: its bytes are never interleaved with another
 * writer's, and in nonblocking mode it stores all or nothing. Room is counted in page slots, so a
 * nonblocking write larger than {@code PIPE_BUF} may store a partial count of whole pages.
 */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class Rule01BlockingWriteTest extends ConformanceTest {

    @ParameterizedTest
    @EnumSource(ThreadKind.class)
    void blockingWriteLargerThanThePipeStoresEveryByteInOrder(ThreadKind kind) throws Exception {
        Pipe p = open();
        byte[] data = pattern(1 << 20); // 16 times the 64 KiB capacity
        Running<Integer> writer = start(kind, () -> {
            int n = p.writer().write(data);
            p.writer().close();
            return n;
        });
        // The reader starts once the writer sleeps on the full pipe: with both running from the start, a reader
        // that kept pace (or a spin that always succeeded) could leave the blocking path untested.
        awaitBlockedWriting(writer.thread(), p, 1);
        Running<byte[]> reader = start(kind, () -> readToEnd(p.reader()));

        assertThat(writer.join()).as("a blocking write returns only when all bytes are in").isEqualTo(data.length);
        assertThat(reader.join()).isEqualTo(data);
        assertThat(p.counters().writerWaits()).as("the writer had to wait for room").isPositive();
    }

    @ParameterizedTest
    @EnumSource(ThreadKind.class)
    void blockingWriteWaitsForRoomInsteadOfReturningShort(ThreadKind kind) throws Exception {
        Pipe p = open();
        byte[] data = pattern(100 * 1024);
        Running<Integer> writer = start(kind, () -> p.writer().write(data));
        awaitBlockedWriting(writer.thread(), p, 1);
        assertThat(writer.isDone()).as("a blocking write does not return a short count").isFalse();
        assertThat(p.stat().bytesQueued()).isEqualTo(65536);

        byte[] got = readFully(p.reader(), data.length);
        assertThat(writer.join()).isEqualTo(data.length);
        assertThat(got).isEqualTo(data);
    }

    /**
     * Several writers write records of at most PIPE_BUF bytes, each record filled with its own byte; a
     * reader parses the stream record by record. Any interleaving inside a record breaks the parse.
     */
    @ParameterizedTest
    @EnumSource(ThreadKind.class)
    void writesOfAtMostPipeBufAreNeverInterleaved(ThreadKind kind) throws Exception {
        final int writers = 4;
        final int recordsEach = 400;
        // A small pipe makes the writers block and wake often, where interleaving would happen.
        Pipe p = open(options().capacity(16 * 1024).build());
        WriteEnd[] ends = new WriteEnd[writers];
        ends[0] = p.writer();
        for (int w = 1; w < writers; w++) {
            ends[w] = p.writer().dup();
        }
        List<Running<Long>> running = new ArrayList<>();
        for (int w = 0; w < writers; w++) {
            final int id = w;
            running.add(start(kind, () -> {
                SplittableRandom rnd = new SplittableRandom(id);
                long bytes = 0;
                try (WriteEnd out = ends[id]) {
                    for (int seq = 0; seq < recordsEach; seq++) {
                        // sizes from 4 up to PIPE_BUF, with PIPE_BUF itself and sizes just above a merge often
                        int size = switch (seq % 4) {
                            case 0 -> Pipe.PIPE_BUF;
                            case 1 -> 4 + rnd.nextInt(64);
                            default -> 4 + rnd.nextInt(Pipe.PIPE_BUF - 3);
                        };
                        byte[] rec = record(id, seq, size);
                        assertThat(out.write(rec)).isEqualTo(size);
                        bytes += size;
                    }
                }
                return bytes;
            }));
        }
        Running<int[]> reader = start(kind, () -> parseRecords(p.reader(), writers));

        long written = 0;
        for (Running<Long> r : running) {
            written += r.join();
        }
        int[] counts = reader.join();
        for (int w = 0; w < writers; w++) {
            assertThat(counts[w]).as("records of writer %d, each exactly once and in order", w).isEqualTo(recordsEach);
        }
        assertThat(p.counters().bytesRead()).isEqualTo(written);
    }

    /** Record: [size hi][size lo][writer][seq & 0xFF] then body bytes all equal to {@code 'A' + writer}. */
    private static byte[] record(int writer, int seq, int size) {
        byte[] rec = filled(size, 'A' + writer);
        rec[0] = (byte) (size >>> 8);
        rec[1] = (byte) size;
        rec[2] = (byte) writer;
        rec[3] = (byte) seq;
        return rec;
    }

    /** Parses records until end-of-stream; fails at the first record that is not contiguous. */
    private static int[] parseRecords(ReadEnd in, int writers) throws IOException {
        byte[] all = readToEnd(in);
        int[] next = new int[writers];
        int pos = 0;
        while (pos < all.length) {
            assertThat(all.length - pos).as("room for a header at %d", pos).isGreaterThanOrEqualTo(4);
            int size = ((all[pos] & 0xFF) << 8) | (all[pos + 1] & 0xFF);
            int writer = all[pos + 2];
            assertThat(size).as("record size at offset %d", pos).isBetween(4, Pipe.PIPE_BUF);
            assertThat(writer).as("writer id at offset %d", pos).isBetween(0, writers - 1);
            assertThat(all[pos + 3] & 0xFF).as("sequence of writer %d at offset %d", writer, pos)
                    .isEqualTo(next[writer] & 0xFF);
            assertThat(pos + size).as("record at %d fits in the stream", pos).isLessThanOrEqualTo(all.length);
            for (int i = pos + 4; i < pos + size; i++) {
                if (all[i] != (byte) ('A' + writer)) {
                    throw new AssertionError("record of writer " + writer + " at offset " + pos + " (" + size
                            + " bytes) is interleaved: byte " + (i - pos) + " is " + all[i]);
                }
            }
            next[writer]++;
            pos += size;
        }
        return next;
    }

    @Test
    void nonBlockingPipeBufWriteIntoAFullRingStoresNothing() throws Exception {
        Pipe p = openNonBlocking(PipeOptions.DEFAULT_CAPACITY);
        assertThat(p.writer().write(pattern(65536))).isEqualTo(65536);
        PipeStat before = p.stat();
        if (has(Capability.OCCUPANCY)) assertThat(before.slotsUsed()).isEqualTo(16);

        assertThat(p.writer().write(filled(Pipe.PIPE_BUF, 1))).as("EAGAIN").isZero();
        assertThat(p.writer().write(filled(1, 1))).as("the last page is full: nothing merges").isZero();
        assertThat(p.stat().bytesQueued()).isEqualTo(before.bytesQueued());
        if (has(Capability.OCCUPANCY)) assertThat(p.stat().slotsUsed()).isEqualTo(16);
    }

    @Test
    void nonBlockingPipeBufWriteIsAllOrNothingWhenOnlyPartOfItWouldMerge() throws Exception {
        Pipe p = openNonBlocking(PipeOptions.DEFAULT_CAPACITY);
        // 15 full pages, then a page with 3996 bytes: the ring is full, the last page has 100 bytes of room.
        assertThat(p.writer().write(pattern(15 * 4096))).isEqualTo(15 * 4096);
        assertThat(p.writer().write(pattern(3996))).isEqualTo(3996);
        if (has(Capability.OCCUPANCY)) assertThat(p.stat().slotsUsed()).isEqualTo(16);

        assertThat(p.writer().write(filled(101, 7))).as("101 bytes do not fit: none is stored").isZero();
        assertThat(p.stat().bytesQueued()).isEqualTo(15 * 4096 + 3996);
        assertThat(p.writer().write(filled(100, 7))).as("100 bytes merge into the last page").isEqualTo(100);
        assertThat(p.stat().bytesQueued()).isEqualTo(65536);
        if (has(Capability.OCCUPANCY)) assertThat(p.stat().slotsUsed()).isEqualTo(16);
    }

    @Test
    void nonBlockingLargeWriteWithOneFreeSlotStoresOnePage() throws Exception {
        Pipe p = openNonBlocking(PipeOptions.DEFAULT_CAPACITY);
        assertThat(p.writer().write(pattern(15 * 4096))).isEqualTo(15 * 4096); // last page full
        byte[] data = pattern(6000);

        int n = p.writer().write(data);

        assertThat(n).as("a write > PIPE_BUF may be partial: one free slot takes 4096 bytes").isEqualTo(4096);
        if (has(Capability.OCCUPANCY)) assertThat(p.stat().slotsUsed()).isEqualTo(16);
        assertThat(p.writer().write(data, n, data.length - n)).as("ring full: EAGAIN").isZero();
        // The stored part is the first 4096 bytes of the call, after what was there.
        assertThat(readFully(p.reader(), 15 * 4096)).isEqualTo(pattern(15 * 4096));
        assertThat(readFully(p.reader(), 4096)).isEqualTo(java.util.Arrays.copyOf(data, 4096));
        assertThat(p.reader().read(new byte[10])).as("nothing more queued").isZero();
    }

    @Test
    void nonBlockingPipeBufWriteThatFitsAFreeSlotIsStoredWhole() throws Exception {
        Pipe p = openNonBlocking(PipeOptions.DEFAULT_CAPACITY);
        assertThat(p.writer().write(pattern(15 * 4096 + 10))).isEqualTo(15 * 4096 + 10); // 16 slots, last 10 bytes
        if (has(Capability.OCCUPANCY)) assertThat(p.stat().slotsUsed()).isEqualTo(16);
        assertThat(p.writer().write(filled(4086, 3))).as("merges into the 10-byte page").isEqualTo(4086);
        assertThat(p.writer().write(filled(1, 3))).isZero();

        Pipe q = openNonBlocking(PipeOptions.DEFAULT_CAPACITY);
        assertThat(q.writer().write(pattern(14 * 4096 + 4000))).isEqualTo(14 * 4096 + 4000); // 15 slots
        assertThat(q.writer().write(filled(Pipe.PIPE_BUF, 3)))
                .as("exactly PIPE_BUF bytes never merge; they take the free slot whole").isEqualTo(4096);
        if (has(Capability.OCCUPANCY)) assertThat(q.stat().slotsUsed()).isEqualTo(16);
        assertThat(q.stat().bytesQueued()).isEqualTo(14 * 4096 + 4000 + 4096);
    }

    @Test
    void nonBlockingGatheringWriteOfAtMostPipeBufIsAllOrNothingToo() throws Exception {
        Pipe p = openNonBlocking(PipeOptions.DEFAULT_CAPACITY);
        p.writer().write(pattern(15 * 4096 + 3996)); // ring full, 100 bytes of merge room
        ByteBuffer a = ByteBuffer.wrap(filled(50, 1));
        ByteBuffer b = ByteBuffer.wrap(filled(51, 2));

        assertThat(p.writer().write(new ByteBuffer[] {a, b})).as("101 bytes in two buffers: nothing").isZero();
        assertThat(a.position()).as("no byte taken from the buffers").isZero();
        assertThat(b.position()).isZero();

        b.limit(50);
        assertThat(p.writer().write(new ByteBuffer[] {a, b})).isEqualTo(100);
        assertThat(a.hasRemaining()).isFalse();
        assertThat(b.hasRemaining()).isFalse();
    }

    @ParameterizedTest
    @EnumSource(ThreadKind.class)
    void blockedPipeBufWriterCompletesWhenOneSlotIsFreed(ThreadKind kind) throws Exception {
        assumeWritersWakeOnOneFreeSlot();
        Pipe p = open();
        p.writer().write(pattern(65536));
        Running<Integer> writer = start(kind, () -> p.writer().write(filled(Pipe.PIPE_BUF, 9)));
        awaitBlockedWriting(writer.thread(), p, 1);

        assertThat(readFully(p.reader(), 4096)).as("frees exactly one slot").isEqualTo(pattern(4096));

        assertThat(writer.join()).isEqualTo(Pipe.PIPE_BUF);
        if (has(Capability.OCCUPANCY)) assertThat(p.stat().slotsUsed()).isEqualTo(16);
        readFully(p.reader(), 61440);
        assertThat(readFully(p.reader(), 4096)).as("the record arrives whole, after the older data")
                .isEqualTo(filled(Pipe.PIPE_BUF, 9));
    }
}
