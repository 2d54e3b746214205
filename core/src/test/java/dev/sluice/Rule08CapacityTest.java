package dev.sluice;

import dev.sluice.testing.Capability;
import dev.sluice.testing.Requires;

import static dev.sluice.ConformanceSupport.awaitBlockedWriting;
import static dev.sluice.ConformanceSupport.filled;
import static dev.sluice.ConformanceSupport.pattern;
import static dev.sluice.ConformanceSupport.readFully;
import static dev.sluice.ConformanceSupport.start;
import static dev.sluice.ConformanceSupport.thrownBy;
import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.ConformanceSupport.Running;
import dev.sluice.ConformanceSupport.ThreadKind;
import java.io.ByteArrayOutputStream;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Rule 8, {@code FIONREAD}, {@code F_GETPIPE_SZ}/{@code F_SETPIPE_SZ} and per-user pipe page accounting
 * (fcntl(2), pipe(7) "/proc files"; fs/pipe.c {@code pipe_ioctl}, {@code round_pipe_size},
 * {@code pipe_set_size}, {@code pipe_resize_ring}, {@code alloc_pipe_info}; linux-pipe.md §1.4, §1.5).
 * {@code available()} is the number of unread bytes. The capacity can be read and changed while the pipe
 * is in use: sizes round up to one page, else to a power-of-two number of pages; shrinking below the
 * slots that hold data fails ({@code EBUSY}) and changes nothing; growing above the maximum
 * ({@code pipe-max-size}) fails ({@code EPERM}); growing wakes a writer blocked on a full pipe. With
 * shared accounting, a pipe opened over the soft limit gets 2 pages, one opened over the hard limit
 * fails ({@code ENFILE}), growing past either limit fails ({@code EPERM}), shrinking always works, and a
 * pipe's pages are returned when both of its sides are closed.
 */
@Timeout(value = 10, unit = TimeUnit.SECONDS)
@Requires(Capability.RESIZE)
class Rule08CapacityTest extends ConformanceTest {

    // ---- FIONREAD -----------------------------------------------------------------------------------

    @Test
    void availableCountsUnreadBytesNotSlots() throws Exception {
        Pipe p = open();
        assertThat(p.reader().available()).isZero();
        p.writer().write(pattern(1));
        p.writer().write(pattern(5000));
        assertThat(p.reader().available()).isEqualTo(5001);
        assertThat(p.reader().read(new byte[1000])).isEqualTo(1000);
        assertThat(p.reader().available()).isEqualTo(4001);
        assertThat(p.stat().bytesQueued()).isEqualTo(4001);
        p.writer().close();
        assertThat(p.reader().available()).as("still there after the writer is gone").isEqualTo(4001);
        readFully(p.reader(), 4001);
        assertThat(p.reader().available()).isZero();
    }

    @Test
    void availableOfAFullPipeIsItsCapacity() throws Exception {
        Pipe p = openNonBlocking(PipeOptions.DEFAULT_CAPACITY);
        p.writer().write(pattern(100_000));
        assertThat(p.reader().available()).isEqualTo(65536);
    }

    @Test
    void availableDropsByAWholePacketWhenAReadDiscardsItsTail() throws Exception {
        Pipe p = open(options().packetMode(true).build());
        p.writer().write(pattern(100));
        p.writer().write(pattern(50));
        assertThat(p.reader().available()).isEqualTo(150);
        assertThat(p.reader().read(new byte[10])).isEqualTo(10);
        assertThat(p.reader().available()).as("the other 90 bytes of the packet are gone").isEqualTo(50);
    }

    // ---- F_GETPIPE_SZ / F_SETPIPE_SZ ----------------------------------------------------------------

    @Test
    void defaultCapacityIsSixteenPages() {
        Pipe p = open();
        assertThat(p.capacity()).isEqualTo(65536);
        assertThat(p.stat().capacity()).isEqualTo(65536);
        assertThat(p.stat().slots()).isEqualTo(16);
    }

    @ParameterizedTest
    @CsvSource({"0, 4096", "1, 4096", "4096, 4096", "4097, 8192", "5000, 8192", "65536, 65536",
            "100000, 131072", "1048576, 1048576"})
    void setCapacityRoundsUpToAPowerOfTwoOfPages(int asked, int expected) {
        Pipe p = open();
        assertThat(p.setCapacity(asked)).as("the size in force is returned").isEqualTo(expected);
        assertThat(p.capacity()).isEqualTo(expected);
        assertThat(p.stat().capacity()).isEqualTo(expected);
    }

    @ParameterizedTest
    @CsvSource({"0, 4096", "5000, 8192", "100000, 131072"})
    void capacityAtOpenIsRoundedTheSameWay(int asked, int expected) {
        assertThat(open(options().capacity(asked).build()).capacity()).isEqualTo(expected);
    }

    @Test
    void capacityIsInPagesWhateverTheyHold() throws Exception {
        Pipe p = openNonBlocking(PipeOptions.DEFAULT_CAPACITY);
        p.setCapacity(8192);
        p.writer().setPacketMode(true); // packets never take merges, so each 10-byte write takes a page
        assertThat(p.writer().write(filled(10, 1))).isEqualTo(10);
        assertThat(p.writer().write(filled(10, 2))).isEqualTo(10);
        assertThat(p.writer().write(filled(10, 3))).as("two slots of 10 bytes fill a two-page pipe").isZero();
        assertThat(p.reader().available()).isEqualTo(20);
    }

    @Test
    void shrinkingBelowTheSlotsInUseFailsAndChangesNothing() throws Exception {
        Pipe p = open();
        byte[] data = pattern(3 * 4096);
        p.writer().write(data);
        if (has(Capability.OCCUPANCY)) assertThat(p.stat().slotsUsed()).isEqualTo(3);

        IllegalStateException e = thrownBy(IllegalStateException.class, () -> p.setCapacity(8192));
        assertThat(e).as("EBUSY, not an accounting limit").isNotInstanceOf(PipeLimitException.class);
        assertThat(p.capacity()).isEqualTo(65536);
        if (has(Capability.OCCUPANCY)) assertThat(p.stat().slotsUsed()).isEqualTo(3);
        assertThat(p.reader().available()).isEqualTo(data.length);
        assertThat(readFully(p.reader(), data.length)).isEqualTo(data);
    }

    @Test
    void shrinkingToZeroWithDataQueuedFailsAndChangesNothing() throws Exception {
        Pipe p = open();
        p.writer().write(pattern(4097)); // 2 slots
        thrownBy(IllegalStateException.class, () -> p.setCapacity(0));
        assertThat(p.capacity()).isEqualTo(65536);
        assertThat(readFully(p.reader(), 4097)).isEqualTo(pattern(4097));
    }

    @Test
    void shrinkingToExactlyTheSlotsInUseWorksAndKeepsTheDataInOrder() throws Exception {
        Pipe p = openNonBlocking(PipeOptions.DEFAULT_CAPACITY);
        // Move the ring's tail forward so the queued slots wrap around the end of the ring.
        ByteArrayOutputStream want = new ByteArrayOutputStream();
        p.writer().write(filled(14 * 4096, 0));
        readFully(p.reader(), 12 * 4096);
        want.write(filled(2 * 4096, 0));
        byte[] more = pattern(6 * 4096);
        assertThat(p.writer().write(more)).isEqualTo(more.length);
        want.write(more);
        if (has(Capability.OCCUPANCY)) assertThat(p.stat().slotsUsed()).isEqualTo(8);

        assertThat(p.setCapacity(8 * 4096)).isEqualTo(32768);
        if (has(Capability.OCCUPANCY)) assertThat(p.stat().slotsUsed()).isEqualTo(8);
        assertThat(p.writer().write(filled(1, 1))).as("the shrunk ring is full").isZero();
        assertThat(readFully(p.reader(), want.size())).isEqualTo(want.toByteArray());

        // and it works as an 8-slot pipe afterwards
        assertThat(p.writer().write(pattern(100_000))).isEqualTo(32768);
        assertThat(readFully(p.reader(), 32768)).isEqualTo(java.util.Arrays.copyOf(pattern(100_000), 32768));
    }

    @Test
    void shrinkingAboveTheSlotsInUseKeepsTheData() throws Exception {
        Pipe p = open();
        p.writer().write(pattern(3 * 4096 + 1)); // 4 slots
        assertThat(p.setCapacity(20000)).isEqualTo(32768);
        assertThat(p.capacity()).isEqualTo(32768);
        if (has(Capability.OCCUPANCY)) assertThat(p.stat().slotsUsed()).isEqualTo(4);
        assertThat(readFully(p.reader(), 3 * 4096 + 1)).isEqualTo(pattern(3 * 4096 + 1));
    }

    @Test
    void growingAboveTheMaximumFailsAndChangesNothing() throws Exception {
        Pipe p = open();
        p.writer().write(pattern(10));
        if (has(Capability.OCCUPANCY)) assertThat(p.options().maxCapacity()).isEqualTo(1 << 20);
        thrownBy(IllegalArgumentException.class, () -> p.setCapacity((1 << 20) + 1));
        assertThat(p.capacity()).isEqualTo(65536);

        Pipe small = open(options().maxCapacity(128 * 1024).build());
        thrownBy(IllegalArgumentException.class, () -> small.setCapacity(128 * 1024 + 1));
        assertThat(small.capacity()).isEqualTo(65536);
        assertThat(small.setCapacity(128 * 1024)).isEqualTo(131072);
        thrownBy(IllegalArgumentException.class, () -> small.setCapacity(-1));
        assertThat(small.capacity()).isEqualTo(131072);
        assertThat(p.reader().available()).isEqualTo(10);
    }

    /** F_SETPIPE_SZ's argument is an unsigned 32-bit size: the {@code long} overload takes all of them. */
    @Test
    void setCapacityTakesAnyUnsigned32BitSizeAndRefusesWhatIsAboveTheMaximum() throws Exception {
        Pipe p = open();
        p.writer().write(pattern(10));
        assertThat(p.setCapacity(8192L)).isEqualTo(8192);
        assertThat(p.setCapacity(0L)).as("below a page: one page").isEqualTo(4096);
        assertThat(p.setCapacity(100_000L)).isEqualTo(131072);
        for (long bytes : new long[] {(1L << 20) + 1, 1L << 31, (1L << 32) - 1, 1L << 32}) {
            thrownBy(IllegalArgumentException.class, () -> p.setCapacity(bytes));
            assertThat(p.capacity()).as("unchanged after %d", bytes).isEqualTo(131072);
        }
        thrownBy(IllegalArgumentException.class, () -> p.setCapacity(-1L));
        assertThat(p.capacity()).isEqualTo(131072);
        assertThat(p.reader().available()).isEqualTo(10);
    }

    /** A {@link Pipe} written before the {@code long} overload gets it from the interface, with the same rule. */
    @Test
    void theDefaultLongSetCapacityPassesIntSizesOnAndRefusesTheRest() {
        Pipe real = open();
        Pipe foreign = new Pipe() {
            @Override
            public ReadEnd reader() {
                return real.reader();
            }

            @Override
            public WriteEnd writer() {
                return real.writer();
            }

            @Override
            public int capacity() {
                return real.capacity();
            }

            @Override
            public int setCapacity(int bytes) {
                return real.setCapacity(bytes);
            }

            @Override
            public PipeStat stat() {
                return real.stat();
            }

            @Override
            public PipeCounters counters() {
                return real.counters();
            }

            @Override
            public void resetCounters() {
                real.resetCounters();
            }
        };
        assertThat(foreign.setCapacity(8192L)).isEqualTo(8192);
        assertThat(thrownBy(IllegalArgumentException.class, () -> foreign.setCapacity((1L << 32) - 1)))
                .hasMessageContaining("exceeds");
        assertThat(thrownBy(IllegalArgumentException.class, () -> foreign.setCapacity(-1L)))
                .hasMessageContaining("negative");
        assertThat(real.capacity()).isEqualTo(8192);
        foreign.close();
    }

    @ParameterizedTest
    @EnumSource(ThreadKind.class)
    void growingWakesAWriterBlockedOnAFullPipe(ThreadKind kind) throws Exception {
        Pipe p = open();
        p.writer().write(pattern(65536));
        Running<Integer> writer = start(kind, () -> p.writer().write(filled(4096, 7)));
        awaitBlockedWriting(writer.thread(), p, 1);

        assertThat(p.setCapacity(131072)).isEqualTo(131072);

        assertThat(writer.join()).isEqualTo(4096);
        if (has(Capability.OCCUPANCY)) assertThat(p.stat().slotsUsed()).isEqualTo(17);
    }

    @ParameterizedTest
    @EnumSource(ThreadKind.class)
    void growingWakesEveryWriterThatNowFits(ThreadKind kind) throws Exception {
        Pipe p = open();
        p.writer().write(pattern(65536));
        WriteEnd w2 = p.writer().dup();
        WriteEnd w3 = p.writer().dup();
        Running<Integer> a = start(kind, () -> p.writer().write(filled(4096, 1)));
        awaitBlockedWriting(a.thread(), p, 1);
        Running<Integer> b = start(kind, () -> w2.write(filled(4096, 2)));
        awaitBlockedWriting(b.thread(), p, 2);
        Running<Integer> c = start(kind, () -> w3.write(filled(4096, 3)));
        awaitBlockedWriting(c.thread(), p, 3);

        p.setCapacity(131072); // 16 more slots: room for all three

        assertThat(a.join()).isEqualTo(4096);
        assertThat(b.join()).isEqualTo(4096);
        assertThat(c.join()).isEqualTo(4096);
        if (has(Capability.OCCUPANCY)) assertThat(p.stat().slotsUsed()).isEqualTo(19);
    }

    @Test
    void setCapacityOnAPipeClosedOnBothSidesFails() {
        Pipe p = open();
        p.reader().close();
        p.writer().close();
        thrownBy(IllegalStateException.class, () -> p.setCapacity(8192));
    }

    // ---- per-user accounting ------------------------------------------------------------------------

    @Test
    void softLimitGivesNewPipesTwoPagesAndTheHardLimitRefusesThem() {
        PipeAccounting acct = PipeAccounting.withLimits(16, 20);
        PipeOptions opts = options().accounting(acct).build();

        Pipe first = open(opts);
        assertThat(first.capacity()).as("16 pages: not over the soft limit of 16").isEqualTo(65536);
        assertThat(acct.pagesInUse()).isEqualTo(16);

        Pipe second = open(opts);
        assertThat(second.capacity()).as("over the soft limit: 2 pages").isEqualTo(8192);
        assertThat(second.stat().slots()).isEqualTo(2);
        assertThat(acct.pagesInUse()).isEqualTo(18);

        Pipe third = open(opts);
        assertThat(third.capacity()).isEqualTo(8192);
        assertThat(acct.pagesInUse()).isEqualTo(20);

        thrownBy(PipeLimitException.class, () -> open(opts));
        assertThat(acct.pagesInUse()).as("a refused pipe charges nothing").isEqualTo(20);
    }

    @Test
    void closingBothSidesReturnsThePages() throws Exception {
        PipeAccounting acct = PipeAccounting.withLimits(0, 0);
        PipeOptions opts = options().accounting(acct).build();
        Pipe a = open(opts);
        Pipe b = open(opts);
        assertThat(acct.pagesInUse()).isEqualTo(32);

        ReadEnd extra = a.reader().dup();
        a.writer().close();
        a.reader().close();
        assertThat(acct.pagesInUse()).as("a read handle is still open").isEqualTo(32);
        extra.close();
        assertThat(acct.pagesInUse()).isEqualTo(16);
        extra.close();
        a.reader().close();
        assertThat(acct.pagesInUse()).as("closing again returns nothing twice").isEqualTo(16);

        b.writer().write(pattern(1000));
        b.writer().close();
        b.reader().close();
        assertThat(acct.pagesInUse()).isZero();
    }

    @Test
    void pagesReturnedOnCloseCanBeUsedByANewPipe() {
        PipeAccounting acct = PipeAccounting.withLimits(16, 16);
        PipeOptions opts = options().accounting(acct).build();
        Pipe a = open(opts);
        thrownBy(PipeLimitException.class, () -> open(opts));
        a.reader().close();
        a.writer().close();
        assertThat(open(opts).capacity()).isEqualTo(65536);
    }

    @Test
    void growingPastALimitFailsAndShrinkingAlwaysWorks() throws Exception {
        PipeAccounting acct = PipeAccounting.withLimits(32, 0);
        Pipe p = open(options().accounting(acct).build());
        p.writer().write(pattern(10));
        assertThat(p.setCapacity(131072)).as("32 pages: at the soft limit, not over").isEqualTo(131072);
        assertThat(acct.pagesInUse()).isEqualTo(32);

        thrownBy(PipeLimitException.class, () -> p.setCapacity(262144));
        assertThat(p.capacity()).isEqualTo(131072);
        assertThat(acct.pagesInUse()).isEqualTo(32);

        Pipe over = open(options().accounting(acct).capacity(4096).build());
        assertThat(acct.pagesInUse()).isEqualTo(33);
        assertThat(p.setCapacity(8192)).as("shrinking works over the limit").isEqualTo(8192);
        assertThat(acct.pagesInUse()).isEqualTo(3);
        assertThat(over.capacity()).isEqualTo(4096);
        assertThat(p.reader().available()).isEqualTo(10);
    }

    @Test
    void growingPastTheHardLimitFails() {
        PipeAccounting acct = PipeAccounting.withLimits(0, 20);
        Pipe p = open(options().accounting(acct).build());
        thrownBy(PipeLimitException.class, () -> p.setCapacity(131072));
        assertThat(p.capacity()).isEqualTo(65536);
        assertThat(acct.pagesInUse()).isEqualTo(16);
    }

    /** The capacity changes many times while a writer and a reader stream through the pipe. */
    @ParameterizedTest
    @EnumSource(ThreadKind.class)
    void capacityChangesWhileStreamingLoseNothing(ThreadKind kind) throws Exception {
        Pipe p = open();
        byte[] data = pattern(4 << 20);
        Running<Void> writer = start(kind, () -> {
            try (WriteEnd out = p.writer()) {
                for (int off = 0; off < data.length; off += 7000) {
                    out.write(data, off, Math.min(7000, data.length - off));
                }
            }
            return null;
        });
        Running<byte[]> reader = start(kind, () -> ConformanceSupport.readToEnd(p.reader()));
        int[] sizes = {4096, 1 << 20, 8192, 65536, 16384, 262144};
        int changed = 0;
        long deadline = System.nanoTime() + ConformanceSupport.PATIENCE.toNanos();
        // Keep resizing while data flows, and at least until one change took effect: on a fast run the writer
        // can finish before the first resize, and a growth always succeeds.
        for (int i = 0; (!writer.isDone() || changed == 0) && System.nanoTime() - deadline < 0; i++) {
            int want = sizes[i % sizes.length];
            try {
                assertThat(p.setCapacity(want)).isEqualTo(want);
                assertThat(p.capacity()).isEqualTo(want);
                changed++;
            } catch (IllegalStateException busy) {
                // EBUSY: more slots held data than the smaller size has; nothing changed
                assertThat(busy).isNotInstanceOf(PipeLimitException.class);
                assertThat(p.capacity()).isNotEqualTo(want);
            }
            Thread.yield();
        }
        writer.join();
        assertThat(reader.join()).isEqualTo(data);
        assertThat(changed).isPositive();
    }
}
