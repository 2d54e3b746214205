package dev.sluice.jcstress;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

import dev.sluice.internal.ring.Page;
import dev.sluice.internal.ring.PagePool;
import dev.sluice.internal.ring.PageRing;
import dev.sluice.internal.ring.PipeBuffer;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.III_Result;

/**
 * The reference count of a {@link Page} that two pipes share. tee (and a splice that cuts a slot) puts a
 * second reference to a page into another ring; from then on each ring lets go of its slot under its own
 * lock, so the count is the only thing the two pipes agree on, and the last one to let go sends the page
 * home: straight into its pool if that ring is the page's home, else onto the home pool's return stack. A
 * count that loses an update either recycles a page while another pipe's slot still reads it (the next
 * write into the page overwrites bytes a reader has not seen yet) or never recycles it; a count that two
 * threads both see reach zero sends the page home twice, to be handed out to two slots.
 *
 * <p>Each race works on real rings: pipe A's page (A's pool is its home) sits in a slot of ring A and, by a
 * tee, in a slot of ring B; the actors play threads holding different pipes' locks.
 */
public final class PageRefCounts {
    private PageRefCounts() {
    }

    /** A page of ring A's pool, written into ring A and shared into ring B: two references. */
    static Page sharedPage(PageRing a, PageRing b) {
        Page p = a.takePage();
        a.push(p, 100, PipeBuffer.FLAG_CAN_MERGE);
        a.shareTo(b, 0, 100);
        return p;
    }

    /** A reader of {@code ring} takes its first slot whole and lets go of the page (the ring's lock held). */
    static void readSlot(PageRing ring) {
        PipeBuffer buf = ring.tailBuffer();
        ring.consumed(buf, buf.length());
        ring.releaseTail();
    }

    /** @return pages back home in {@code pool} (in the pool itself or on its return stack); only one exists */
    static int home(PagePool pool) {
        return pool.size() + pool.returnedCount();
    }

    /**
     * The readers of A and B take their slots of the shared page at once: A's through its fast path (one
     * acquire load: is the page its own and unshared?) or a release, B's through a release that, if last,
     * pushes the page onto A's return stack. Exactly one of them must send it home. r1 = times the page is
     * handed out again by A's pool (two takes), r2 = pages in A's pool itself, r3 = pages on its return stack.
     */
    @JCStressTest
    @Outcome(id = "1, 1, 0", expect = ACCEPTABLE, desc = "B let go first; A, its home, put it straight into its pool.")
    @Outcome(id = "1, 0, 1", expect = ACCEPTABLE, desc = "A let go first; B sent it home through the return stack.")
    @Outcome(id = "0, 0, 0", expect = FORBIDDEN, desc = "Both saw another reference left: the page never goes home.")
    @Outcome(id = "2, 1, 1", expect = FORBIDDEN, desc = "Both saw the last reference go: the page went home twice.")
    @Outcome(expect = FORBIDDEN, desc = "The page went home the wrong number of times.")
    @State
    public static class ReleaseVsRelease {
        final PagePool poolA = new PagePool(8);
        final PageRing a = new PageRing(2, poolA);
        final PageRing b = new PageRing(2, new PagePool(8));
        final Page page = sharedPage(a, b);

        @Actor
        public void readerOfA() {
            readSlot(a);
        }

        @Actor
        public void readerOfB() {
            readSlot(b);
        }

        @Arbiter
        public void arbiter(III_Result r) {
            r.r2 = poolA.size();
            r.r3 = poolA.returnedCount();
            Page first = poolA.take();
            Page second = poolA.take();
            r.r1 = (first == page ? 1 : 0) + (second == page ? 1 : 0);
        }
    }

    /**
     * A tee from B into C (B's and C's locks held) adds a third reference while A's reader (A's lock held)
     * drops the first. Whatever the order, two slots still hold the page afterwards, so it must not go home
     * until both have let go. r1 = the count after the race, r2 = times the page is home after B's reader
     * lets go too, r3 = after C's reader lets go as well.
     */
    @JCStressTest
    @Outcome(id = "2, 0, 1", expect = ACCEPTABLE, desc = "Home only once the last of the two remaining slots let go.")
    @Outcome(id = {"1, 1, 1", "1, 1, 0"}, expect = FORBIDDEN,
            desc = "The release lost the tee's reference: recycled while C's slot still reads it.")
    @Outcome(id = "3, 0, 0", expect = FORBIDDEN, desc = "The tee lost the release: the page never goes home.")
    @Outcome(expect = FORBIDDEN, desc = "Recycled too early, twice, or never.")
    @State
    public static class ShareVsRelease {
        final PagePool poolA = new PagePool(8);
        final PageRing a = new PageRing(2, poolA);
        final PageRing b = new PageRing(2, new PagePool(8));
        final PageRing c = new PageRing(2, new PagePool(8));
        final Page page = sharedPage(a, b);

        @Actor
        public void readerOfA() {
            readSlot(a);
        }

        @Actor
        public void teeFromBToC() {
            b.shareTo(c, 0, 100);
        }

        @Arbiter
        public void arbiter(III_Result r) {
            r.r1 = page.refs();
            readSlot(b);
            r.r2 = home(poolA);
            readSlot(c);
            r.r3 = home(poolA);
        }
    }
}
