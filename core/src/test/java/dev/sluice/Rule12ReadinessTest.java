package dev.sluice;

import dev.sluice.testing.Capability;

import static dev.sluice.FeatureSupport.BOUND;
import static dev.sluice.FeatureSupport.fillWithPages;
import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.FeatureSupport.ThreadKind;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Rule 12, readiness: {@code poll()} reports Linux's {@code pipe_poll()} bits, and {@code whenReady()}
 * completes exactly when those bits say a call would not block.
 *
 * <p>Linux (linux-pipe.md §4, "poll / epoll"): the read end has {@code POLLIN} iff the ring is not empty
 * and {@code POLLHUP} iff there are no writers; the write end has {@code POLLOUT} iff a <em>whole slot</em>
 * is free ({@code !pipe_full}; spare room in the last page, where a small write would merge, does not
 * count) and {@code POLLERR} iff there are no readers. A closed descriptor polls as {@code POLLNVAL}.
 * The readiness future is the analogue of {@code fasync}: it fires when a write makes the pipe readable,
 * a read frees a slot, the other side's last handle closes, or the handle itself is closed.
 */
@Timeout(30)
class Rule12ReadinessTest extends ConformanceTest {
    private static final int POLLIN = 0x001 | 0x040; // POLLIN | POLLRDNORM, as pipe_poll reports it
    private static final int POLLOUT = 0x004 | 0x100; // POLLOUT | POLLWRNORM
    private static final int POLLERR = 0x008;
    private static final int POLLHUP = 0x010;
    private static final int POLLNVAL = 0x020;

    private static Readiness get(CompletableFuture<Readiness> f) throws Exception {
        return f.get(BOUND.toMillis(), TimeUnit.MILLISECONDS);
    }

    // ---- poll() --------------------------------------------------------------------------------------

    @Test
    void aNewPipeIsWritableAndNotReadable() {
        Pipe p = open();
        Readiness r = p.reader().poll();
        assertThat(r.readable()).isFalse();
        assertThat(r.hungUp()).isFalse();
        assertThat(r.invalid()).isFalse();
        assertThat(r.linuxPollMask()).isZero();
        Readiness w = p.writer().poll();
        assertThat(w.writable()).isTrue();
        assertThat(w.error()).isFalse();
        assertThat(w.linuxPollMask()).isEqualTo(POLLOUT);
    }

    @Test
    void theReadEndIsReadableExactlyWhileDataIsQueued() throws IOException {
        Pipe p = open();
        p.writer().write(new byte[] {1});
        assertThat(p.reader().poll().readable()).isTrue();
        assertThat(p.reader().poll().linuxPollMask()).isEqualTo(POLLIN);
        assertThat(p.writer().poll().readable()).as("POLLIN is a read-side bit").isFalse();
        p.reader().read(new byte[1]);
        assertThat(p.reader().poll().readable()).isFalse();
    }

    @Test
    void theReadEndHangsUpOnlyWhenTheLastWriterCloses() throws IOException {
        Pipe p = open();
        WriteEnd second = p.writer().dup();
        second.write(new byte[] {1, 2});
        p.writer().close();
        assertThat(p.reader().poll().hungUp()).as("another write handle is still open").isFalse();
        second.close();
        Readiness r = p.reader().poll();
        assertThat(r.hungUp()).isTrue();
        assertThat(r.readable()).as("queued bytes are still readable after the hang-up").isTrue();
        assertThat(r.linuxPollMask()).isEqualTo(POLLIN | POLLHUP);
        assertThat(p.reader().read(new byte[8])).isEqualTo(2);
        assertThat(p.reader().poll().linuxPollMask()).isEqualTo(POLLHUP);
    }

    @Test
    void aFullRingWithMergeRoomInItsLastPageIsNotWritableThoughAOneByteWriteSucceeds() throws IOException {
        Pipe p = open();
        WriteEnd w = p.writer();
        w.setNonBlocking(true);
        // 15 full pages and 1 byte: 16 slots, and 4095 bytes of room in the last page.
        assertThat(w.write(new byte[15 * Pipe.PAGE_SIZE + 1])).isEqualTo(15 * Pipe.PAGE_SIZE + 1);
        if (has(Capability.OCCUPANCY)) assertThat(p.stat().slotsUsed()).isEqualTo(16);

        assertThat(w.poll().writable()).as("POLLOUT needs a whole free slot").isFalse();
        assertThat(w.poll().linuxPollMask()).isZero();
        assertThat(w.write(new byte[] {9})).as("yet a 1-byte write merges into the last page").isEqualTo(1);
        assertThat(w.write(new byte[4094])).as("so does the rest of the page").isEqualTo(4094);
        assertThat(w.write(new byte[] {9})).as("now the last page is full too: EAGAIN").isZero();
        assertThat(w.poll().writable()).isFalse();
        assertThat(p.stat().bytesQueued()).isEqualTo(16L * Pipe.PAGE_SIZE);
    }

    @Test
    void fifteenUsedSlotsLeaveTheWriteEndWritable() throws IOException {
        Pipe p = open();
        p.writer().write(new byte[15 * Pipe.PAGE_SIZE]);
        assertThat(p.writer().poll().writable()).isTrue();
        p.writer().write(new byte[1]);
        assertThat(p.writer().poll().writable()).isFalse();
    }

    @Test
    void readingPartOfAPageOfAFullRingDoesNotMakeItWritableButFreeingASlotDoes() throws IOException {
        Pipe p = open();
        assertThat(fillWithPages(p.writer())).isEqualTo(PipeOptions.DEFAULT_CAPACITY);
        assertThat(p.reader().read(new byte[Pipe.PAGE_SIZE - 1])).isEqualTo(Pipe.PAGE_SIZE - 1);
        assertThat(p.writer().poll().writable()).isFalse();
        assertThat(p.reader().read(new byte[1])).isEqualTo(1);
        assertThat(p.writer().poll().writable()).isTrue();
    }

    @Test
    void growingAFullPipeMakesItWritable() throws IOException {
        assume(Capability.RESIZE);
        Pipe p = open();
        fillWithPages(p.writer());
        assertThat(p.writer().poll().writable()).isFalse();
        p.setCapacity(2 * PipeOptions.DEFAULT_CAPACITY);
        assertThat(p.writer().poll().writable()).isTrue();
    }

    @Test
    void theWriteEndReportsAnErrorOnlyWhenTheLastReaderCloses() throws IOException {
        Pipe p = open();
        ReadEnd second = p.reader().dup();
        p.reader().close();
        assertThat(p.writer().poll().error()).isFalse();
        second.close();
        Readiness w = p.writer().poll();
        assertThat(w.error()).isTrue();
        assertThat(w.writable()).as("Linux reports POLLOUT beside POLLERR while a slot is free").isTrue();
        assertThat(w.linuxPollMask()).isEqualTo(POLLOUT | POLLERR);
    }

    @Test
    void aFullPipeWithoutReadersReportsOnlyTheError() throws IOException {
        Pipe p = open();
        fillWithPages(p.writer());
        p.reader().close();
        assertThat(p.writer().poll().linuxPollMask()).isEqualTo(POLLERR);
    }

    @Test
    void aClosedHandlePollsInvalidAndNothingElse() throws IOException {
        Pipe p = open();
        p.writer().write(new byte[] {1});
        ReadEnd r2 = p.reader().dup();
        p.reader().close();
        Readiness r = p.reader().poll();
        assertThat(r.invalid()).isTrue();
        assertThat(r.readable()).isFalse();
        assertThat(r.linuxPollMask()).isEqualTo(POLLNVAL);
        assertThat(r2.poll().readable()).as("the other handle is unaffected").isTrue();
        p.writer().close();
        assertThat(p.writer().poll().linuxPollMask()).isEqualTo(POLLNVAL);
        assertThat(r2.poll().linuxPollMask()).isEqualTo(POLLIN | POLLHUP);
    }

    @Test
    void linuxPollMaskMapsEachBitToItsLinuxValue() {
        for (int bits = 0; bits < 32; bits++) {
            Readiness r = Readiness.of(bits);
            int expected = (r.readable() ? POLLIN : 0) | (r.writable() ? POLLOUT : 0)
                    | (r.error() ? POLLERR : 0) | (r.hungUp() ? POLLHUP : 0) | (r.invalid() ? POLLNVAL : 0);
            assertThat(r.linuxPollMask()).as("%s", r).isEqualTo(expected);
            assertThat(Integer.bitCount(r.linuxPollMask()))
                    .isEqualTo(Integer.bitCount(bits) + (r.readable() ? 1 : 0) + (r.writable() ? 1 : 0));
            assertThat(r).isEqualTo(Readiness.of(bits)).hasSameHashCodeAs(Readiness.of(bits));
        }
        assertThat(Readiness.of(Readiness.IN).linuxPollMask()).isEqualTo(0x41);
        assertThat(Readiness.of(Readiness.OUT).linuxPollMask()).isEqualTo(0x104);
        assertThat(Readiness.of(Readiness.ERR).linuxPollMask()).isEqualTo(8);
        assertThat(Readiness.of(Readiness.HUP).linuxPollMask()).isEqualTo(16);
        assertThat(Readiness.of(Readiness.NVAL).linuxPollMask()).isEqualTo(32);
        assertThat(Readiness.of(Readiness.IN | Readiness.HUP).toString()).isEqualTo("Readiness[IN, HUP]");
    }

    // ---- whenReady() ---------------------------------------------------------------------------------

    @Test
    void whenReadyCompletesAtOnceIfAlreadyReady() throws IOException {
        Pipe p = open();
        CompletableFuture<Readiness> w = p.writer().whenReady();
        assertThat(w).isDone();
        assertThat(w.join().writable()).isTrue();

        CompletableFuture<Readiness> notYet = p.reader().whenReady();
        assertThat(notYet).isNotDone();
        p.writer().write(new byte[] {1});
        CompletableFuture<Readiness> r = p.reader().whenReady();
        assertThat(r).isDone();
        assertThat(r.join().readable()).isTrue();
        assertThat(notYet).isDone();
    }

    @Test
    void whenReadyOnAClosedHandleCompletesAtOnceAsInvalid() {
        Pipe p = open();
        p.reader().close();
        assertThat(p.reader().whenReady().join().invalid()).isTrue();
    }

    @Test
    void whenReadyIsOneShot() throws IOException {
        Pipe p = open();
        p.writer().write(new byte[] {1});
        assertThat(p.reader().whenReady()).isDone();
        p.reader().read(new byte[1]);
        CompletableFuture<Readiness> next = p.reader().whenReady();
        assertThat(next).as("empty again: the next future waits").isNotDone();
        p.writer().write(new byte[] {2});
        assertThat(next).isDone();
    }

    @ParameterizedTest
    @EnumSource(ThreadKind.class)
    void aWriteFromAnotherThreadCompletesTheReadersFuture(ThreadKind kind) throws Exception {
        Pipe p = open();
        List<CompletableFuture<Readiness>> futures = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            futures.add(p.reader().whenReady());
        }
        assertThat(futures).allSatisfy(f -> assertThat(f).isNotDone());
        kind.run("writer", () -> p.writer().write(new byte[] {1})).join();
        for (CompletableFuture<Readiness> f : futures) {
            Readiness r = get(f);
            assertThat(r.readable()).isTrue();
            assertThat(r.hungUp()).isFalse();
        }
    }

    @ParameterizedTest
    @EnumSource(ThreadKind.class)
    void aThreadWaitingOnTheFutureWakesWhenDataArrives(ThreadKind kind) throws Exception {
        Pipe p = open();
        var waiter = kind.call("waiter", () -> {
            Readiness r = p.reader().whenReady().get();
            byte[] b = new byte[4];
            p.reader().setNonBlocking(true);
            int n = p.reader().read(b); // must not block: the future said readable
            return r.readable() && n == 1 && b[0] == 42;
        }).awaitBlocked();
        p.writer().write(new byte[] {42});
        assertThat(waiter.join()).isTrue();
    }

    @ParameterizedTest
    @EnumSource(ThreadKind.class)
    void aWriterBlockedOnAFullPipeHasAlreadyMadeTheReadersFutureComplete(ThreadKind kind) throws Exception {
        Pipe p = open();
        CompletableFuture<Readiness> f = p.reader().whenReady();
        var writer = kind.call("writer", () -> p.writer().write(new byte[2 * PipeOptions.DEFAULT_CAPACITY]))
                .awaitBlocked();
        assertThat(get(f).readable()).as("completed while the writer is still blocked").isTrue();
        assertThat(writer.isDone()).isFalse();
        byte[] sink = new byte[PipeOptions.DEFAULT_CAPACITY];
        int total = 0;
        while (total < 2 * PipeOptions.DEFAULT_CAPACITY) {
            total += p.reader().read(sink);
        }
        assertThat(writer.join()).isEqualTo(2 * PipeOptions.DEFAULT_CAPACITY);
    }

    @ParameterizedTest
    @EnumSource(ThreadKind.class)
    void theWritersFutureCompletesOnlyWhenAReadFreesASlot(ThreadKind kind) throws Exception {
        Pipe p = open();
        fillWithPages(p.writer());
        CompletableFuture<Readiness> f = p.writer().whenReady();
        assertThat(f).isNotDone();
        kind.run("nibbler", () -> p.reader().read(new byte[100])).join();
        assertThat(f).as("a read inside the tail page frees no slot").isNotDone();
        kind.run("reader", () -> p.reader().read(new byte[Pipe.PAGE_SIZE - 100])).join();
        Readiness r = get(f);
        assertThat(r.writable()).isTrue();
        assertThat(r.error()).isFalse();
    }

    @ParameterizedTest
    @EnumSource(ThreadKind.class)
    void aThreadWaitingForRoomWakesWhenASlotIsFreed(ThreadKind kind) throws Exception {
        Pipe p = open();
        fillWithPages(p.writer());
        var waiter = kind.call("waiter", () -> {
            Readiness r = p.writer().whenReady().get();
            p.writer().setNonBlocking(true);
            return r.writable() ? p.writer().write(new byte[Pipe.PAGE_SIZE]) : -1;
        }).awaitBlocked();
        p.reader().read(new byte[Pipe.PAGE_SIZE]);
        assertThat(waiter.join()).as("the future said writable, so a page fits").isEqualTo(Pipe.PAGE_SIZE);
    }

    @ParameterizedTest
    @EnumSource(ThreadKind.class)
    void theLastWriterClosingCompletesTheReadersFutureWithHangUp(ThreadKind kind) throws Exception {
        Pipe p = open();
        WriteEnd second = p.writer().dup();
        CompletableFuture<Readiness> f = p.reader().whenReady();
        kind.run("closer", () -> p.writer().close()).join();
        assertThat(f).as("a write handle is still open").isNotDone();
        kind.run("closer", second::close).join();
        Readiness r = get(f);
        assertThat(r.hungUp()).isTrue();
        assertThat(r.readable()).isFalse();
        assertThat(r.linuxPollMask()).isEqualTo(POLLHUP);
    }

    @ParameterizedTest
    @EnumSource(ThreadKind.class)
    void theLastReaderClosingCompletesTheWritersFutureWithError(ThreadKind kind) throws Exception {
        Pipe p = open();
        fillWithPages(p.writer());
        CompletableFuture<Readiness> f = p.writer().whenReady();
        assertThat(f).isNotDone();
        kind.run("closer", () -> p.reader().close()).join();
        Readiness r = get(f);
        assertThat(r.error()).isTrue();
        assertThat(r.linuxPollMask()).isEqualTo(POLLERR);
    }

    @ParameterizedTest
    @EnumSource(ThreadKind.class)
    void closingTheHandleCompletesItsOwnFutureAsInvalid(ThreadKind kind) throws Exception {
        Pipe p = open();
        ReadEnd other = p.reader().dup();
        CompletableFuture<Readiness> mine = p.reader().whenReady();
        CompletableFuture<Readiness> theirs = other.whenReady();
        kind.run("closer", () -> p.reader().close()).join();
        assertThat(get(mine).invalid()).isTrue();
        assertThat(theirs).as("another handle of the same side is not affected").isNotDone();

        fillWithPages(p.writer());
        CompletableFuture<Readiness> w = p.writer().whenReady();
        var waiter = kind.call("waiter", () -> w.get()).awaitBlocked();
        p.writer().close();
        assertThat(waiter.join().invalid()).isTrue();
        assertThat(get(theirs).readable()).isTrue();
    }

    /**
     * Each future's value must say why it fired. Two futures wait on one read end; whichever completes
     * first drains the pipe in its callback (which runs on the completing thread, as documented). The other
     * must still be completed with a readiness that is ready, not with a snapshot taken after the drain that
     * says neither readable nor hung up: epoll never reports an event with no bits, it re-checks and
     * reports the item later instead.
     */
    @ParameterizedTest
    @EnumSource(ThreadKind.class)
    void everyFutureCompletesWithAReadinessThatIsReady(ThreadKind kind) throws Exception {
        Pipe p = open();
        p.reader().setNonBlocking(true);
        List<CompletableFuture<Readiness>> futures = new ArrayList<>();
        List<CompletableFuture<Integer>> drained = new ArrayList<>();
        for (int i = 0; i < 2; i++) {
            CompletableFuture<Readiness> f = p.reader().whenReady();
            futures.add(f);
            drained.add(f.thenApply(r -> {
                try {
                    return p.reader().read(new byte[64]);
                } catch (IOException e) {
                    throw new java.io.UncheckedIOException(e);
                }
            }));
        }
        kind.run("writer", () -> p.writer().write(new byte[] {1, 2, 3})).join();
        for (CompletableFuture<Readiness> f : futures) {
            Readiness r = get(f);
            assertThat(r.readable() || r.hungUp() || r.invalid()).as("future completed with %s", r).isTrue();
        }
        assertThat(drained.get(0).join() + drained.get(1).join()).as("one callback drained 3 bytes").isEqualTo(3);
    }
}
