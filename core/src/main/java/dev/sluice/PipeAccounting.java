package dev.sluice;

import dev.sluice.internal.engine.PageCharging;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Pages charged across several pipes, with soft and hard limits: Linux's per-user
 * {@code pipe-user-pages-soft} and {@code pipe-user-pages-hard}.
 *
 * <p>Give one instance to every pipe that should share a budget ({@link PipeOptions.Builder#accounting}).
 * A pipe is charged for its capacity in pages (whether or not they hold data) from open until both of its
 * sides are closed, and re-charged when its capacity changes. The rules are Linux's:
 * <ul>
 *   <li>opening a pipe that would take the total over the <b>soft</b> limit still succeeds, but the pipe
 *       gets 2 pages instead of the capacity asked for;</li>
 *   <li>opening a pipe that would take the total (after that) over the <b>hard</b> limit fails with
 *       {@link PipeLimitException};</li>
 *   <li>growing a pipe past either limit fails with {@link PipeLimitException}; shrinking always works.</li>
 * </ul>
 * A limit of 0 means unlimited (Linux's default hard limit). Thread-safe.
 */
public final class PipeAccounting {
    /** Pages a pipe gets when opened over the soft limit (Linux {@code PIPE_MIN_DEF_BUFFERS}). */
    public static final int MIN_PAGES = 2;

    private final long softPages;
    private final long hardPages;
    private final AtomicLong pages = new AtomicLong();
    /** The engine's handle on this account ({@link Pipe#open(PipeOptions)} hands it over). */
    private final PageCharging charging = new PageCharging() {
        @Override
        public int chargeOpen(int wantedPages) {
            return PipeAccounting.this.chargeOpen(wantedPages);
        }

        @Override
        public void recharge(int from, int to) {
            PipeAccounting.this.recharge(from, to);
        }

        @Override
        public void release(int pagesOfPipe) {
            PipeAccounting.this.release(pagesOfPipe);
        }
    };

    private PipeAccounting(long softPages, long hardPages) {
        this.softPages = softPages;
        this.hardPages = hardPages;
    }

    /**
     * Makes an account that pipes share by being opened with it ({@link PipeOptions.Builder#accounting}).
     *
     * @param softPages over this many pages new pipes get {@link #MIN_PAGES} pages and cannot grow; 0 = none
     * @param hardPages over this many pages new pipes fail to open and pipes cannot grow; 0 = none
     * @return a new, empty account
     * @throws IllegalArgumentException if a limit is negative
     */
    public static PipeAccounting withLimits(long softPages, long hardPages) {
        if (softPages < 0 || hardPages < 0) {
            throw new IllegalArgumentException("page limits must be >= 0 (0 = unlimited), were soft="
                    + softPages + " hard=" + hardPages);
        }
        return new PipeAccounting(softPages, hardPages);
    }

    /** {@return the soft limit in pages, 0 if none} */
    public long softLimitPages() {
        return softPages;
    }

    /** {@return the hard limit in pages, 0 if none} */
    public long hardLimitPages() {
        return hardPages;
    }

    /** {@return pages charged now, summed over the open pipes of this account} */
    public long pagesInUse() {
        return pages.get();
    }

    PageCharging charging() {
        return charging;
    }

    private boolean overSoft(long total) {
        return softPages != 0 && total > softPages;
    }

    private boolean overHard(long total) {
        return hardPages != 0 && total > hardPages;
    }

    /** Charges a new pipe; @return the pages it gets (may be {@link #MIN_PAGES}). */
    private int chargeOpen(int wantedPages) {
        long total = pages.addAndGet(wantedPages);
        int got = wantedPages;
        if (overSoft(total) && wantedPages > MIN_PAGES) {
            total = pages.addAndGet(MIN_PAGES - wantedPages);
            got = MIN_PAGES;
        }
        if (overHard(total)) {
            pages.addAndGet(-got);
            throw new PipeLimitException("cannot open a pipe: " + (total - got) + " pages in use + " + got
                    + " would exceed the hard limit of " + hardPages + " pages (Linux: ENFILE)");
        }
        return got;
    }

    /** Moves a pipe's charge from {@code from} to {@code to} pages, refusing growth past a limit. */
    private void recharge(int from, int to) {
        long total = pages.addAndGet(to - from);
        if (to > from && (overSoft(total) || overHard(total))) {
            pages.addAndGet(from - to);
            throw new PipeLimitException("cannot grow the pipe to " + to + " pages: " + total
                    + " pages would be in use, over the " + (overHard(total) ? "hard limit of " + hardPages
                    : "soft limit of " + softPages) + " pages (Linux: EPERM)");
        }
    }

    private void release(int pagesOfPipe) {
        pages.addAndGet(-pagesOfPipe);
    }

    @Override
    public String toString() {
        return "PipeAccounting[inUse=" + pagesInUse() + " pages, soft=" + (softPages == 0 ? "none" : softPages)
                + ", hard=" + (hardPages == 0 ? "none" : hardPages) + "]";
    }
}
