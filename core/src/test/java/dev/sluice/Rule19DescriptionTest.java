package dev.sluice;

import static dev.sluice.ConformanceSupport.awaitBlockedReading;
import static dev.sluice.ConformanceSupport.awaitBlockedWriting;
import static dev.sluice.ConformanceSupport.filled;
import static dev.sluice.ConformanceSupport.pattern;
import static dev.sluice.ConformanceSupport.readFully;
import static dev.sluice.ConformanceSupport.start;
import static dev.sluice.ConformanceSupport.thrownBy;
import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.ConformanceSupport.Running;
import dev.sluice.ConformanceSupport.ThreadKind;
import java.nio.channels.ClosedChannelException;
import java.time.Duration;
import java.util.Arrays;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Rule 19, handles and open file descriptions (dup(2), fcntl(2) {@code F_SETFL}, open(2) of
 * {@code /proc/self/fd/N}; fs/pipe.c reads {@code filp->f_flags} on every call): a file descriptor refers to
 * an open file description, and the mode a pipe looks at, {@code O_NONBLOCK} and {@code O_DIRECT} (packet
 * mode), belongs to the description. {@code dup()} makes another handle on the same description, so a mode
 * set through either handle holds for both; {@code reopen()} makes a new description with a copy of the
 * mode, which then goes its own way. Closing stays per handle, and so do timeouts (Linux has none on pipes).
 *
 * <p>A call blocked on one handle is not woken when the description becomes nonblocking through another:
 * {@code pipe_read} and {@code pipe_write} test {@code O_NONBLOCK} only before they sleep, so the sleeper
 * waits on for data or room, as on Linux, and the new mode governs its next decision to wait.
 */
@Timeout(value = 10, unit = TimeUnit.SECONDS)
class Rule19DescriptionTest extends ConformanceTest {

    @Test
    void nonBlockingSetThroughADupHoldsForTheOriginalAndBack() throws Exception {
        Pipe p = open();
        ReadEnd r2 = p.reader().dup();
        r2.setNonBlocking(true);
        assertThat(p.reader().isNonBlocking()).as("the original shares the description").isTrue();
        assertThat(p.reader().read(new byte[10])).as("EAGAIN through the original").isZero();

        p.reader().setNonBlocking(false);
        assertThat(r2.isNonBlocking()).as("and back, set through the original").isFalse();
        p.writer().write(pattern(3));
        assertThat(r2.read(new byte[10])).isEqualTo(3);
    }

    @Test
    void nonBlockingSetThroughAWriteDupHoldsForTheOriginalAndBack() throws Exception {
        Pipe p = open(options().capacity(Pipe.PAGE_SIZE).build());
        WriteEnd w2 = p.writer().dup();
        p.writer().setNonBlocking(true);
        assertThat(w2.isNonBlocking()).isTrue();
        assertThat(w2.write(pattern(Pipe.PAGE_SIZE))).isEqualTo(Pipe.PAGE_SIZE);
        assertThat(w2.write(pattern(1))).as("EAGAIN through the dup: the pipe is full").isZero();

        w2.setNonBlocking(false);
        assertThat(p.writer().isNonBlocking()).isFalse();
        assertThat(readFully(p.reader(), Pipe.PAGE_SIZE)).isEqualTo(pattern(Pipe.PAGE_SIZE));
    }

    @Test
    void packetModeSetThroughADupHoldsForTheOriginal() throws Exception {
        Pipe p = open();
        WriteEnd w2 = p.writer().dup();
        w2.setPacketMode(true);
        assertThat(p.writer().isPacketMode()).isTrue();
        p.writer().write(pattern(10));
        p.writer().write(pattern(20));
        byte[] b = new byte[100];
        assertThat(p.reader().read(b)).as("the original writes packets").isEqualTo(10);
        assertThat(p.reader().read(b)).isEqualTo(20);
    }

    @Test
    void packetModeTurnedOffThroughTheOriginalIsOffForTheDup() throws Exception {
        Pipe p = open(options().packetMode(true).build());
        WriteEnd w2 = p.writer().dup();
        assertThat(w2.isPacketMode()).isTrue();
        p.writer().setPacketMode(false);
        assertThat(w2.isPacketMode()).isFalse();
        w2.write(pattern(10));
        w2.write(pattern(20));
        assertThat(p.reader().read(new byte[100])).as("normal writes of the dup merge").isEqualTo(30);
    }

    @Test
    void aDupOfADupJoinsTheSameDescription() throws Exception {
        Pipe p = open();
        WriteEnd w3 = p.writer().dup().dup();
        ReadEnd r3 = p.reader().dup().dup();
        w3.setPacketMode(true);
        w3.setNonBlocking(true);
        r3.setNonBlocking(true);
        assertThat(p.writer().isPacketMode()).isTrue();
        assertThat(p.writer().isNonBlocking()).isTrue();
        assertThat(p.reader().isNonBlocking()).isTrue();
    }

    @Test
    void theTwoSidesHaveTheirOwnDescriptions() throws Exception {
        Pipe p = open();
        p.writer().dup().setNonBlocking(true);
        assertThat(p.reader().isNonBlocking()).as("pipe(2) makes two descriptions").isFalse();
        p.reader().dup().setNonBlocking(true);
        assertThat(p.reader().isNonBlocking()).isTrue();
        assertThat(p.writer().isNonBlocking()).isTrue();
    }

    @Test
    void timeoutsStayPerHandle() throws Exception {
        Pipe p = open();
        ReadEnd r2 = p.reader().dup();
        r2.setTimeout(Duration.ofSeconds(5));
        assertThat(p.reader().timeout()).as("not part of the description").isEqualTo(Duration.ZERO);
        p.reader().setTimeout(Duration.ofSeconds(7));
        assertThat(r2.timeout()).isEqualTo(Duration.ofSeconds(5));
        assertThat(p.reader().dup().timeout()).as("a dup starts with a copy").isEqualTo(Duration.ofSeconds(7));
    }

    @Test
    void closingOneHandleOfADescriptionLeavesTheOtherOpen() throws Exception {
        Pipe p = open();
        WriteEnd w2 = p.writer().dup();
        ReadEnd r2 = p.reader().dup();
        w2.close();
        r2.close();
        assertThat(p.writer().isOpen()).isTrue();
        assertThat(p.reader().isOpen()).isTrue();
        assertThat(p.stat().writers()).isEqualTo(1);
        thrownBy(ClosedChannelException.class, w2::dup);

        p.reader().setNonBlocking(true); // the description outlives the closed handle: its mode still works
        assertThat(p.reader().read(new byte[4])).as("EAGAIN: the original write handle keeps the side open")
                .isZero();
        p.writer().write(pattern(4));
        assertThat(p.reader().read(new byte[4])).isEqualTo(4);
        p.writer().close();
        assertThat(p.reader().read(new byte[4])).as("end-of-stream with the last write handle").isEqualTo(-1);
    }

    @Test
    void reopenStartsWithACopyOfTheModeWhichThenGoesItsOwnWay() throws Exception {
        Pipe p = open(options().nonBlocking(true).build());
        ReadEnd r2 = p.reader().reopen();
        assertThat(r2.isNonBlocking()).as("a copy of the mode").isTrue();
        r2.setNonBlocking(false);
        assertThat(p.reader().isNonBlocking()).as("not shared").isTrue();
        assertThat(p.reader().read(new byte[4])).isZero();
        p.reader().setNonBlocking(false);
        r2.setNonBlocking(true);
        assertThat(p.reader().isNonBlocking()).as("nor the other way").isFalse();
        assertThat(r2.read(new byte[4])).isZero();

        WriteEnd w2 = p.writer().reopen();
        assertThat(w2.isNonBlocking()).isTrue();
        w2.setNonBlocking(false);
        assertThat(p.writer().isNonBlocking()).isTrue();
        p.writer().setNonBlocking(false);
        w2.setNonBlocking(true);
        assertThat(p.writer().isNonBlocking()).isFalse();
        assertThat(p.stat().readers()).as("reopen counts a handle as dup does").isEqualTo(2);
        assertThat(p.stat().writers()).isEqualTo(2);
    }

    @Test
    void packetModeOfAReopenedHandleIsItsOwn() throws Exception {
        Pipe p = open(options().packetMode(true).build());
        WriteEnd w2 = p.writer().reopen();
        assertThat(w2.isPacketMode()).isTrue();
        p.writer().setPacketMode(false);
        assertThat(w2.isPacketMode()).as("not shared").isTrue();
        w2.write(pattern(10));
        w2.write(pattern(20));
        p.writer().write(pattern(5));
        p.writer().write(pattern(6));
        byte[] b = new byte[100];
        assertThat(p.reader().read(b)).as("a packet of the reopened handle").isEqualTo(10);
        assertThat(p.reader().read(b)).isEqualTo(20);
        assertThat(p.reader().read(b)).as("the original's normal writes merged").isEqualTo(11);

        w2.setPacketMode(false);
        p.writer().setPacketMode(true);
        assertThat(w2.isPacketMode()).as("nor the other way").isFalse();
    }

    @Test
    void aDupOfAReopenedHandleSharesTheNewDescription() throws Exception {
        Pipe p = open();
        ReadEnd r2 = p.reader().reopen();
        ReadEnd r3 = r2.dup();
        r3.setNonBlocking(true);
        assertThat(r2.isNonBlocking()).isTrue();
        assertThat(p.reader().isNonBlocking()).as("the first description is apart").isFalse();
        WriteEnd w2 = p.writer().reopen();
        WriteEnd w3 = w2.dup();
        w2.setPacketMode(true);
        assertThat(w3.isPacketMode()).isTrue();
        assertThat(p.writer().isPacketMode()).isFalse();
    }

    @Test
    void reopenOfAClosedHandleFailsAndOpensNothing() throws Exception {
        Pipe p = open();
        ReadEnd r2 = p.reader().dup();
        WriteEnd w2 = p.writer().dup();
        r2.close();
        w2.close();
        thrownBy(ClosedChannelException.class, r2::reopen);
        thrownBy(ClosedChannelException.class, w2::reopen);
        assertThat(p.stat().readers()).isEqualTo(1);
        assertThat(p.stat().writers()).isEqualTo(1);
    }

    @Test
    void aModeSetThroughAClosedHandleChangesNothing() throws Exception {
        Pipe p = open();
        ReadEnd r2 = p.reader().dup();
        WriteEnd w2 = p.writer().dup();
        r2.close();
        w2.close();
        // Linux: fcntl(F_SETFL) on a closed descriptor fails with EBADF; it no longer refers to the description.
        r2.setNonBlocking(true);
        w2.setNonBlocking(true);
        w2.setPacketMode(true);
        assertThat(p.reader().isNonBlocking()).isFalse();
        assertThat(p.writer().isNonBlocking()).isFalse();
        assertThat(p.writer().isPacketMode()).isFalse();
    }

    @Test
    void closingTheOriginalLeavesAReopenedHandleOpen() throws Exception {
        Pipe p = open();
        WriteEnd w2 = p.writer().reopen();
        p.writer().close();
        w2.write(pattern(3));
        assertThat(p.reader().read(new byte[10])).isEqualTo(3);
        w2.close();
        assertThat(p.reader().read(new byte[10])).as("end-of-stream with the last write handle").isEqualTo(-1);
    }

    /**
     * A reader asleep on an empty pipe stays asleep when a dup of its handle turns the description
     * nonblocking: Linux's {@code pipe_read} looked at {@code O_NONBLOCK} before it slept, and only data or
     * end-of-stream wakes it. Once it has its data, the next read through the same handle is nonblocking.
     */
    @ParameterizedTest
    @EnumSource(ThreadKind.class)
    void aBlockedReaderWaitsOnWhenADupTurnsTheDescriptionNonBlocking(ThreadKind kind) throws Exception {
        Pipe p = open();
        ReadEnd r2 = p.reader().dup();
        byte[] buf = new byte[10];
        Running<Integer> reader = start(kind, () -> p.reader().read(buf));
        awaitBlockedReading(reader.thread(), p, 1);

        r2.setNonBlocking(true);
        assertThat(r2.read(new byte[10])).as("the dup is nonblocking at once").isZero();
        assertThat(reader.isDone()).as("the sleeper is not woken by the mode change").isFalse();

        p.writer().write(filled(1, 'x'));
        assertThat(reader.join()).as("data, not EAGAIN: it slept through the change").isEqualTo(1);
        assertThat(p.reader().read(buf)).as("its next read is nonblocking").isZero();
    }

    /**
     * A writer asleep on a full pipe stays asleep too; when room comes it stores what fits, and when the pipe
     * is full again it looks at the mode afresh, finds the description nonblocking, and returns its partial
     * count instead of sleeping again ({@code pipe_write} tests {@code O_NONBLOCK} before every sleep).
     */
    @ParameterizedTest
    @EnumSource(ThreadKind.class)
    void aBlockedWriterStoresWhatFitsThenReturnsWhenADupTurnedTheDescriptionNonBlocking(ThreadKind kind)
            throws Exception {
        // Two slots: every wake policy wakes the writer when a read frees one of them.
        Pipe p = open(options().capacity(2 * Pipe.PAGE_SIZE).build());
        p.writer().write(pattern(2 * Pipe.PAGE_SIZE));
        WriteEnd w2 = p.writer().dup();
        byte[] data = filled(3 * Pipe.PAGE_SIZE, 7);
        Running<Integer> writer = start(kind, () -> p.writer().write(data));
        awaitBlockedWriting(writer.thread(), p, 1);

        w2.setNonBlocking(true);
        assertThat(writer.isDone()).as("the sleeper is not woken by the mode change").isFalse();

        assertThat(readFully(p.reader(), Pipe.PAGE_SIZE)).isEqualTo(pattern(Pipe.PAGE_SIZE));
        assertThat(writer.join()).as("one page stored, then the full pipe and a nonblocking description")
                .isEqualTo(Pipe.PAGE_SIZE);
        byte[] rest = concat(Arrays.copyOfRange(pattern(2 * Pipe.PAGE_SIZE), Pipe.PAGE_SIZE, 2 * Pipe.PAGE_SIZE),
                filled(Pipe.PAGE_SIZE, 7));
        assertThat(readFully(p.reader(), 2 * Pipe.PAGE_SIZE)).as("the first page's rest, then the stored page")
                .isEqualTo(rest);
    }

    private static byte[] concat(byte[] a, byte[] b) {
        byte[] all = Arrays.copyOf(a, a.length + b.length);
        System.arraycopy(b, 0, all, a.length, b.length);
        return all;
    }
}
