package dev.sluice.jcstress;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

import dev.sluice.internal.ring.Page;
import dev.sluice.internal.ring.PagePool;
import dev.sluice.internal.ring.PageRing;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.III_Result;

/**
 * The lock-free return stack of {@link PagePool}: pages that another pipe let go of last (splice moved them,
 * or tee shared them) are pushed with a CAS from any thread ({@code giveBack}), and the home pipe takes the
 * whole stack at once with {@code getAndSet} under its own lock when its pool runs dry ({@code take}). It is
 * the only place where a page crosses from one pipe's lock to another's without a lock of its own. A page
 * lost from the stack is a leak that the pool makes up for by allocating; a page handed out twice is two
 * slots, possibly in two pipes, writing the same 4096 bytes.
 *
 * <p>Each race counts, after the actors, how often each page comes out of the pool: every page that was
 * given back must be handed out exactly once before the pool allocates again.
 */
public final class PagePoolReturnStack {
    private PagePoolReturnStack() {
    }

    /** @return how many of {@code taken} are {@code page} */
    static int timesTaken(Page page, Page[] taken) {
        int n = 0;
        for (Page p : taken) {
            if (p == page) {
                n++;
            }
        }
        return n;
    }

    /** @return the next {@code n} pages {@code pool} hands out */
    static Page[] take(PagePool pool, int n) {
        Page[] taken = new Page[n];
        for (int i = 0; i < n; i++) {
            taken[i] = pool.take();
        }
        return taken;
    }

    /**
     * Two pushes at once: one pipe's reader recycles two of the home pool's pages outside its lock, as one
     * chain ({@link PageRing#recycleUnlocked}, which pushes {@code first..last} with one CAS), while another
     * pipe's reader gives back a third page alone. Both CAS loops start from the same top; the loser must
     * relink its chain to the winner's page and retry. r1, r2, r3 = times the chain's two pages and the single
     * page come out of the next four takes.
     */
    @JCStressTest
    @Outcome(id = "1, 1, 1", expect = ACCEPTABLE, desc = "Every page given back is handed out once.")
    @Outcome(id = {"0, 0, 1", "1, 1, 0"}, expect = FORBIDDEN,
            desc = "A push lost the other's pages: the stack's top was overwritten, or a stale link kept.")
    @Outcome(expect = FORBIDDEN, desc = "A page lost or handed out twice.")
    @State
    public static class ChainVsPush {
        final PagePool home = new PagePool(8);
        final PageRing other = new PageRing(2, home);
        final Page a = home.take();
        final Page b = home.take();
        final Page c = home.take();
        final Page[] chain = {a, b};

        @Actor
        public void chain() {
            other.recycleUnlocked(chain, 2); // a and b: this ring's own, unshared, so pushed as one chain
        }

        @Actor
        public void single() {
            c.release(null); // the last reference, released by a pipe that is not c's home
        }

        @Arbiter
        public void arbiter(III_Result r) {
            Page[] taken = take(home, 4);
            r.r1 = timesTaken(a, taken);
            r.r2 = timesTaken(b, taken);
            r.r3 = timesTaken(c, taken);
        }
    }

    /**
     * A push racing the home pipe's reclaim. The pool is empty but for one page waiting on the stack, so the
     * home pipe's {@code take} reclaims the stack while another pipe pushes a second page. The reclaim must
     * take the stack and leave it empty in one atomic step: a read of the top followed by a separate clear
     * drops a page pushed in between, and a read without a clear hands the reclaimed page out again.
     * r1 = times the pushed page comes out of three takes (the home pipe's and two more), r2 = times the page
     * that waited does, r3 = pages left in the pool right after the home pipe's take (1 if its reclaim saw
     * the push).
     */
    @JCStressTest
    @Outcome(id = "1, 1, 1", expect = ACCEPTABLE, desc = "The reclaim took both pages; the next take gets the other.")
    @Outcome(id = "1, 1, 0", expect = ACCEPTABLE, desc = "The push came after the reclaim; the next take reclaims it.")
    @Outcome(id = {"0, 1, 0", "0, 1, 1"}, expect = FORBIDDEN, desc = "The pushed page was lost by the reclaim.")
    @Outcome(expect = FORBIDDEN, desc = "A page lost or handed out twice.")
    @State
    public static class PushVsReclaim {
        final PagePool home = new PagePool(8);
        final Page waiting = home.take();
        final Page pushed = home.take();
        Page first;

        {
            waiting.release(null); // onto the stack: the pool itself holds nothing
        }

        @Actor
        public void homePipe(III_Result r) {
            first = home.take();
            r.r3 = home.size();
        }

        @Actor
        public void otherPipe() {
            pushed.release(null);
        }

        @Arbiter
        public void arbiter(III_Result r) {
            Page[] taken = {first, home.take(), home.take()};
            r.r1 = timesTaken(pushed, taken);
            r.r2 = timesTaken(waiting, taken);
        }
    }
}
