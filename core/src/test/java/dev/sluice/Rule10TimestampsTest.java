package dev.sluice;

import dev.sluice.testing.Capability;

import static dev.sluice.FeatureSupport.awaitClockPast;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.sluice.FeatureSupport.ThreadKind;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.time.Instant;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Rule 10, timestamps: a read that returns data sets the access time, a write that stores data sets the
 * modification and change times; calls that move nothing set nothing; and with timestamps off every time
 * stays at the pipe's creation.
 *
 * <p>Linux (linux-pipe.md §4, "timestamps"): FIFOs (and anonymous pipes before 6.15) call
 * {@code file_accessed()} after a read with {@code ret > 0} and {@code file_update_time()} (mtime and ctime)
 * after a write with {@code ret > 0}; anonymous pipes since 6.15 never touch the times after creation.
 * {@code PipeOptions.timestamps(true)} selects the first behaviour, the default the second.
 *
 * <p>Times have millisecond resolution, so before an operation whose time must be observably newer the
 * test waits for the wall clock to pass the previous stamp (waiting for the clock, not for a thread).
 */
@Timeout(30)
class Rule10TimestampsTest extends ConformanceTest {

    private Pipe timestamped() {
        return open(options().timestamps(true).build());
    }

    private static Instant now() {
        return Instant.ofEpochMilli(System.currentTimeMillis());
    }

    @Test
    void allThreeTimesStartAtTheCreationTime() {
        Instant before = now();
        Pipe p = timestamped();
        Instant after = now();
        PipeStat s = p.stat();
        assertThat(s.lastRead()).isBetween(before, after);
        assertThat(s.lastWrite()).isEqualTo(s.lastRead());
        assertThat(s.lastChange()).isEqualTo(s.lastRead());
    }

    @Test
    void aWriteThatStoresDataAdvancesLastWriteAndLastChangeButNotLastRead() throws IOException {
        Pipe p = timestamped();
        PipeStat s0 = p.stat();
        awaitClockPast(s0.lastWrite());

        Instant before = now();
        assertThat(p.writer().write(new byte[] {1, 2, 3})).isEqualTo(3);
        Instant after = now();

        PipeStat s1 = p.stat();
        assertThat(s1.lastWrite()).isAfter(s0.lastWrite()).isBetween(before, after);
        assertThat(s1.lastChange()).isEqualTo(s1.lastWrite());
        assertThat(s1.lastRead()).as("a write is not an access").isEqualTo(s0.lastRead());
    }

    @Test
    void aReadThatReturnsDataAdvancesLastReadOnly() throws IOException {
        Pipe p = timestamped();
        p.writer().write(new byte[] {1, 2, 3});
        PipeStat s0 = p.stat();
        awaitClockPast(s0.lastWrite());

        Instant before = now();
        assertThat(p.reader().read(new byte[2])).isEqualTo(2);
        Instant after = now();

        PipeStat s1 = p.stat();
        assertThat(s1.lastRead()).isAfter(s0.lastRead()).isBetween(before, after);
        assertThat(s1.lastWrite()).as("a read does not modify").isEqualTo(s0.lastWrite());
        assertThat(s1.lastChange()).isEqualTo(s0.lastChange());
    }

    @Test
    void everyDataMovingCallAdvancesItsTimeAgain() throws IOException {
        Pipe p = timestamped();
        PipeStat prev = p.stat();
        for (int i = 0; i < 3; i++) {
            awaitClockPast(prev.lastWrite());
            p.writer().write(ByteBuffer.wrap(new byte[] {(byte) i}));
            PipeStat w = p.stat();
            assertThat(w.lastWrite()).isAfter(prev.lastWrite());
            awaitClockPast(w.lastWrite());
            assertThat(p.reader().read(ByteBuffer.allocate(8))).isEqualTo(1);
            PipeStat r = p.stat();
            assertThat(r.lastRead()).isAfter(w.lastWrite()).isAfter(prev.lastRead());
            assertThat(r.lastWrite()).isEqualTo(w.lastWrite());
            prev = r;
        }
    }

    @Test
    void aNonblockingReadOfAnEmptyPipeChangesNoTime() throws IOException {
        Pipe p = timestamped();
        p.writer().write(new byte[] {7});
        p.reader().read(new byte[1]);
        PipeStat s0 = p.stat();
        awaitClockPast(Instant.ofEpochMilli(Math.max(s0.lastRead().toEpochMilli(), s0.lastWrite().toEpochMilli())));

        p.reader().setNonBlocking(true);
        assertThat(p.reader().read(new byte[16])).as("EAGAIN").isZero();
        assertThat(p.stat()).isEqualTo(s0);
    }

    @Test
    void callsThatMoveNothingChangeNoTime() throws IOException {
        Pipe p = open(options().timestamps(true).capacity(Pipe.PAGE_SIZE).build());
        p.writer().setNonBlocking(true);
        assertThat(p.writer().write(new byte[Pipe.PAGE_SIZE])).isEqualTo(Pipe.PAGE_SIZE);
        PipeStat s0 = p.stat();
        awaitClockPast(s0.lastWrite());

        assertThat(p.writer().write(new byte[1])).as("nonblocking write to a full pipe: EAGAIN").isZero();
        assertThat(p.writer().write(new byte[0])).as("zero-length write").isZero();
        assertThat(p.reader().read(new byte[0])).as("zero-length read").isZero();
        assertThat(p.reader().read(ByteBuffer.allocate(0))).isZero();
        assertThat(p.stat()).isEqualTo(s0);
    }

    @Test
    void endOfStreamIsNotAnAccess() throws IOException {
        Pipe p = timestamped();
        p.writer().close();
        PipeStat s0 = p.stat();
        awaitClockPast(s0.lastRead());
        assertThat(p.reader().read(new byte[4])).isEqualTo(-1);
        assertThat(p.stat().lastRead()).isEqualTo(s0.lastRead());
    }

    @Test
    void aWriteThatFailsWithBrokenPipeIsNotAModification() throws IOException {
        Pipe p = timestamped();
        p.reader().close();
        PipeStat s0 = p.stat();
        awaitClockPast(s0.lastWrite());
        assertThatThrownBy(() -> p.writer().write(new byte[10])).isInstanceOf(BrokenPipeException.class);
        assertThat(p.stat().lastWrite()).isEqualTo(s0.lastWrite());
        assertThat(p.stat().lastChange()).isEqualTo(s0.lastChange());
    }

    @Test
    void aWriteThatFitsOnlyPartlyStillCountsAsAWrite() throws IOException {
        Pipe p = open(options().timestamps(true).capacity(Pipe.PAGE_SIZE).build());
        p.writer().setNonBlocking(true);
        PipeStat s0 = p.stat();
        awaitClockPast(s0.lastWrite());
        // More than PIPE_BUF, nonblocking: stores one page and returns the partial count.
        assertThat(p.writer().write(new byte[3 * Pipe.PAGE_SIZE])).isEqualTo(Pipe.PAGE_SIZE);
        assertThat(p.stat().lastWrite()).isAfter(s0.lastWrite());
    }

    @Test
    void withTimestampsOffTheTimesStayAtCreationAfterReadsAndWrites() throws IOException {
        Instant before = now();
        Pipe p = open();
        Instant after = now();
        if (has(Capability.OCCUPANCY)) {
            assertThat(p.options().timestamps()).as("off by default, like anonymous pipes since 6.15").isFalse();
        }
        PipeStat s0 = p.stat();
        // The kernel stamps inodes in nanoseconds from its coarse clock, which may lag the wall clock by a
        // tick (<= 10 ms), while now() is in whole milliseconds: allow a tick before and a millisecond after.
        assertThat(s0.lastRead()).isBetween(has(Capability.EXACT_TIMESTAMPS) ? before : before.minusMillis(10),
                has(Capability.EXACT_TIMESTAMPS) ? after : after.plusMillis(1));
        assertThat(s0.lastWrite()).isEqualTo(s0.lastRead());
        assertThat(s0.lastChange()).isEqualTo(s0.lastRead());

        awaitClockPast(after);
        p.writer().write(new byte[100]);
        p.writer().write(ByteBuffer.allocateDirect(5000));
        assertThat(p.reader().read(new byte[10_000])).isEqualTo(5100);
        p.writer().asOutputStream().write(1);
        assertThat(p.reader().asInputStream().read()).isEqualTo(1);

        PipeStat s1 = p.stat();
        assertThat(s1.lastRead()).isEqualTo(s0.lastRead());
        assertThat(s1.lastWrite()).isEqualTo(s0.lastWrite());
        assertThat(s1.lastChange()).isEqualTo(s0.lastChange());
    }

    @ParameterizedTest
    @EnumSource(ThreadKind.class)
    void aBlockedReaderSetsLastReadWhenItGetsData(ThreadKind kind) throws Exception {
        Pipe p = timestamped();
        var reader = kind.call("reader", () -> p.reader().read(new byte[8])).awaitBlocked();
        PipeStat s0 = p.stat();
        assertThat(s0.lastRead()).as("waiting is not an access").isEqualTo(s0.lastWrite());
        awaitClockPast(s0.lastRead());
        Instant before = now();
        p.writer().write(new byte[] {1, 2});
        assertThat(reader.join()).isEqualTo(2);
        Instant after = now();
        PipeStat s1 = p.stat();
        assertThat(s1.lastWrite()).isBetween(before, after);
        assertThat(s1.lastRead()).isBetween(before, after).isAfterOrEqualTo(s1.lastWrite());
    }
}
