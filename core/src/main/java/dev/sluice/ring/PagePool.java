package dev.sluice.ring;

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
 * <p>Not thread-safe: used under the pipe's lock.
 */
public final class PagePool {
    private byte[][] pages;
    private int count;
    private int limit;
    private long hits;
    private long allocations;

    /** @param limit the most spare pages to keep; 0 keeps none */
    public PagePool(int limit) {
        setLimit(limit);
    }

    /** @return a page from the pool, or a newly allocated one when the pool is empty */
    public byte[] take() {
        if (count > 0) {
            byte[] p = pages[--count];
            pages[count] = null;
            hits++;
            return p;
        }
        allocations++;
        return new byte[PageRing.PAGE_SIZE];
    }

    /** Returns a page that no slot references any more; it is dropped if the pool is full. */
    public void give(byte[] page) {
        if (count < limit) {
            if (count == pages.length) {
                // Grow lazily: a pipe that never fills never pays for a big pool array.
                byte[][] bigger = new byte[Math.min(limit, Math.max(4, pages.length * 2))][];
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
            pages = new byte[Math.min(limit, 4)][];
        }
        while (count > limit) {
            pages[--count] = null;
        }
    }

    /** Drops every spare page (the pipe is gone, or memory is wanted back). */
    public void clear() {
        while (count > 0) {
            pages[--count] = null;
        }
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
