package dev.sluice;

import dev.sluice.testing.Capability;
import dev.sluice.testing.Requires;

import static dev.sluice.ConformanceSupport.awaitBlockedReading;
import static dev.sluice.ConformanceSupport.awaitBlockedWriting;
import static dev.sluice.ConformanceSupport.drainNow;
import static dev.sluice.ConformanceSupport.pattern;
import static dev.sluice.ConformanceSupport.readFully;
import static dev.sluice.ConformanceSupport.start;
import static dev.sluice.ConformanceSupport.thrownBy;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.sluice.ConformanceSupport.Running;
import dev.sluice.ConformanceSupport.ThreadKind;
import java.util.Arrays;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Rule 16, {@code tee(2)} (fs/splice.c {@code link_pipe}; linux-pipe.md §5): the target gets references to
 * the source's buffers and the source keeps them; a shared page never takes a merged write in either pipe
 * (CAN_MERGE cleared on both copies); a page outlives the pipe it came from while the other still holds
 * it. tee waits while the source is empty and while the target is full, and stops early, returning what it
 * linked, when the target fills part way.
 */
@Timeout(value = 20, unit = TimeUnit.SECONDS)
@Requires(Capability.SPLICE)
class Rule16TeeTest extends ConformanceTest {

    @Test
    void duplicatesWithoutConsumingByteExact() throws Exception {
        Pipe a = open();
        Pipe b = open();
        byte[] data = pattern(2 * 4096 + 777);
        a.writer().write(data);
        readFully(a.reader(), 5); // a partly read first buffer: the copy starts where the reader is

        assertThat(Splice.tee(a.reader(), b.writer(), Long.MAX_VALUE)).isEqualTo(data.length - 5);
        assertThat(a.stat().bytesQueued()).as("the source keeps everything").isEqualTo(data.length - 5);
        byte[] rest = Arrays.copyOfRange(data, 5, data.length);
        assertThat(readFully(b.reader(), rest.length)).isEqualTo(rest);
        assertThat(readFully(a.reader(), rest.length)).isEqualTo(rest);
        assertThat(a.counters().bytesRead()).as("a tee is no read of the source").isEqualTo(data.length);
    }

    @Test
    void aLaterSmallWriteNeverMergesIntoASharedPage() throws Exception {
        Pipe a = open();
        Pipe b = open();
        a.writer().write(pattern(100));
        Splice.tee(a.reader(), b.writer(), Long.MAX_VALUE);

        a.writer().write(new byte[] {9, 9, 9});
        b.writer().write(new byte[] {7, 7});
        assertThat(a.stat().slotsUsed()).as("a's write started a new page").isEqualTo(2);
        assertThat(b.stat().slotsUsed()).as("b's write started a new page").isEqualTo(2);
        assertThat(readFully(a.reader(), 103)).startsWith(pattern(100)).endsWith(9, 9, 9);
        assertThat(readFully(b.reader(), 102)).startsWith(pattern(100)).endsWith(7, 7);
    }

    @Test
    void sharedPagesOutliveTheSourcePipe() throws Exception {
        Pipe a = open();
        Pipe b = open();
        byte[] data = pattern(10000);
        a.writer().write(data);
        Splice.tee(a.reader(), b.writer(), Long.MAX_VALUE);
        a.writer().write(pattern(50)); // a page of a's own that is not shared
        a.reader().close();
        a.writer().close(); // a is gone: its pages and pool are released

        assertThat(readFully(b.reader(), data.length)).isEqualTo(data);
        b.writer().write(pattern(3));
        assertThat(readFully(b.reader(), 3)).isEqualTo(pattern(3));
    }

    @Test
    void readingBothCopiesAnyOrderGivesTheSameBytesAndThePagesGoHome() throws Exception {
        Pipe a = open();
        Pipe b = open();
        Pipe c = open();
        for (int round = 0; round < 200; round++) {
            byte[] data = pattern(1 + round * 97 % 20000);
            a.writer().write(data);
            assertThat(Splice.tee(a.reader(), b.writer(), Long.MAX_VALUE)).isEqualTo(data.length);
            assertThat(Splice.splice(a.reader(), c.writer(), Long.MAX_VALUE)).isEqualTo(data.length);
            if (round % 2 == 0) {
                assertThat(readFully(b.reader(), data.length)).isEqualTo(data);
                assertThat(readFully(c.reader(), data.length)).isEqualTo(data);
            } else {
                assertThat(readFully(c.reader(), data.length)).isEqualTo(data);
                assertThat(readFully(b.reader(), data.length)).isEqualTo(data);
            }
        }
        // Every page a allocated came back to a (through its return stack): a's pool never ran dry after
        // the first rounds, and b and c never allocated at all.
        if (has(Capability.PAGE_POOL)) {
            assertThat(a.counters().pagesAllocated()).as("a's allocations").isLessThanOrEqualTo(5 + 1);
        }
        assertThat(b.counters().pagesAllocated()).isZero();
        assertThat(c.counters().pagesAllocated()).isZero();
    }

    @Test
    void nonBlockingTargetFullReturnsZeroAndAPartlyFullTargetGetsWhatFits() throws Exception {
        Pipe a = open(options().packetMode(true).build());
        Pipe b = open(options().capacity(4 * 4096).build());
        for (int i = 0; i < 4; i++) {
            a.writer().write(pattern(1000 + i));
        }
        b.writer().write(pattern(4096 * 2 + 1)); // 3 of b's 4 slots
        b.writer().setNonBlocking(true);

        assertThat(Splice.tee(a.reader(), b.writer(), Long.MAX_VALUE)).as("one slot was free").isEqualTo(1000);
        assertThat(Splice.tee(a.reader(), b.writer(), Long.MAX_VALUE)).as("full: EAGAIN").isZero();
        assertThat(a.stat().bytesQueued()).isEqualTo(1000 + 1001 + 1002 + 1003);
        assertThat(drainNow(b.reader())).endsWith(pattern(1000));
    }

    @ParameterizedTest
    @EnumSource(ThreadKind.class)
    void aBlockingTeeWaitsWhileTheTargetIsFull(ThreadKind kind) throws Exception {
        Pipe a = open();
        Pipe b = open(options().capacity(4096).build());
        b.writer().write(pattern(4096));
        a.writer().write(pattern(300));
        Running<Long> tee = start(kind, () -> Splice.tee(a.reader(), b.writer(), 1000));
        awaitBlockedWriting(tee.thread(), b, 1);
        assertThat(a.stat().bytesQueued()).isEqualTo(300);

        assertThat(readFully(b.reader(), 4096)).isEqualTo(pattern(4096));
        assertThat(tee.join()).isEqualTo(300);
        assertThat(readFully(b.reader(), 300)).isEqualTo(pattern(300));
        assertThat(readFully(a.reader(), 300)).isEqualTo(pattern(300));
    }

    @ParameterizedTest
    @EnumSource(ThreadKind.class)
    void aBlockingTeeWaitsForDataAndLeavesItForTheSourcesReader(ThreadKind kind) throws Exception {
        Pipe a = open();
        Pipe b = open();
        Running<Long> tee = start(kind, () -> Splice.tee(a.reader(), b.writer(), 1000));
        awaitBlockedReading(tee.thread(), a, 1);
        a.writer().write(pattern(40));
        assertThat(tee.join()).isEqualTo(40);
        assertThat(readFully(a.reader(), 40)).isEqualTo(pattern(40));
        assertThat(readFully(b.reader(), 40)).isEqualTo(pattern(40));
    }

    @Test
    void teeOfAnEndedEmptySourceIsMinusOneAndIntoABrokenTargetIsBrokenPipe() throws Exception {
        Pipe a = open();
        Pipe b = open();
        a.writer().write(pattern(10));
        b.reader().close();
        thrownBy(BrokenPipeException.class, () -> Splice.tee(a.reader(), b.writer(), 10));
        assertThat(a.stat().bytesQueued()).isEqualTo(10);

        Pipe c = open();
        Pipe d = open();
        c.writer().close();
        assertThat(Splice.tee(c.reader(), d.writer(), 10)).isEqualTo(-1);
        c.reader().setNonBlocking(true);
        Pipe e = open();
        e.reader().setNonBlocking(true);
        assertThat(Splice.tee(e.reader(), d.writer(), 10)).as("nonblocking, empty").isZero();
    }

    @Test
    void aFirstBufferLargerThanTheRequestIsSharedInPart() throws Exception {
        Pipe a = open();
        Pipe b = open();
        a.writer().write(pattern(3000));
        assertThat(Splice.tee(a.reader(), b.writer(), 1000)).isEqualTo(1000);
        b.writer().write(new byte[] {5});
        assertThat(readFully(b.reader(), 1001)).startsWith(Arrays.copyOf(pattern(3000), 1000)).endsWith(5);
        assertThat(readFully(a.reader(), 3000)).isEqualTo(pattern(3000));
    }

    @Test
    void packetsAreTeedAsPackets() throws Exception {
        Pipe a = open(options().packetMode(true).build());
        Pipe b = open();
        a.writer().write(pattern(10));
        a.writer().write(pattern(20));
        assertThat(Splice.tee(a.reader(), b.writer(), Long.MAX_VALUE)).isEqualTo(30);
        byte[] buf = new byte[100];
        assertThat(b.reader().read(buf)).isEqualTo(10);
        assertThat(b.reader().read(buf)).isEqualTo(20);
        assertThat(a.reader().read(buf)).isEqualTo(10);
    }

    @ParameterizedTest
    @EnumSource(ThreadKind.class)
    void aTeeWaitingOnAFullTargetEndsOnInterruptOrTheTargetsTimeoutHavingLinkedNothing(ThreadKind kind)
            throws Exception {
        Pipe a = open();
        Pipe b = open(options().capacity(4096).build());
        b.writer().write(pattern(1));
        a.writer().write(pattern(10));
        Running<Long> tee = start(kind, () -> Splice.tee(a.reader(), b.writer(), 10));
        awaitBlockedWriting(tee.thread(), b, 1);
        tee.thread().interrupt();
        assertThat(tee.failure()).isInstanceOf(java.io.InterruptedIOException.class);

        b.writer().setTimeout(java.time.Duration.ofMillis(30)); // the target's timeout bounds the wait for room
        PipeTimeoutException e = thrownBy(PipeTimeoutException.class, () -> Splice.tee(a.reader(), b.writer(), 10));
        assertThat(e.bytesTransferred).isZero();
        thrownBy(PipeTimeoutException.class, () -> Splice.splice(a.reader(), b.writer(), 10));
        assertThat(a.stat().bytesQueued()).isEqualTo(10);
        assertThat(b.stat().bytesQueued()).isEqualTo(1);
    }

    @Test
    void teeIntoItselfIsRefused() throws Exception {
        Pipe a = open();
        a.writer().write(pattern(10));
        assertThatThrownBy(() -> Splice.tee(a.reader(), a.writer(), 10)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> Splice.tee(a.reader(), open().writer(), -5))
                .isInstanceOf(IllegalArgumentException.class);
        assertThat(readFully(a.reader(), 10)).isEqualTo(pattern(10));
    }
}
