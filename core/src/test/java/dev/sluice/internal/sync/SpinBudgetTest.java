package dev.sluice.internal.sync;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.policy.SpinPolicy;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** The spin-before-park rule, driven step by step: no threads, no clocks except where a wait needs one. */
@Timeout(60)
class SpinBudgetTest {
    private static final long MAX = 20_000;

    /** @return the spins the next {@code n} waits get */
    private static List<Long> nextSpins(SpinBudget b, int n) {
        List<Long> spins = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            spins.add(b.next(MAX, false));
        }
        return spins;
    }

    @Test
    void fixedAlwaysSpinsTheWholeSpinWhateverHappens() {
        SpinBudget b = new SpinBudget(SpinPolicy.FIXED);
        b.failed();
        b.failed();
        b.woke(100);
        assertThat(nextSpins(b, 3)).containsOnly(MAX);
        assertThat(b.next(0, false)).isZero();
        assertThat(b.wakeCost()).as("a fixed budget measures nothing").isEqualTo(-1);
    }

    @Test
    void adaptiveStartsWithTheWholeSpin() {
        SpinBudget b = new SpinBudget(SpinPolicy.ADAPTIVE);
        assertThat(b.next(MAX, false)).isEqualTo(MAX);
        assertThat(b.next(0, false)).as("no spin configured, no spin").isZero();
    }

    @Test
    void adaptiveNeverSpinsOnVirtualThreads() {
        SpinBudget b = new SpinBudget(SpinPolicy.ADAPTIVE);
        assertThat(b.next(MAX, true)).isZero();
        assertThat(new SpinBudget(SpinPolicy.FIXED).next(MAX, true)).as("fixed spins what it is told").isEqualTo(MAX);
    }

    @Test
    void aNarrowMissTakesTheFailureBackAndLengthensLaterSpins() {
        SpinBudget b = new SpinBudget(SpinPolicy.ADAPTIVE, 99);
        b.woke(4_000);
        assertThat(b.next(MAX, false)).as("as long as a wake-up costs").isEqualTo(4_000);
        b.failed();
        assertThat(b.skip()).isEqualTo(1);
        // The wait ended 9 µs after the spin began: a 4 µs spin missed it, a 10 µs one would not have.
        b.missed(9_000, MAX);
        assertThat(b.skip()).as("not a failure").isZero();
        long spin = b.next(MAX, false);
        assertThat(spin).as("a little longer than the wait that was missed").isGreaterThan(9_000).isLessThan(MAX);
        // Two failures in a row with a narrow miss between them: the penalty is the first failure's.
        b.failed();
        b.missed(9_000, MAX);
        b.failed();
        assertThat(b.skip()).as("the taken-back failure does not double the penalty").isEqualTo(1);
    }

    @Test
    void aLongWaitAfterAFailedSpinStaysAFailure() {
        SpinBudget b = new SpinBudget(SpinPolicy.ADAPTIVE, 99);
        b.failed();
        b.missed(MAX + 1, MAX);
        assertThat(b.skip()).isEqualTo(1);
        assertThat(b.next(MAX, false)).isZero();
        assertThat(b.next(MAX, false)).as("the spin length is untouched").isEqualTo(MAX);
        SpinBudget fixed = new SpinBudget(SpinPolicy.FIXED);
        fixed.failed();
        fixed.missed(1_000, MAX);
        assertThat(fixed.next(MAX, false)).isEqualTo(MAX);
    }

    @Test
    void failuresInARowParkMoreAndMoreWaitsAtOnceUpToTheMaximum() {
        SpinBudget b = new SpinBudget(SpinPolicy.ADAPTIVE, 12345);
        int penalty = 1;
        java.util.Set<Integer> skipsAtMax = new java.util.HashSet<>();
        for (int round = 0; round < 40; round++) {
            assertThat(b.next(MAX, false)).as("round %d spins", round).isEqualTo(MAX);
            b.failed();
            int skip = b.skip();
            assertThat(skip).as("between half and all of the penalty %d", penalty)
                    .isBetween(penalty / 2 + 1, penalty);
            if (penalty == SpinBudget.MAX_SKIP) {
                skipsAtMax.add(skip);
            }
            assertThat(nextSpins(b, skip)).as("then %d waits park at once", skip).containsOnly(0L);
            penalty = Math.min(penalty * 2, SpinBudget.MAX_SKIP);
        }
        assertThat(b.skip()).isZero();
        assertThat(skipsAtMax).as("jittered, so sides in lockstep drift apart").hasSizeGreaterThan(1);
    }

    @Test
    void oneSuccessRestoresSpinningOnEveryWait() {
        SpinBudget b = new SpinBudget(SpinPolicy.ADAPTIVE, 7);
        for (int i = 0; i < 8; i++) {
            b.failed();
        }
        assertThat(b.skip()).isBetween(SpinBudget.MAX_SKIP / 2 + 1, SpinBudget.MAX_SKIP);
        nextSpins(b, b.skip());
        assertThat(b.next(MAX, false)).isEqualTo(MAX); // the probe
        b.succeeded();
        assertThat(nextSpins(b, 5)).containsOnly(MAX);
        b.failed();
        assertThat(b.skip()).as("the penalty starts over").isEqualTo(1);
    }

    @Test
    void aSpinThatRunsIntoTheLockCountsAsAFailure() {
        SpinBudget b = new SpinBudget(SpinPolicy.ADAPTIVE);
        b.succeeded();
        b.spunIntoLock(false);
        assertThat(b.skip()).as("a free lock: the spin worked").isZero();
        b.spunIntoLock(true);
        assertThat(b.skip()).as("the other side was mid-operation: park next time").isEqualTo(1);
        assertThat(nextSpins(b, 2)).containsExactly(0L, MAX);
        SpinBudget fixed = new SpinBudget(SpinPolicy.FIXED);
        fixed.spunIntoLock(true);
        assertThat(fixed.skip()).isZero();
    }

    @Test
    void aVirtualReaderLearnsToBatchFromWakeUpsThatFindTheLockHeld() {
        SpinBudget b = new SpinBudget(SpinPolicy.ADAPTIVE);
        for (int i = 1; i < SpinBudget.TRADES_BEFORE_BATCHING; i++) {
            b.tradedWithoutSpin(true);
        }
        b.tradedWithoutSpin(false); // a ping-pong's reader wakes to a free lock
        for (int i = 1; i < SpinBudget.TRADES_BEFORE_BATCHING; i++) {
            b.tradedWithoutSpin(true);
        }
        assertThat(b.batching()).as("only trades in a row count").isFalse();
        b.tradedWithoutSpin(true);
        assertThat(b.batching()).isTrue();
        assertThat(b.skip()).as("a wake-up is no failed spin").isZero();
        b.batchRanOut();
        assertThat(b.batching()).isFalse();
        SpinBudget fixed = new SpinBudget(SpinPolicy.FIXED);
        for (int i = 0; i < 10; i++) {
            fixed.tradedWithoutSpin(true);
        }
        assertThat(fixed.batching()).isFalse();
    }

    @Test
    void aReaderThatKeepsTradingTheLockSpinsForAPageUntilSuchASpinRunsOut() {
        SpinBudget b = new SpinBudget(SpinPolicy.ADAPTIVE);
        for (int i = 1; i < SpinBudget.TRADES_BEFORE_BATCHING; i++) {
            b.spunIntoLock(true);
        }
        b.spunIntoLock(false); // one spin that found the lock free: a ping-pong's stray trade, not a stream
        for (int i = 1; i < SpinBudget.TRADES_BEFORE_BATCHING; i++) {
            b.spunIntoLock(true);
        }
        assertThat(b.batching()).as("only trades in a row count").isFalse();
        b.spunIntoLock(true);
        assertThat(b.batching()).isTrue();
        b.spunIntoLock(false);
        assertThat(b.batching()).as("a free lock later does not end it").isTrue();
        b.batchRanOut();
        assertThat(b.batching()).isFalse();
        b.spunIntoLock(true);
        assertThat(b.batching()).as("the count starts over").isFalse();
        SpinBudget fixed = new SpinBudget(SpinPolicy.FIXED);
        for (int i = 0; i < 10; i++) {
            fixed.spunIntoLock(true);
        }
        assertThat(fixed.batching()).isFalse();
    }

    /** @return how many trades in a row it took {@code b} to batch */
    private static int tradesToBatch(SpinBudget b) {
        int n = 0;
        while (!b.batching()) {
            b.spunIntoLock(true);
            n++;
        }
        return n;
    }

    @Test
    void aNapThatRunsOutDoublesTheTradesBeforeTheNextOneUntilANapIsFilled() {
        SpinBudget b = new SpinBudget(SpinPolicy.ADAPTIVE);
        int trades = SpinBudget.TRADES_BEFORE_BATCHING;
        assertThat(tradesToBatch(b)).isEqualTo(trades);
        for (int backoff = 2; backoff <= 2 * SpinBudget.MAX_BATCH_BACKOFF; backoff *= 2) {
            b.napRanOut();
            assertThat(b.batching()).isFalse();
            assertThat(tradesToBatch(b)).as("after a nap that ran out")
                    .isEqualTo(trades * Math.min(backoff, SpinBudget.MAX_BATCH_BACKOFF));
        }
        b.napFilled();
        b.batchRanOut(); // a sliver, not a nap that ran out: no backoff
        assertThat(tradesToBatch(b)).as("a filled nap starts over").isEqualTo(trades);
    }

    @Test
    void aSpinLastsNoLongerThanAWakeUpCosts() {
        SpinBudget b = new SpinBudget(SpinPolicy.ADAPTIVE);
        b.woke(4_000);
        assertThat(b.wakeCost()).isEqualTo(4_000);
        assertThat(b.next(MAX, false)).isEqualTo(4_000);
        // A moving average: each new cost moves it a quarter of the way.
        b.woke(8_000);
        assertThat(b.wakeCost()).isEqualTo(5_000);
        for (int i = 0; i < 100; i++) {
            b.woke(1_000_000);
        }
        assertThat(b.next(MAX, false)).as("capped by the longest spin").isEqualTo(MAX);
        b.woke(-5);
        assertThat(b.wakeCost()).as("a negative sample (clock skew) is ignored").isGreaterThan(MAX);
    }

    @Test
    void waitQueueSpinsThenReportsSpunAndKeepsSpinning() {
        WaitQueue q = new WaitQueue(SpinPolicy.ADAPTIVE);
        AtomicInteger evaluations = new AtomicInteger();
        // True on the 5th look: well within a 1 ms spin, so the wait ends spinning.
        WaitQueue.Outcome o = q.await(() -> evaluations.incrementAndGet() >= 5, 0, 0, 1_000_000);
        assertThat(o).isEqualTo(WaitQueue.Outcome.SPUN);
        assertThat(evaluations.get()).isEqualTo(5);
        assertThat(q.spinBudget().skip()).isZero();
        assertThat(q.hasWaiters()).isFalse();
    }

    @Test
    void waitQueueParksAtOnceAfterAFailedSpin() {
        WaitQueue q = new WaitQueue(SpinPolicy.ADAPTIVE);
        AtomicInteger evaluations = new AtomicInteger();
        // A deadline already passed: the spin gives up at its first clock check (64 looks), a failure.
        long past = System.nanoTime() - 1;
        assertThat(q.await(() -> { evaluations.incrementAndGet(); return false; }, past, 0, 1_000_000))
                .isEqualTo(WaitQueue.Outcome.TIMED_OUT);
        assertThat(evaluations.get()).as("spun 64 looks, then one more before parking").isEqualTo(65);
        assertThat(q.spinBudget().skip()).isEqualTo(1);
        evaluations.set(0);
        assertThat(q.await(() -> { evaluations.incrementAndGet(); return false; }, past, 0, 1_000_000))
                .isEqualTo(WaitQueue.Outcome.TIMED_OUT);
        assertThat(evaluations.get()).as("the next wait did not spin: one look, then the deadline").isEqualTo(1);
    }

    @Test
    void waitQueueMeasuresWhatAWakeUpCosts() throws Exception {
        WaitQueue q = new WaitQueue(SpinPolicy.ADAPTIVE);
        Thread t = Thread.ofPlatform().start(() -> q.await(() -> false, 0, 0, 0));
        while (!q.hasWaiters()) {
            Thread.onSpinWait();
        }
        assertThat(q.wakeOne()).isEqualTo(1);
        t.join();
        assertThat(q.spinBudget().wakeCost()).isGreaterThanOrEqualTo(0);
        WaitQueue fixed = new WaitQueue();
        assertThat(fixed.spinBudget().adaptive()).isFalse();
    }
}
