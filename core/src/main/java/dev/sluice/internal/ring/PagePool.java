package dev.sluice.internal.ring;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.lang.ref.Cleaner;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.LongSupplier;

/**
 * A per-pipe FIFO of spare pages, so that steady-state reads and writes allocate nothing.
 *
 * <p>Linux keeps one spare page per pipe ({@code tmp_page}) until 6.14, two from 6.15, and from 7.3 a
 * pool of up to eight trimmed back to two after each write. A kernel page freed is reusable by anyone;
 * a Java page dropped is garbage the collector must trace and the next write must zero. So the default
 * limit here is the ring's size: a pipe that has once been full keeps its pages, like an
 * {@code ArrayBlockingQueue} keeps its array. A smaller limit trades that memory for allocation
 * (see {@code PipeOptions.Builder#poolPages}).
 *
 * <p>Pages shared with or moved to other pipes by tee and splice come back through a lock-free return
 * stack ({@link #giveBack}), because the pipe that lets go of them last holds its own lock, not this
 * pool's; {@link #take()} reclaims them when the pool runs dry (see {@link Page}).
 *
 * <p>A pipe that takes pages in quick succession (a stream) grows its
 * pool up to its <em>rotation</em> ({@code PipeOptions.Builder#poolRotation}), so that a writer fills a page
 * long after its reader last read it. A page the reader has just read sits in the reader's core's cache, and
 * every line of it a writer on another core stores into must first be taken from there; a page that rotated
 * through a few MiB has left that cache, and the writer's stores stream (docs/performance.md, "Cold pages").
 * What pools hold beyond their limits comes out of one JVM-wide budget ({@link #ROTATION_BUDGET_PAGES}),
 * given back when a pool is closed, cleared or collected, so that many pipes cannot grow without bound. A pool
 * that has grown hands out its oldest spare first; one that has not, its newest, the likeliest to be cached.
 *
 * <p>Not thread-safe, except {@link #giveBack}: used under the pipe's lock.
 */
public final class PagePool {
    /** Spare pages all pools of the JVM may hold beyond their limits, together: 32 MiB. */
    public static final int ROTATION_BUDGET_PAGES = 8192;
    /** A pool grows only while its pages are taken at most this far apart: a stream, not a trickle. */
    static final long STREAMING_GAP_NANOS = 100_000;
    /**
     * Quick takes in a row before a pool starts to grow (4 MiB of pages): a short burst, or a pipe among many
     * that each carry a little (hackbench), would pay allocations and cold pages for a rotation it never uses.
     */
    static final int GROWTH_DELAY = 1024;
    private static final AtomicInteger BUDGET = new AtomicInteger(ROTATION_BUDGET_PAGES);

    private static final VarHandle RETURNED;

    static {
        try {
            RETURNED = MethodHandles.lookup().findVarHandle(PagePool.class, "returned", Page.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private final boolean direct;
    /** Spares, a circular FIFO: the oldest at {@code first}. */
    private Page[] pages;
    private int first;
    private int count;
    private int limit;
    private final int rotation;
    private final AtomicInteger budget;
    private final LongSupplier clock;
    /** Spare capacity held beyond {@link #limit} out of the budget; given back by its cleanup. */
    private final Grant grant;
    private Cleaner.Cleanable cleanable;
    private long lastTake;
    private int streak;
    private long hits;
    private long allocations;
    private long grown;
    /** Top of the return stack: pages other pipes released last, linked through {@code Page.nextReturned}. */
    @SuppressWarnings("unused") // through RETURNED
    private volatile Page returned;
    /** Set when the pipe is gone; pages given back after that are dropped. */
    private volatile boolean closed;

    /** @param limit the most spare pages to keep; 0 keeps none. The pages are heap arrays. */
    public PagePool(int limit) {
        this(limit, false);
    }

    /**
     * @param limit  the most spare pages to keep; 0 keeps none
     * @param direct whether new pages are direct buffers rather than heap arrays
     */
    public PagePool(int limit, boolean direct) {
        this(limit, direct, 0);
    }

    /**
     * @param limit    the most spare pages to keep; 0 keeps none (and turns the rotation off)
     * @param direct   whether new pages are direct buffers rather than heap arrays
     * @param rotation the most spare pages a streaming pipe grows to, out of the JVM-wide budget; at most
     *                 {@code limit} turns growing off
     */
    public PagePool(int limit, boolean direct, int rotation) {
        this(limit, direct, rotation, BUDGET, System::nanoTime);
    }

    /** With its own budget and clock, for tests. */
    PagePool(int limit, boolean direct, int rotation, AtomicInteger budget, LongSupplier clock) {
        if (rotation < 0) {
            throw new IllegalArgumentException("pool rotation must be >= 0, was " + rotation);
        }
        this.direct = direct;
        this.rotation = rotation;
        this.budget = budget;
        this.clock = clock;
        this.grant = new Grant(budget);
        this.lastTake = clock.getAsLong() - 2 * STREAMING_GAP_NANOS; // the first take is no stream yet
        setLimit(limit);
    }

    /** @return whether this pool's pages are direct buffers */
    public boolean direct() {
        return direct;
    }

    /**
     * @return a page from the pool, or a newly allocated one when the pool is empty; either way with one
     *         reference, the caller's slot-to-be
     */
    public Page take() {
        return take(false);
    }

    /**
     * As {@link #take()}; a {@code bulk} take (the ring's pages come back full, freed by another thread) may
     * grow the pool toward its rotation instead of reusing a spare.
     */
    public Page take(boolean bulk) {
        if (bulk && limit + grant.pages < rotation && limit > 0 && grows()) {
            return allocate();
        }
        if (count == 0 && returned != null) {
            reclaim(); // one volatile load, only on the path that would otherwise allocate
        }
        if (count == 0) {
            return allocate();
        }
        Page p;
        if (grant.pages > 0) { // the oldest: a pool that grew rotates
            p = pages[first];
            pages[first] = null;
            first = first + 1 == pages.length ? 0 : first + 1;
        } else { // the newest, the likeliest to be in a cache: a pipe that is no stream keeps its pages hot
            int at = first + count - 1;
            at = at < pages.length ? at : at - pages.length;
            p = pages[at];
            pages[at] = null;
        }
        count--;
        hits++;
        p.initRefs(1);
        return p;
    }

    private Page allocate() {
        allocations++;
        Page p = new Page(this, direct);
        p.initRefs(1);
        return p;
    }

    /**
     * Out of line, while this pool is below its rotation: whether this take comes soon enough after the last
     * to count as streaming, after {@link #GROWTH_DELAY} such takes in a row, and the budget grants one more
     * page, which this pool then holds.
     */
    private boolean grows() {
        if (budget.get() <= 0) {
            return false; // spent: not even the clock is read
        }
        long now = clock.getAsLong();
        boolean streaming = now - lastTake < STREAMING_GAP_NANOS;
        lastTake = now;
        if (!streaming) {
            streak = 0;
            return false;
        }
        if (streak < GROWTH_DELAY) {
            streak++;
            return false;
        }
        int left;
        do {
            left = budget.get();
            if (left <= 0) {
                return false;
            }
        } while (!budget.compareAndSet(left, left - 1));
        if (grant.pages == 0 && cleanable == null) {
            cleanable = Cleaning.CLEANER.register(this, grant); // given back if the pipe is dropped unclosed
        }
        grant.pages++;
        grown++;
        return true;
    }

    /**
     * Undoes {@link #take()}s of a call that was refused before it used the pages (a channel that threw
     * having given nothing): {@code fromPool} of them go back, the {@code allocated} others are dropped, and
     * the counters are as before, so a refused call leaves the pool as it found it.
     *
     * @param pages     the pages taken, none of them published
     * @param fromPool  how many of the takes were hits
     * @param allocated how many were allocations
     */
    public void untake(Page[] pages, int fromPool, int allocated) {
        for (int i = 0; i < fromPool && i < pages.length; i++) {
            give(pages[i]);
        }
        hits -= fromPool;
        allocations -= allocated;
    }

    /**
     * Undoes the growth of a refused call's {@link #take()}s ({@link #grown()} before and after): the pages
     * were dropped by {@link #untake}, and the capacity they were granted goes back to the budget.
     */
    public void ungrow(int pages) {
        grown -= pages;
        grant.giveBack(pages);
    }

    /** Moves the return stack into the pool (lock held), dropping what exceeds the limit. */
    private void reclaim() {
        Page p = (Page) RETURNED.getAndSet(this, (Page) null); // taking the whole stack at once: no ABA
        while (p != null) {
            Page next = p.nextReturned;
            p.nextReturned = null;
            give(p);
            p = next;
        }
    }

    /**
     * Returns a page of this pool that another pipe released last; safe from any thread, without this
     * pool's pipe lock. The page waits on a stack until this pool's pipe next needs a page.
     *
     * @param page a page whose {@code home} is this pool and that no slot references any more
     */
    public void giveBack(Page page) {
        giveBack(page, page);
    }

    /**
     * Returns a chain of pages of this pool at once, as {@link #giveBack(Page)}: {@code first} to {@code last}
     * linked through {@code nextReturned} (the caller's link from {@code last} is overwritten).
     */
    void giveBack(Page first, Page last) {
        if (closed) {
            return; // the pipe is gone: let the collector have it
        }
        Page top;
        do {
            top = returned;
            last.nextReturned = top;
        } while (!RETURNED.compareAndSet(this, top, first)); // release: publishes the links with the pages
    }

    /** @return pages waiting on the return stack (walks it; for tests) */
    public int returnedCount() {
        int n = 0;
        for (Page p = returned; p != null; p = p.nextReturned) {
            n++;
        }
        return n;
    }

    /** Returns a page that no slot references any more; it is dropped if the pool is full. */
    public void give(Page page) {
        int room = limit + grant.pages;
        if (count < room) {
            if (count == pages.length) {
                // Grow lazily: a pipe that never fills never pays for a big pool array.
                Page[] bigger = new Page[Math.min(room, Math.max(4, pages.length * 2))];
                for (int i = 0; i < count; i++) {
                    bigger[i] = pages[(first + i) % pages.length];
                }
                pages = bigger;
                first = 0;
            }
            int at = first + count;
            pages[at < pages.length ? at : at - pages.length] = page;
            count++;
        }
    }

    /** Changes how many pages are kept; excess pages are dropped now. */
    public void setLimit(int limit) {
        if (limit < 0) {
            throw new IllegalArgumentException("pool limit must be >= 0, was " + limit);
        }
        this.limit = limit;
        if (pages == null) {
            pages = new Page[Math.min(limit, 4)];
        }
        if (limit == 0) {
            grant.giveBack(grant.pages); // no spares at all: no rotation either
        }
        dropNewest(limit + grant.pages);
    }

    /** Drops the newest spares until at most {@code keep} are left. */
    private void dropNewest(int keep) {
        while (count > keep) {
            count--;
            int at = first + count;
            pages[at < pages.length ? at : at - pages.length] = null;
        }
    }

    /** Drops every spare page (memory is wanted back), and gives back what the rotation was granted. */
    public void clear() {
        dropNewest(0);
        first = 0;
        grant.giveBack(grant.pages);
    }

    /** The pipe is gone: drops every spare page, and every page given back from now on. */
    public void close() {
        closed = true;
        RETURNED.setVolatile(this, (Page) null);
        clear();
    }

    /** @return spare pages held now */
    public int size() {
        return count;
    }

    /** @return the most spare pages kept now: the limit, and what the rotation was granted beyond it */
    public int limit() {
        return limit + grant.pages;
    }

    /** @return the most spare pages a streaming pipe grows to (at most {@link #limit()}: no growing) */
    public int rotation() {
        return rotation;
    }

    /** @return spare capacity granted beyond the limit since this pool was made, less what was undone */
    public long grown() {
        return grown;
    }

    /** @return pages of rotation the JVM's pools may still be granted together (for tests and the lab) */
    public static int rotationBudget() {
        return BUDGET.get();
    }

    /** @return pages taken from the pool since the last reset */
    public long hits() {
        return hits;
    }

    /** @return pages allocated because the pool was empty, since the last reset */
    public long allocations() {
        return allocations;
    }

    /** Zeroes {@link #hits()} and {@link #allocations()}. */
    public void resetCounters() {
        hits = 0;
        allocations = 0;
    }

    /** The cleaner's thread starts when a pool first grows, not when the first pipe is made. */
    private static final class Cleaning {
        static final Cleaner CLEANER = Cleaner.create();
    }

    /**
     * What a pool holds of the JVM-wide budget. Its own object, so that the cleaner that gives it back after
     * an unclosed pipe is collected does not keep the pool alive; changed under the pipe's lock, and read by
     * the cleaner only once the pool is unreachable.
     */
    private static final class Grant implements Runnable {
        private final AtomicInteger budget;
        int pages;

        Grant(AtomicInteger budget) {
            this.budget = budget;
        }

        void giveBack(int n) {
            if (n > 0) {
                pages -= n;
                budget.addAndGet(n);
            }
        }

        @Override
        public void run() {
            giveBack(pages);
        }
    }
}
