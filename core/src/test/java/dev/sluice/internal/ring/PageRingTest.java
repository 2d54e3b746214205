package dev.sluice.internal.ring;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.Test;

/** The ring driven step by step, without threads: indices, merging, freeing, resizing. */
class PageRingTest {

    private static Page page(int fill) {
        byte[] p = new byte[PageRing.PAGE_SIZE];
        java.util.Arrays.fill(p, (byte) fill);
        Page page = Page.of(p);
        page.initRefs(1);
        return page;
    }

    private static void pushFull(PageRing ring, int n) {
        for (int i = 0; i < n; i++) {
            ring.push(ring.takePage(), PageRing.PAGE_SIZE, PipeBuffer.FLAG_CAN_MERGE);
        }
        ring.publish();
    }

    @ParameterizedTest(name = "indices starting at {0}")
    @ValueSource(ints = {0, Integer.MAX_VALUE - 5, -3, -1})
    void occupancyIsRightAcrossTheThirtyTwoBitWrap(int start) {
        PageRing ring = new PageRing(8, new PagePool(8), start);
        for (int round = 0; round < 5; round++) {
            pushFull(ring, 8);
            assertThat(ring.isFull()).isTrue();
            assertThat(ring.occupancy()).isEqualTo(8);
            assertThat(PageRing.occupancyOf(ring.index())).isEqualTo(8);
            for (int i = 8; i > 0; i--) {
                PipeBuffer b = ring.tailBuffer();
                ring.consumed(b, b.length());
                ring.releaseTail();
                assertThat(PageRing.occupancyOf(ring.index())).as("not yet published").isEqualTo(i);
                ring.publish();
                assertThat(PageRing.occupancyOf(ring.index())).isEqualTo(i - 1);
            }
            assertThat(ring.isEmpty()).isTrue();
            assertThat(ring.queuedBytes()).isZero();
        }
    }

    @Test
    void packedIndexHoldsHeadAndTailOfTheSameMoment() {
        PageRing ring = new PageRing(4, new PagePool(4), 100);
        pushFull(ring, 3);
        long ix = ring.index();
        assertThat(PageRing.headOf(ix)).isEqualTo(103);
        assertThat(PageRing.tailOf(ix)).isEqualTo(100);
    }

    @Test
    void mergeTargetIsTheNewestMergeablePageWithRoomForAllOfTheWrite() {
        PageRing ring = new PageRing(4, new PagePool(4));
        assertThat(ring.mergeTarget(1)).as("empty ring has nothing to merge into").isNull();
        ring.push(page(1), 4000, PipeBuffer.FLAG_CAN_MERGE);
        PipeBuffer last = ring.mergeTarget(96);
        assertThat(last).isNotNull();
        ring.merged(last, 96);
        assertThat(ring.queuedBytes()).isEqualTo(4096);
        assertThat(ring.mergeTarget(1)).as("page is full").isNull();

        ring.push(page(2), 10, PipeBuffer.FLAG_PACKET);
        assertThat(ring.mergeTarget(1)).as("packets never take merges").isNull();
        ring.push(page(3), 10, PipeBuffer.FLAG_CAN_MERGE);
        assertThat(ring.mergeTarget(4087)).as("4087 bytes do not fit after 10").isNull();
        assertThat(ring.mergeTarget(4086)).isNotNull();
    }

    @Test
    void mergeRoomCountsFromTheEndOfTheDataNotTheStartOfThePage() {
        PageRing ring = new PageRing(2, new PagePool(2));
        ring.push(page(0), 4000, PipeBuffer.FLAG_CAN_MERGE);
        PipeBuffer b = ring.tailBuffer();
        ring.consumed(b, 3990); // a reader took most of it: offset 3990, len 10
        assertThat(ring.mergeTarget(97)).as("only 96 bytes after offset+len").isNull();
        assertThat(ring.mergeTarget(96)).isSameAs(b);
    }

    @Test
    void freedPagesComeBackFromThePool() {
        PagePool pool = new PagePool(4);
        PageRing ring = new PageRing(4, pool);
        pushFull(ring, 4);
        assertThat(pool.allocations()).isEqualTo(4);
        for (int i = 0; i < 4; i++) {
            PipeBuffer b = ring.tailBuffer();
            ring.consumed(b, b.length());
            ring.releaseTail();
        }
        assertThat(pool.size()).isEqualTo(4);
        pushFull(ring, 4);
        assertThat(pool.allocations()).isEqualTo(4);
        assertThat(pool.hits()).isEqualTo(4);
    }

    @Test
    void poolKeepsNoMoreThanItsLimit() {
        PagePool pool = new PagePool(2);
        for (int i = 0; i < 5; i++) {
            pool.give(Page.of(new byte[PageRing.PAGE_SIZE]));
        }
        assertThat(pool.size()).isEqualTo(2);
        pool.setLimit(1);
        assertThat(pool.size()).isEqualTo(1);
        assertThatThrownBy(() -> pool.setLimit(-1)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void resizeKeepsUnreadBytesInOrderAcrossTheWrap() {
        PageRing ring = new PageRing(4, new PagePool(4), Integer.MAX_VALUE - 1);
        for (int i = 0; i < 4; i++) {
            ring.push(page(i), 100 + i, PipeBuffer.FLAG_CAN_MERGE);
        }
        PipeBuffer first = ring.tailBuffer();
        ring.consumed(first, first.length());
        ring.releaseTail(); // slots hold pages 1, 2, 3, wrapped around the array
        ring.resize(8);
        assertThat(ring.size()).isEqualTo(8);
        assertThat(ring.occupancy()).isEqualTo(3);
        for (int i = 1; i < 4; i++) {
            PipeBuffer b = ring.tailBuffer();
            assertThat(b.page()[0]).isEqualTo((byte) i);
            assertThat(b.length()).isEqualTo(100 + i);
            ring.consumed(b, b.length());
            ring.releaseTail();
        }
        assertThat(ring.isEmpty()).isTrue();
    }

    @Test
    void shrinkingBelowOccupancyFailsAndChangesNothing() {
        PageRing ring = new PageRing(8, new PagePool(8));
        pushFull(ring, 3);
        long before = ring.index();
        assertThatThrownBy(() -> ring.resize(2)).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("holds 3 pages");
        assertThat(ring.index()).isEqualTo(before);
        assertThat(ring.size()).isEqualTo(8);
        assertThat(ring.queuedBytes()).isEqualTo(3L * PageRing.PAGE_SIZE);
        ring.resize(4);
        assertThat(ring.occupancy()).isEqualTo(3);
        assertThat(ring.isFull()).isFalse();
    }

    @Test
    void slotCountsMustBePowersOfTwoInRange() {
        PagePool pool = new PagePool(0);
        for (int bad : new int[] {0, -4, 3, 12, PageRing.MAX_SLOTS * 2}) {
            assertThatThrownBy(() -> new PageRing(bad, pool)).isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("power of two");
        }
    }

    @Test
    void packetModeDiscardDropsTheRestOfTheBuffer() {
        PageRing ring = new PageRing(2, new PagePool(2));
        ring.push(page(7), 500, PipeBuffer.FLAG_PACKET);
        PipeBuffer b = ring.tailBuffer();
        assertThat(b.isPacket()).isTrue();
        ring.consumed(b, 100);
        ring.discardRest(b);
        assertThat(b.length()).isZero();
        assertThat(ring.queuedBytes()).isZero();
    }
}
