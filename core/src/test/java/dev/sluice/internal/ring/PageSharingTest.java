package dev.sluice.internal.ring;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.Set;
import java.util.concurrent.CyclicBarrier;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The reference count of shared pages under a race: two pipes let go of the same pages at the same time,
 * each under its own lock (here: its own thread), the home pipe through the ring's fast path, the other
 * through {@link Page#release}. Every page must come home exactly once, never twice and never lost.
 */
class PageSharingTest {
    private static final int PAGES = 20_000;
    private static final int ROUNDS = 10;

    @Test
    @Timeout(60)
    void racingReleasesSendEverySharedPageHomeExactlyOnce() throws Exception {
        for (int round = 0; round < ROUNDS; round++) {
            PagePool home = new PagePool(PAGES * 2);
            PagePool other = new PagePool(PAGES * 2);
            Page[] pages = new Page[PAGES];
            for (int i = 0; i < PAGES; i++) {
                pages[i] = home.take(); // one reference: the home ring's slot
                pages[i].retain();      // a second: tee linked it into the other ring
            }
            CyclicBarrier start = new CyclicBarrier(2);
            Thread homeSide = Thread.ofPlatform().start(() -> {
                await(start);
                for (Page p : pages) { // as PageRing.releaseTail does, with the home pipe's lock
                    if (p.exclusiveTo(home)) {
                        home.give(p);
                    } else {
                        p.release(home);
                    }
                }
            });
            Thread otherSide = Thread.ofPlatform().start(() -> {
                await(start);
                for (int i = PAGES - 1; i >= 0; i--) { // the other order, so the two meet in the middle
                    pages[i].release(other);
                }
            });
            homeSide.join();
            otherSide.join();

            assertThat(other.size()).as("no page strays into the other pool").isZero();
            assertThat(home.size() + home.returnedCount()).as("pages home").isEqualTo(PAGES);
            Set<Page> seen = Collections.newSetFromMap(new IdentityHashMap<>());
            for (int i = 0; i < PAGES; i++) {
                Page p = home.take(); // reclaims the return stack when the pool runs dry
                assertThat(seen.add(p)).as("page handed out twice").isTrue();
                assertThat(p.refs()).isEqualTo(1);
            }
            assertThat(home.allocations()).as("every page came from the pool").isEqualTo(PAGES);
        }
    }

    @Test
    void aClosedPoolDropsWhatComesBackAndAGiftIsNeverPooled() {
        PagePool home = new PagePool(8);
        Page p = home.take();
        p.retain();
        home.close();
        p.release(null);
        p.release(null);
        assertThat(home.returnedCount()).isZero();

        Page gift = Page.gift(java.nio.ByteBuffer.allocate(10));
        gift.retain();
        gift.release(home);
        assertThat(home.size()).isZero();
    }

    private static void await(CyclicBarrier b) {
        try {
            b.await();
        } catch (Exception e) {
            throw new AssertionError(e);
        }
    }
}
