package dev.sluice;

import dev.sluice.testing.Capability;
import dev.sluice.testing.Requires;

import static dev.sluice.ConformanceSupport.awaitBlockedWriting;
import static dev.sluice.ConformanceSupport.pattern;
import static dev.sluice.ConformanceSupport.readFully;
import static dev.sluice.ConformanceSupport.start;
import static dev.sluice.ConformanceSupport.thrownBy;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.sluice.ConformanceSupport.Running;
import dev.sluice.ConformanceSupport.ThreadKind;
import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Rule 17, gifted buffers ({@code vmsplice(2)} with {@code SPLICE_F_GIFT}; linux-pipe.md §5): the pipe
 * references the writer's own memory, heap or direct, one slot per page's worth, and readers copy from it
 * directly. The gift belongs to the pipe until read; a giver that visibly reuses its buffer makes the
 * reader fail loudly. Gifts never take merged writes and never enter a page pool.
 */
@Timeout(value = 20, unit = TimeUnit.SECONDS)
@Requires(Capability.SPLICE)
class Rule17GiftTest extends ConformanceTest {

    private static ByteBuffer bufferOf(byte[] data, boolean direct) {
        ByteBuffer b = direct ? ByteBuffer.allocateDirect(data.length) : ByteBuffer.allocate(data.length);
        return b.put(data).flip();
    }

    @ParameterizedTest(name = "direct={0}")
    @ValueSource(booleans = {false, true})
    void readersGetTheGiftedBytesInEveryShapeOfRead(boolean direct) throws Exception {
        Pipe p = open();
        byte[] data = pattern(3 * 4096 + 5);
        ByteBuffer gift = bufferOf(data, direct);
        assertThat(Splice.gift(p.writer(), gift)).isEqualTo(data.length);
        assertThat(gift.hasRemaining()).as("the position moved past the gift").isFalse();
        assertThat(p.stat().slotsUsed()).isEqualTo(4);

        byte[] first = new byte[1000];
        assertThat(p.reader().read(first)).isEqualTo(1000);
        ByteBuffer heap = ByteBuffer.allocate(5000);
        assertThat(p.reader().read(heap)).isEqualTo(5000);
        ByteBuffer dir = ByteBuffer.allocateDirect(3000);
        assertThat(p.reader().read(dir)).isEqualTo(3000);
        ByteBuffer[] scatter = {ByteBuffer.allocate(1000), ByteBuffer.allocateDirect(10000)};
        assertThat(p.reader().read(scatter)).isEqualTo(data.length - 9000);

        ByteBuffer all = ByteBuffer.allocate(data.length).put(first).put(heap.flip()).put(dir.flip())
                .put(scatter[0].flip()).put(scatter[1].flip());
        assertThat(all.array()).isEqualTo(data);
    }

    @Test
    void theBytesAreNotCopied() throws Exception {
        Pipe p = open();
        byte[] backing = pattern(100);
        Splice.gift(p.writer(), ByteBuffer.wrap(backing));
        backing[0] = 42; // breaking the rule behind the buffer's back, to show the pipe reads this very array
        assertThat(readFully(p.reader(), 100)[0]).isEqualTo((byte) 42);
    }

    @Test
    void aSliceOfALargerArrayGivesExactlyItsWindow() throws Exception {
        Pipe p = open();
        byte[] backing = pattern(10000);
        ByteBuffer slice = ByteBuffer.wrap(backing, 1000, 6000).slice(); // array offset 1000
        slice.position(10);
        assertThat(Splice.gift(p.writer(), slice)).isEqualTo(5990);
        assertThat(readFully(p.reader(), 5990)).isEqualTo(Arrays.copyOfRange(backing, 1010, 7000));
    }

    @ParameterizedTest(name = "direct={0}")
    @ValueSource(booleans = {false, true})
    void aGiverThatReusesItsBufferMakesTheReaderFailLoudly(boolean direct) throws Exception {
        Pipe p = open();
        ByteBuffer gift = bufferOf(pattern(100), direct);
        Splice.gift(p.writer(), gift);
        gift.clear(); // reusing the buffer as if the pipe had copied it
        GiftReusedException e = thrownBy(GiftReusedException.class, () -> p.reader().read(new byte[100]));
        assertThat(e).hasMessageContaining("reused");
        // The pipe goes on: the suspect slot is gone, later bytes flow.
        p.writer().write(pattern(5));
        assertThat(readFully(p.reader(), 5)).isEqualTo(pattern(5));
    }

    @Test
    void aReadStopsBeforeABrokenGiftAndTheNextReadReportsIt() throws Exception {
        Pipe p = open();
        p.writer().write(pattern(10));
        ByteBuffer gift = bufferOf(pattern(20), false);
        Splice.gift(p.writer(), gift);
        gift.flip();
        assertThat(p.reader().read(new byte[100])).as("the good bytes first").isEqualTo(10);
        thrownBy(GiftReusedException.class, () -> p.reader().read(new byte[100]));
    }

    @Test
    void badInputIsRefusedAndLeavesThePipe() throws Exception {
        Pipe p = open();
        ByteBuffer ro = ByteBuffer.wrap(pattern(10)).asReadOnlyBuffer();
        assertThatThrownBy(() -> Splice.gift(p.writer(), ro)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("read-only");
        assertThat(ro.position()).isZero();
        assertThatThrownBy(() -> Splice.gift(p.writer(), null)).isInstanceOf(NullPointerException.class);
        assertThatThrownBy(() -> Splice.gift(Rule15SpliceTest.foreignWriter(), ByteBuffer.allocate(1)))
                .isInstanceOf(IllegalArgumentException.class);
        assertThat(Splice.gift(p.writer(), ByteBuffer.allocate(0))).isZero();
        assertThat(p.stat().bytesQueued()).isZero();
    }

    @Test
    void nonBlockingGiftsWhatFitsAndKeepsSmallGiftsWhole() throws Exception {
        Pipe p = open(options().capacity(4 * 4096).build());
        p.writer().write(pattern(2 * 4096));
        p.writer().setNonBlocking(true);
        byte[] data = pattern(4 * 4096);
        ByteBuffer gift = ByteBuffer.wrap(data);
        assertThat(Splice.gift(p.writer(), gift)).as("two free slots").isEqualTo(2 * 4096);
        assertThat(gift.position()).isEqualTo(2 * 4096);
        ByteBuffer small = ByteBuffer.wrap(pattern(100));
        assertThat(Splice.gift(p.writer(), small)).as("full: all or nothing").isZero();
        assertThat(small.position()).isZero();

        assertThat(readFully(p.reader(), 4 * 4096)).endsWith(Arrays.copyOf(data, 2 * 4096));
        assertThat(Splice.gift(p.writer(), gift)).as("the rest, still the caller's").isEqualTo(2 * 4096);
        assertThat(readFully(p.reader(), 2 * 4096)).isEqualTo(Arrays.copyOfRange(data, 2 * 4096, 4 * 4096));
    }

    @ParameterizedTest
    @EnumSource(ThreadKind.class)
    void aBlockingGiftWaitsForRoomUntilAllIsGiven(ThreadKind kind) throws Exception {
        Pipe p = open(options().capacity(2 * 4096).build());
        byte[] data = pattern(5 * 4096);
        ByteBuffer gift = ByteBuffer.allocateDirect(data.length).put(data).flip();
        Running<Long> giver = start(kind, () -> Splice.gift(p.writer(), gift));
        awaitBlockedWriting(giver.thread(), p, 1);
        assertThat(readFully(p.reader(), data.length)).isEqualTo(data);
        assertThat(giver.join()).isEqualTo(data.length);
    }

    @Test
    void aBlockingGiftThatTimesOutReportsWhatItGaveAndTheRestStaysTheCallers() throws Exception {
        Pipe p = open(options().capacity(2 * 4096).build());
        p.writer().setTimeout(java.time.Duration.ofMillis(30));
        byte[] data = pattern(3 * 4096);
        ByteBuffer gift = ByteBuffer.wrap(data);
        PipeTimeoutException e = thrownBy(PipeTimeoutException.class, () -> Splice.gift(p.writer(), gift));
        assertThat(e.bytesTransferred).isEqualTo(2 * 4096);
        assertThat(gift.position()).isEqualTo(2 * 4096);
        assertThat(readFully(p.reader(), 2 * 4096)).isEqualTo(Arrays.copyOf(data, 2 * 4096));
    }

    @Test
    void giftToABrokenPipeIsBrokenPipeAndGivesNothing() throws Exception {
        Pipe p = open();
        p.reader().close();
        ByteBuffer gift = ByteBuffer.wrap(pattern(10));
        BrokenPipeException e = thrownBy(BrokenPipeException.class, () -> Splice.gift(p.writer(), gift));
        assertThat(e.bytesTransferred()).isZero();
        assertThat(gift.position()).as("still the caller's").isZero();
    }

    @Test
    void giftsNeverTakeMergedWritesAndNeverEnterThePool() throws Exception {
        Pipe p = open();
        byte[] backing = new byte[4096];
        ByteBuffer gift = ByteBuffer.wrap(backing, 0, 10);
        Splice.gift(p.writer(), gift);
        p.writer().write(pattern(5));
        assertThat(p.stat().slotsUsed()).isEqualTo(2);
        assertThat(Arrays.copyOfRange(backing, 10, 15)).as("nothing written past the gift").containsOnly(0);
        readFully(p.reader(), 15);
        p.resetCounters();
        for (int i = 0; i < 20; i++) { // a pool with the gift's array in it would hand it out here
            p.writer().write(pattern(4096));
            readFully(p.reader(), 4096);
        }
        assertThat(backing).containsOnly(0);
    }

    @Test
    void giftsCanBeSplicedAndTeed() throws Exception {
        Pipe a = open();
        Pipe b = open();
        Pipe c = open();
        byte[] data = pattern(9000);
        Splice.gift(a.writer(), ByteBuffer.allocateDirect(9000).put(data).flip());
        assertThat(Splice.tee(a.reader(), b.writer(), Long.MAX_VALUE)).isEqualTo(9000);
        assertThat(Splice.splice(a.reader(), c.writer(), 5000)).as("whole slots: 4096").isEqualTo(4096);
        assertThat(Splice.splice(a.reader(), c.writer(), Long.MAX_VALUE)).isEqualTo(9000 - 4096);
        assertThat(readFully(b.reader(), 9000)).isEqualTo(data);
        assertThat(readFully(c.reader(), 9000)).isEqualTo(data);
    }

    @Test
    void inPacketModeEachSlotOfAGiftIsAPacket() throws Exception {
        Pipe p = open(options().packetMode(true).build());
        Splice.gift(p.writer(), ByteBuffer.wrap(pattern(5000)));
        byte[] buf = new byte[8192];
        assertThat(p.reader().read(buf)).isEqualTo(4096);
        assertThat(p.reader().read(buf)).isEqualTo(904);
    }
}
