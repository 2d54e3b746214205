package dev.sluice.internal.ring;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/** The pool's order, and its rotation: how a streaming pipe grows its pool out of a shared budget. */
class PagePoolTest {
    private static final long QUICK = PagePool.STREAMING_GAP_NANOS / 2;
    private static final long SLOW = PagePool.STREAMING_GAP_NANOS * 2;
    /** Enough quick takes in a row to start growing, and 100 more. */
    private static final int STREAM = PagePool.GROWTH_DELAY + 101;

    private final AtomicLong now = new AtomicLong(1_000_000_000L);

    private PagePool pool(int limit, int rotation, AtomicInteger budget) {
        return new PagePool(limit, false, rotation, budget, now::get);
    }

    /** {@link #STREAM} quick cycles: enough to start growing, and 100 more. */
    private void stream(PagePool pool) {
        for (int i = 0; i < STREAM; i++) {
            cycle(pool, now, QUICK);
        }
    }

    /** Takes a page {@code gap} nanoseconds after the last take and gives it straight back, as a stream does. */
    private static void cycle(PagePool pool, AtomicLong now, long gap) {
        now.addAndGet(gap);
        Page p = pool.take(true);
        p.initRefs(0);
        pool.give(p);
    }

    @Test
    void withoutARotationTheNewestSpareGoesOutFirst() {
        PagePool pool = new PagePool(4);
        Page a = Page.of(new byte[PageRing.PAGE_SIZE]);
        Page b = Page.of(new byte[PageRing.PAGE_SIZE]);
        pool.give(a);
        pool.give(b);
        assertThat(pool.take()).isSameAs(b);
        assertThat(pool.take()).isSameAs(a);
    }

    @Test
    void aPoolThatGrewHandsOutItsOldestSpareFirst() {
        PagePool pool = pool(4, 8, new AtomicInteger(100));
        stream(pool);
        assertThat(pool.limit()).isEqualTo(8);
        while (pool.size() > 0) {
            pool.take();
        }
        List<Page> given = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            Page p = Page.of(new byte[PageRing.PAGE_SIZE]);
            given.add(p);
            pool.give(p);
        }
        assertThat(pool.take()).isSameAs(given.get(0));
        pool.give(given.get(0)); // to the back of the line
        assertThat(pool.take()).isSameAs(given.get(1));
        assertThat(pool.take()).isSameAs(given.get(2));
        assertThat(pool.take()).isSameAs(given.get(0));
    }

    @Test
    void aStreamingPoolGrowsToItsRotationOutOfTheBudget() {
        AtomicInteger budget = new AtomicInteger(100);
        PagePool pool = pool(4, 20, budget);
        stream(pool);
        assertThat(pool.limit()).isEqualTo(20);
        assertThat(pool.grown()).isEqualTo(16);
        assertThat(budget.get()).isEqualTo(84);
        // Grown, it reuses pages again, the oldest first: a page comes back after every other spare.
        int spares = pool.size();
        assertThat(spares).as("the first page and the 16 grown").isEqualTo(17);
        long allocations = pool.allocations();
        Page first = pool.take(true);
        first.initRefs(0);
        pool.give(first);
        for (int i = 0; i < spares - 1; i++) {
            cycle(pool, now, QUICK);
        }
        assertThat(pool.take(true)).isSameAs(first);
        assertThat(pool.allocations()).isEqualTo(allocations);
    }

    @Test
    void aTakeThatIsNotBulkDoesNotGrow() {
        AtomicInteger budget = new AtomicInteger(100);
        PagePool pool = pool(4, 20, budget);
        for (int i = 0; i < STREAM; i++) {
            now.addAndGet(QUICK);
            Page p = pool.take(false);
            p.initRefs(0);
            pool.give(p);
        }
        assertThat(pool.limit()).isEqualTo(4);
        assertThat(pool.allocations()).isEqualTo(1);
        assertThat(budget.get()).isEqualTo(100);
    }

    @Test
    void aTrickleDoesNotGrow() {
        AtomicInteger budget = new AtomicInteger(100);
        PagePool pool = pool(4, 20, budget);
        for (int i = 0; i < STREAM; i++) {
            cycle(pool, now, SLOW);
        }
        assertThat(pool.limit()).isEqualTo(4);
        assertThat(budget.get()).isEqualTo(100);
        assertThat(pool.allocations()).isEqualTo(1); // one page, reused
    }

    @Test
    void poolsGrowNoFurtherThanTheBudgetAndClosingGivesItBack() {
        AtomicInteger budget = new AtomicInteger(10);
        PagePool a = pool(4, 20, budget);
        PagePool b = pool(4, 20, budget);
        stream(a);
        assertThat(a.limit()).isEqualTo(14);
        assertThat(budget.get()).isZero();
        stream(b);
        assertThat(b.limit()).as("nothing left to grant").isEqualTo(4);
        a.close();
        assertThat(budget.get()).isEqualTo(10);
        stream(b);
        assertThat(b.limit()).isEqualTo(14);
    }

    @Test
    void clearingOrALimitOfZeroGivesTheGrantBack() {
        AtomicInteger budget = new AtomicInteger(100);
        PagePool pool = pool(4, 20, budget);
        stream(pool);
        pool.clear();
        assertThat(pool.size()).isZero();
        assertThat(pool.limit()).isEqualTo(4);
        assertThat(budget.get()).isEqualTo(100);
        stream(pool);
        pool.setLimit(0);
        assertThat(pool.size()).isZero();
        assertThat(budget.get()).isEqualTo(100);
        stream(pool);
        assertThat(pool.limit()).as("no spares: no rotation either").isZero();
        assertThat(budget.get()).isEqualTo(100);
    }

    @Test
    void aRotationNoLargerThanTheLimitDoesNotGrow() {
        AtomicInteger budget = new AtomicInteger(100);
        PagePool pool = pool(8, 8, budget);
        stream(pool);
        assertThat(pool.limit()).isEqualTo(8);
        assertThat(budget.get()).isEqualTo(100);
        assertThatThrownBy(() -> new PagePool(4, false, -1)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("rotation");
    }

    @Test
    void undoingARefusedCallsTakesGivesTheirGrowthBack() {
        AtomicInteger budget = new AtomicInteger(100);
        PagePool pool = pool(4, 20, budget);
        for (int i = 0; i <= PagePool.GROWTH_DELAY; i++) {
            cycle(pool, now, QUICK); // the next quick take grows
        }
        int size = pool.size();
        long hits = pool.hits();
        long allocations = pool.allocations();
        long grown = pool.grown();
        int limit = pool.limit();
        Page[] pages = new Page[3];
        for (int i = 0; i < pages.length; i++) {
            now.addAndGet(QUICK);
            pages[i] = pool.take(true);
        }
        int fromPool = (int) (pool.hits() - hits);
        int allocated = (int) (pool.allocations() - allocations);
        int grownNow = (int) (pool.grown() - grown);
        assertThat(grownNow).isEqualTo(3);
        pool.untake(pages, fromPool, allocated);
        pool.ungrow(grownNow);
        assertThat(pool.size()).isEqualTo(size);
        assertThat(pool.hits()).isEqualTo(hits);
        assertThat(pool.allocations()).isEqualTo(allocations);
        assertThat(pool.limit()).isEqualTo(limit);
        assertThat(budget.get()).isEqualTo(100 - (limit - 4));
    }

    /** Fills one slot with {@code bytes} and frees it on {@code freer}, as a reader on that thread would. */
    private static void passThrough(PageRing ring, int bytes, Runnable[] freer) throws InterruptedException {
        ring.push(ring.takePage(), bytes, PipeBuffer.FLAG_CAN_MERGE);
        Runnable free = () -> {
            PipeBuffer b = ring.tailBuffer();
            ring.consumed(b, b.length());
            ring.releaseTail();
        };
        if (freer[0] == null) {
            free.run();
        } else {
            Thread t = new Thread(free);
            t.start();
            t.join(); // the ring is handed over as a pipe's lock would hand it over
        }
    }

    @Test
    void aRingGrowsItsPoolOnlyForFullPagesFreedByAnotherThread() throws InterruptedException {
        Runnable[] sameThread = {null};
        Runnable[] otherThread = {() -> { }};
        for (Object[] c : new Object[][] {
                {PageRing.PAGE_SIZE, sameThread, false}, {100, otherThread, false},
                {PageRing.PAGE_SIZE, otherThread, true}, {PageRing.PAGE_SIZE / 2, otherThread, true}}) {
            AtomicInteger budget = new AtomicInteger(100);
            PagePool pool = pool(4, 20, budget);
            PageRing ring = new PageRing(4, pool);
            for (int i = 0; i < STREAM; i++) {
                now.addAndGet(QUICK);
                passThrough(ring, (int) c[0], (Runnable[]) c[1]);
            }
            boolean grew = (boolean) c[2];
            assertThat(pool.limit()).as("%s bytes, freed by %s thread", c[0], c[1] == sameThread ? "the same"
                    : "another").isEqualTo(grew ? 20 : 4);
            assertThat(budget.get()).isEqualTo(grew ? 84 : 100);
        }
    }

    @Test
    void aPoolCollectedUnclosedGivesItsGrantBack() throws InterruptedException {
        AtomicInteger budget = new AtomicInteger(100);
        growAndDrop(budget);
        assertThat(budget.get()).isLessThan(100);
        long deadline = System.nanoTime() + 30_000_000_000L;
        while (budget.get() != 100 && System.nanoTime() < deadline) {
            System.gc(); // the cleaner runs once the collector finds the pool unreachable
            Thread.sleep(10); // pacing the collections only: the assertion waits for the budget itself
        }
        assertThat(budget.get()).isEqualTo(100);
    }

    private void growAndDrop(AtomicInteger budget) {
        PagePool pool = pool(4, 20, budget);
        stream(pool);
    }
}
