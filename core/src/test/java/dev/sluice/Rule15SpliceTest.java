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
import java.io.IOException;
import java.io.InterruptedIOException;
import java.lang.reflect.Proxy;
import java.nio.channels.ClosedChannelException;
import java.time.Duration;
import java.util.Arrays;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Rule 15, {@code splice(2)} between two pipes (fs/splice.c {@code splice_pipe_to_pipe}; linux-pipe.md §5):
 * whole page buffers move from one ring to the other without their bytes being copied, a partly read
 * buffer keeping its offset; a buffer is cut only when the first one alone exceeds the request. The source
 * end's mode governs waiting for data, the target's for room; -1 at end-of-stream, broken pipe when the
 * target has no reader, {@code EINVAL} (IllegalArgumentException) for a pipe spliced into itself, and bad
 * input leaves both pipes as they were.
 */
@Timeout(value = 20, unit = TimeUnit.SECONDS)
@Requires(Capability.SPLICE)
class Rule15SpliceTest extends ConformanceTest {

    private Pipe openPacket() {
        return open(options().packetMode(true).build());
    }

    @Test
    void movesWholeBuffersByteExactAndEmptiesTheSource() throws Exception {
        Pipe a = open();
        Pipe b = open();
        byte[] data = pattern(3 * 4096 + 100);
        a.writer().write(data);
        int slots = a.stat().slotsUsed();

        long n = Splice.splice(a.reader(), b.writer(), Long.MAX_VALUE);

        assertThat(n).isEqualTo(data.length);
        assertThat(a.stat().bytesQueued()).isZero();
        assertThat(b.stat().slotsUsed()).as("the same slots, moved").isEqualTo(slots);
        assertThat(readFully(b.reader(), data.length)).isEqualTo(data);
        assertThat(a.counters().bytesRead()).isEqualTo(data.length);
        assertThat(b.counters().bytesWritten()).isEqualTo(data.length);
    }

    @Test
    void aPartlyReadBufferKeepsItsOffset() throws Exception {
        Pipe a = open();
        Pipe b = open();
        byte[] data = pattern(5000);
        a.writer().write(data);
        readFully(a.reader(), 100);

        assertThat(Splice.splice(a.reader(), b.writer(), 1 << 20)).isEqualTo(4900);
        assertThat(readFully(b.reader(), 4900)).isEqualTo(Arrays.copyOfRange(data, 100, 5000));
    }

    @Test
    void takesWholeBuffersWhileTheyFitAndStopsBeforeOneThatDoesNot() throws Exception {
        Pipe a = openPacket(); // packets: one slot per write, so the slot boundaries are known
        Pipe b = open();
        byte[] data = pattern(3 * 3000);
        for (int i = 0; i < 3; i++) {
            a.writer().write(data, i * 3000, 3000);
        }
        assertThat(Splice.splice(a.reader(), b.writer(), 8000)).as("two whole slots, not 8000").isEqualTo(6000);
        assertThat(a.stat().bytesQueued()).isEqualTo(3000);
        assertThat(drainNow(b.reader())).isEqualTo(Arrays.copyOf(data, 6000));
    }

    @Test
    void aFirstBufferLargerThanTheRequestIsCutAndNeitherHalfTakesMergedWrites() throws Exception {
        Pipe a = open();
        Pipe b = open();
        byte[] data = pattern(4000);
        a.writer().write(data);

        assertThat(Splice.splice(a.reader(), b.writer(), 1000)).isEqualTo(1000);
        // Both pipes now reference one page: b holds its first 1000 bytes, a the 3000 after them. A small
        // write to b must not append into that page, where it would overwrite a's bytes.
        b.writer().write(new byte[] {1, 2, 3});
        a.writer().write(new byte[] {4, 5});
        assertThat(b.stat().slotsUsed()).as("b's write took a new slot").isEqualTo(2);
        assertThat(a.stat().slotsUsed()).as("a's write took a new slot").isEqualTo(2);
        assertThat(readFully(a.reader(), 3002)).startsWith(Arrays.copyOfRange(data, 1000, 4000)).endsWith(4, 5);
        assertThat(readFully(b.reader(), 1003)).startsWith(Arrays.copyOf(data, 1000)).endsWith(1, 2, 3);
    }

    @Test
    void aMovedPageThatTheTargetOwnsAloneStillTakesMergedWrites() throws Exception {
        Pipe a = open();
        Pipe b = open();
        a.writer().write(pattern(100));
        Splice.splice(a.reader(), b.writer(), Long.MAX_VALUE);
        b.writer().write(pattern(10));
        assertThat(b.stat().slotsUsed()).as("moved whole, CAN_MERGE travels with it").isEqualTo(1);
    }

    @Test
    void packetsArriveAsTheSamePackets() throws Exception {
        Pipe a = openPacket();
        Pipe b = open();
        for (int len : new int[] {100, 4096, 1, 3000}) {
            a.writer().write(pattern(len));
        }
        assertThat(Splice.splice(a.reader(), b.writer(), Long.MAX_VALUE)).isEqualTo(100 + 4096 + 1 + 3000);
        byte[] buf = new byte[8192];
        for (int len : new int[] {100, 4096, 1, 3000}) {
            assertThat(b.reader().read(buf)).isEqualTo(len);
            assertThat(Arrays.copyOf(buf, len)).isEqualTo(pattern(len));
        }
    }

    @Test
    void endOfStreamIsMinusOneAfterTheData() throws Exception {
        Pipe a = open();
        Pipe b = open();
        a.writer().write(pattern(10));
        a.writer().close();
        assertThat(Splice.splice(a.reader(), b.writer(), 100)).isEqualTo(10);
        assertThat(Splice.splice(a.reader(), b.writer(), 100)).isEqualTo(-1);
        assertThat(Splice.splice(a.reader(), b.writer(), 0)).as("0 bytes asked, 0 moved").isZero();
    }

    @Test
    void nonBlockingSourceEmptyOrNonBlockingTargetFullReturnsZeroAndChangesNothing() throws Exception {
        Pipe a = open();
        Pipe b = open(options().capacity(4096).build());
        a.reader().setNonBlocking(true);
        assertThat(Splice.splice(a.reader(), b.writer(), 100)).isZero();

        b.writer().write(pattern(10)); // one slot: b is full
        a.writer().write(pattern(20));
        b.writer().setNonBlocking(true);
        assertThat(Splice.splice(a.reader(), b.writer(), 100)).isZero();
        assertThat(a.stat().bytesQueued()).isEqualTo(20);
        assertThat(b.stat().bytesQueued()).isEqualTo(10);
    }

    @ParameterizedTest
    @EnumSource(ThreadKind.class)
    void aBlockingSpliceWaitsForDataAndWakesTheTargetsBlockedReader(ThreadKind kind) throws Exception {
        Pipe a = open();
        Pipe b = open();
        Running<byte[]> reader = start(kind, () -> readFully(b.reader(), 50));
        awaitBlockedReading(reader.thread(), b, 1);
        Running<Long> splicer = start(kind, () -> Splice.splice(a.reader(), b.writer(), 1000));
        awaitBlockedReading(splicer.thread(), a, 1);

        a.writer().write(pattern(50));
        assertThat(splicer.join()).isEqualTo(50);
        assertThat(reader.join()).isEqualTo(pattern(50));
    }

    @ParameterizedTest
    @EnumSource(ThreadKind.class)
    void aBlockingSpliceWaitsForRoomAndWakesTheSourcesBlockedWriter(ThreadKind kind) throws Exception {
        Pipe a = open(options().capacity(4096).build());
        Pipe b = open(options().capacity(4096).build());
        b.writer().write(pattern(4096));
        a.writer().write(pattern(4096));
        Running<Void> writer = start(kind, () -> {
            a.writer().write(pattern(7));
            return null;
        });
        awaitBlockedWriting(writer.thread(), a, 1);
        Running<Long> splicer = start(kind, () -> Splice.splice(a.reader(), b.writer(), 1 << 20));
        awaitBlockedWriting(splicer.thread(), b, 1);

        assertThat(readFully(b.reader(), 4096)).isEqualTo(pattern(4096));
        assertThat(splicer.join()).isEqualTo(4096);
        writer.join(); // a's slot was freed by the splice, so its writer got in
        assertThat(readFully(b.reader(), 4096)).isEqualTo(pattern(4096));
        assertThat(readFully(a.reader(), 7)).isEqualTo(pattern(7));
    }

    @Test
    void spliceIntoAPipeWithNoReaderIsBrokenPipeAndLeavesTheSource() throws Exception {
        Pipe a = open();
        Pipe b = open();
        a.writer().write(pattern(100));
        b.reader().close();
        BrokenPipeException e = thrownBy(BrokenPipeException.class,
                () -> Splice.splice(a.reader(), b.writer(), 100));
        assertThat(e.bytesTransferred()).isZero();
        assertThat(readFully(a.reader(), 100)).isEqualTo(pattern(100));

        a.writer().close(); // Linux checks the target first: an ended source into a broken target is EPIPE
        thrownBy(BrokenPipeException.class, () -> Splice.splice(a.reader(), b.writer(), 100));
    }

    @ParameterizedTest
    @EnumSource(ThreadKind.class)
    void aSpliceBlockedOnAFullTargetFailsWhenItsLastReaderCloses(ThreadKind kind) throws Exception {
        Pipe a = open();
        Pipe b = open(options().capacity(4096).build());
        b.writer().write(pattern(1));
        a.writer().write(pattern(100));
        Running<Long> splicer = start(kind, () -> Splice.splice(a.reader(), b.writer(), 100));
        awaitBlockedWriting(splicer.thread(), b, 1);
        b.reader().close();
        ConformanceSupport.as(BrokenPipeException.class, splicer.failure());
        assertThat(a.stat().bytesQueued()).isEqualTo(100);
    }

    @Test
    void badInputIsRefusedBeforeEitherPipeIsTouched() throws Exception {
        Pipe a = open();
        Pipe b = open();
        a.writer().write(pattern(100));

        assertThatThrownBy(() -> Splice.splice(a.reader(), a.writer(), 10))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("itself");
        WriteEnd dup = a.writer().dup();
        assertThatThrownBy(() -> Splice.splice(a.reader(), dup, 10)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> Splice.splice(a.reader(), b.writer(), -1))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("negative");
        assertThatThrownBy(() -> Splice.splice(null, b.writer(), 1)).isInstanceOf(NullPointerException.class);
        assertThatThrownBy(() -> Splice.splice(a.reader(), null, 1)).isInstanceOf(NullPointerException.class);
        assertThatThrownBy(() -> Splice.splice(foreignReader(), b.writer(), 1))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("in-process");
        assertThatThrownBy(() -> Splice.tee(a.reader(), foreignWriter(), 1))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("kernel");

        assertThat(a.stat().bytesQueued()).isEqualTo(100);
        assertThat(b.stat().bytesQueued()).isZero();
        assertThat(a.counters().readCalls()).isZero();
        assertThat(b.counters().writeCalls()).isZero();
    }

    @Test
    void closedEndsAreRefused() throws Exception {
        Pipe a = open();
        Pipe b = open();
        a.writer().write(pattern(10));
        ReadEnd r = a.reader().dup();
        r.close();
        thrownBy(ClosedChannelException.class, () -> Splice.splice(r, b.writer(), 10));
        WriteEnd w = b.writer().dup();
        w.close();
        thrownBy(ClosedChannelException.class, () -> Splice.splice(a.reader(), w, 10));
        assertThat(a.stat().bytesQueued()).isEqualTo(10);
    }

    @ParameterizedTest
    @EnumSource(ThreadKind.class)
    void interruptAndTimeoutEndAWaitingSpliceHavingMovedNothing(ThreadKind kind) throws Exception {
        Pipe a = open();
        Pipe b = open();
        Running<Long> splicer = start(kind, () -> Splice.splice(a.reader(), b.writer(), 10));
        awaitBlockedReading(splicer.thread(), a, 1);
        splicer.thread().interrupt();
        assertThat(splicer.failure()).isInstanceOf(InterruptedIOException.class);
        assertThat(splicer.interruptedAtEnd()).isTrue();

        a.reader().setTimeout(Duration.ofMillis(50));
        thrownBy(PipeTimeoutException.class, () -> Splice.splice(a.reader(), b.writer(), 10));
        a.reader().setTimeout(Duration.ZERO);
        a.writer().write(pattern(3));
        assertThat(Splice.splice(a.reader(), b.writer(), 10)).isEqualTo(3);
    }

    @Test
    void twoThreadsSplicingInOppositeDirectionsDoNotDeadlock() throws Exception {
        Pipe a = open();
        Pipe b = open();
        a.writer().write(pattern(30000));
        b.writer().write(pattern(30000));
        a.reader().setNonBlocking(true);
        b.reader().setNonBlocking(true);
        a.writer().setNonBlocking(true);
        b.writer().setNonBlocking(true);
        // A fixed number of calls each, racing: a lock-order deadlock would hang a join (the test's timeout).
        int calls = 20_000;
        Running<Long> ab = start(ThreadKind.PLATFORM, () -> {
            long n = 0;
            for (int i = 0; i < calls; i++) {
                n += Math.max(0, Splice.splice(a.reader(), b.writer(), 5000));
            }
            return n;
        });
        Running<Long> ba = start(ThreadKind.PLATFORM, () -> {
            long n = 0;
            for (int i = 0; i < calls; i++) {
                n += Math.max(0, Splice.splice(b.reader(), a.writer(), 5000));
            }
            return n;
        });
        ab.join();
        ba.join();
        assertThat(a.stat().bytesQueued() + b.stat().bytesQueued()).as("nothing lost or duplicated").isEqualTo(60000);
    }

    static ReadEnd foreignReader() {
        return (ReadEnd) Proxy.newProxyInstance(ReadEnd.class.getClassLoader(), new Class<?>[] {ReadEnd.class},
                (proxy, m, args) -> {
                    throw new IOException("not a real pipe");
                });
    }

    static WriteEnd foreignWriter() {
        return (WriteEnd) Proxy.newProxyInstance(WriteEnd.class.getClassLoader(), new Class<?>[] {WriteEnd.class},
                (proxy, m, args) -> {
                    throw new IOException("not a real pipe");
                });
    }
}
