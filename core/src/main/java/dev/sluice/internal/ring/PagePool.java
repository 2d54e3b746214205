package dev.sluice.internal.ring;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * A per-pipe LIFO of spare pages, so that steady-state reads and writes allocate nothing.
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
 * <p>Not thread-safe, except {@link #giveBack}: used under the pipe's lock.
 */
public final class PagePool {
    private static final VarHandle RETURNED;

    static {
        try {
            RETURNED = MethodHandles.lookup().findVarHandle(PagePool.class, "returned", Page.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private final boolean direct;
    private Page[] pages;
    private int count;
    private int limit;
    private long hits;
    private long allocations;
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
        this.direct = direct;
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
        if (count == 0 && returned != null) {
            reclaim(); // one volatile load, only on the path that would otherwise allocate
        }
        Page p;
        if (count > 0) {
            p = pages[--count];
            pages[count] = null;
            hits++;
        } else {
            allocations++;
            p = new Page(this, direct);
        }
        p.initRefs(1);
        return p;
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
        if (count < limit) {
            if (count == pages.length) {
                // Grow lazily: a pipe that never fills never pays for a big pool array.
                Page[] bigger = new Page[Math.min(limit, Math.max(4, pages.length * 2))];
                System.arraycopy(pages, 0, bigger, 0, count);
                pages = bigger;
            }
            pages[count++] = page;
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
        while (count > limit) {
            pages[--count] = null;
        }
    }

    /** Drops every spare page (memory is wanted back). */
    public void clear() {
        while (count > 0) {
            pages[--count] = null;
        }
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

    /** @return the most spare pages kept */
    public int limit() {
        return limit;
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
}
