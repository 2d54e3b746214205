package dev.sluice.internal.sync;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** The wait queue's promises: exclusive wake-ups in order, no lost wake-up, interrupts and timeouts. */
@Timeout(60)
class WaitQueueTest {

    private static Thread start(boolean virtual, Runnable r) {
        return virtual ? Thread.ofVirtual().start(r) : Thread.ofPlatform().start(r);
    }

    /** Spins until the queue has {@code n} waiters; fails after 10 s. */
    private static void awaitWaiters(WaitQueue q, AtomicInteger entered, int n) {
        long end = System.nanoTime() + Duration.ofSeconds(10).toNanos();
        while (entered.get() < n || !q.hasWaiters()) {
            if (System.nanoTime() > end) {
                throw new AssertionError("waiters did not arrive");
            }
            Thread.onSpinWait();
        }
    }

    private static void awaitParked(Thread t) {
        long end = System.nanoTime() + Duration.ofSeconds(10).toNanos();
        while (t.getState() != Thread.State.WAITING && t.getState() != Thread.State.TIMED_WAITING) {
            if (System.nanoTime() > end) {
                throw new AssertionError(t + " did not park: " + t.getState());
            }
            Thread.onSpinWait();
        }
    }

    @ParameterizedTest(name = "virtual={0}")
    @ValueSource(booleans = {false, true})
    void wakeOneWakesTheLongestWaitingThreadOnly(boolean virtual) throws Exception {
        WaitQueue q = new WaitQueue();
        ConcurrentLinkedQueue<Integer> woken = new ConcurrentLinkedQueue<>();
        List<Thread> threads = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            int id = i;
            Thread t = start(virtual, () -> {
                if (q.await(() -> false, 0) == WaitQueue.Outcome.WOKEN) {
                    woken.add(id);
                }
            });
            awaitParked(t); // enqueue order = start order
            threads.add(t);
        }
        assertThat(q.wakeOne()).isEqualTo(1);
        threads.get(0).join();
        assertThat(woken).containsExactly(0);
        assertThat(threads.get(1).isAlive()).isTrue();
        assertThat(threads.get(2).isAlive()).isTrue();
        assertThat(q.wakeAll()).isEqualTo(2);
        for (Thread t : threads) {
            t.join();
        }
        assertThat(woken).hasSize(3).first().isEqualTo(0);
        assertThat(q.wakeups()).isEqualTo(3);
        assertThat(q.hasWaiters()).isFalse();
        assertThat(q.wakeOne()).isZero();
    }

    /**
     * An adaptive queue times the wake-up of a platform waiter (the cost sizes its spins) and not that of a
     * virtual one, which never spins: two clock reads per wake-up saved on the virtual threads' hot path.
     */
    @ParameterizedTest(name = "virtual={0}")
    @ValueSource(booleans = {false, true})
    void onlyAPlatformWaitersWakeUpIsTimed(boolean virtual) throws Exception {
        WaitQueue q = new WaitQueue(dev.sluice.policy.SpinPolicy.ADAPTIVE);
        AtomicReference<WaitQueue.Outcome> outcome = new AtomicReference<>();
        Thread t = start(virtual, () -> outcome.set(q.await(() -> false, 0)));
        awaitParked(t);
        assertThat(q.wakeOne()).isEqualTo(1);
        t.join();
        assertThat(outcome.get()).isEqualTo(WaitQueue.Outcome.WOKEN);
        if (virtual) {
            assertThat(q.spinBudget().wakeCost()).as("not measured").isEqualTo(-1);
        } else {
            assertThat(q.spinBudget().wakeCost()).as("measured").isGreaterThanOrEqualTo(0);
        }
    }

    @Test
    void conditionAlreadyTrueReturnsReadyWithoutParking() {
        WaitQueue q = new WaitQueue();
        assertThat(q.await(() -> true, 0)).isEqualTo(WaitQueue.Outcome.READY);
        assertThat(q.hasWaiters()).isFalse();
    }

    @ParameterizedTest(name = "virtual={0}")
    @ValueSource(booleans = {false, true})
    void interruptEndsTheWaitAndKeepsTheFlag(boolean virtual) throws Exception {
        WaitQueue q = new WaitQueue();
        AtomicReference<WaitQueue.Outcome> outcome = new AtomicReference<>();
        AtomicBoolean flagKept = new AtomicBoolean();
        Thread t = start(virtual, () -> {
            outcome.set(q.await(() -> false, 0));
            flagKept.set(Thread.currentThread().isInterrupted());
        });
        awaitParked(t);
        t.interrupt();
        t.join();
        assertThat(outcome.get()).isEqualTo(WaitQueue.Outcome.INTERRUPTED);
        assertThat(flagKept).isTrue();
        assertThat(q.hasWaiters()).isFalse();
    }

    @Test
    void deadlineEndsTheWait() {
        WaitQueue q = new WaitQueue();
        long deadline = System.nanoTime() + Duration.ofMillis(20).toNanos();
        assertThat(q.await(() -> false, deadline)).isEqualTo(WaitQueue.Outcome.TIMED_OUT);
        assertThat(System.nanoTime() - deadline).isGreaterThanOrEqualTo(0);
        assertThat(q.hasWaiters()).isFalse();
    }

    /**
     * The waker's protocol (publish state, then wake) against the waiter's (enqueue, then test, then park),
     * many times over with no slack: a lost wake-up leaves the waiter parked and times the test out.
     */
    @ParameterizedTest(name = "virtual={0}")
    @ValueSource(booleans = {false, true})
    void noWakeUpIsLostBetweenTestAndPark(boolean virtual) throws Exception {
        WaitQueue q = new WaitQueue();
        AtomicInteger published = new AtomicInteger();
        int rounds = 20_000;
        Thread waiter = start(virtual, () -> {
            for (int i = 1; i <= rounds; i++) {
                int want = i;
                while (published.get() < want) {
                    q.await(() -> published.get() >= want, 0);
                }
            }
        });
        for (int i = 1; i <= rounds; i++) {
            published.set(i);
            q.wakeOne();
            if ((i & 255) == 0) {
                Thread.yield();
            }
        }
        waiter.join(Duration.ofSeconds(30));
        assertThat(waiter.isAlive()).as("waiter stranded: a wake-up was lost").isFalse();
    }

    /**
     * COALESCING's building block, driven step by step: a woken thread counts as in flight until its wait
     * returns, and {@code wakeOneUnlessInFlight} sends nothing meanwhile. The first waiter is held inside its
     * condition (after it queued, before it could return), so the in-flight window is open for as long as
     * the test needs.
     */
    @ParameterizedTest(name = "virtual={0}")
    @ValueSource(booleans = {false, true})
    void noSecondWakeUpWhileOneIsInFlight(boolean virtual) throws Exception {
        WaitQueue q = new WaitQueue();
        java.util.concurrent.CountDownLatch entered = new java.util.concurrent.CountDownLatch(1);
        AtomicBoolean gate = new AtomicBoolean(); // spun on, not parked on: parking would eat the wake-up's permit
        AtomicReference<WaitQueue.Outcome> first = new AtomicReference<>();
        AtomicBoolean held = new AtomicBoolean();
        Thread t1 = start(virtual, () -> first.set(q.await(() -> {
            if (held.compareAndSet(false, true)) {
                entered.countDown();
                while (!gate.get()) {
                    Thread.onSpinWait(); // queued, and kept from returning
                }
            }
            return false;
        }, 0)));
        entered.await();
        assertThat(q.wakeInFlight()).isFalse();
        assertThat(q.wakeOne()).as("picks the held thread").isEqualTo(1);
        assertThat(q.wakeInFlight()).isTrue();

        AtomicReference<WaitQueue.Outcome> second = new AtomicReference<>();
        Thread t2 = start(virtual, () -> second.set(q.await(() -> false, 0)));
        awaitParked(t2);
        assertThat(q.wakeOneUnlessInFlight()).as("a wake-up is in flight").isZero();
        assertThat(q.wakeups()).isEqualTo(1);
        assertThat(second.get()).isNull();

        gate.set(true);
        t1.join();
        assertThat(first.get()).as("a picked thread reports it, condition or not").isEqualTo(WaitQueue.Outcome.WOKEN);
        assertThat(q.wakeInFlight()).as("its wait returned").isFalse();
        assertThat(q.wakeOneUnlessInFlight()).isEqualTo(1);
        t2.join();
        assertThat(second.get()).isEqualTo(WaitQueue.Outcome.WOKEN);
        assertThat(q.wakeInFlight()).isFalse();
        assertThat(q.hasWaiters()).isFalse();
    }

    /**
     * A waker can pick a thread in the instant between its condition coming true and its leaving the queue. The
     * waker counted on that thread (under COALESCING it skips the next wake-up for it, and the thread must pass
     * the baton if it leaves something behind), so the thread must report WOKEN, not READY. Reporting READY
     * lost the baton: the lab's hackbench on virtual threads hung with writers asleep beside an empty pipe.
     */
    @Test
    void aThreadPickedAfterItsConditionCameTrueReportsTheWakeUp() {
        WaitQueue q = new WaitQueue();
        AtomicInteger picked = new AtomicInteger();
        WaitQueue.Outcome outcome = q.await(() -> {
            picked.addAndGet(q.wakeOne()); // the waker runs between the test and the thread's leaving
            return true;
        }, 0);
        assertThat(picked.get()).as("the waker picked the queued thread").isEqualTo(1);
        assertThat(outcome).isEqualTo(WaitQueue.Outcome.WOKEN);
        assertThat(q.wakeInFlight()).as("its wait returned").isFalse();
        assertThat(q.hasWaiters()).isFalse();
    }

    /** wakeAll counts every thread it woke as in flight, and each one's return lowers the count. */
    @ParameterizedTest(name = "virtual={0}")
    @ValueSource(booleans = {false, true})
    void everyThreadWokenByWakeAllIsInFlightUntilItReturns(boolean virtual) throws Exception {
        WaitQueue q = new WaitQueue();
        List<Thread> threads = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            Thread t = start(virtual, () -> q.await(() -> false, 0));
            awaitParked(t);
            threads.add(t);
        }
        assertThat(q.wakeAll()).isEqualTo(3);
        for (Thread t : threads) {
            t.join();
        }
        assertThat(q.wakeInFlight()).isFalse();
        Thread late = start(virtual, () -> q.await(() -> false, 0));
        awaitParked(late);
        assertThat(q.wakeOneUnlessInFlight()).as("nothing left in flight").isEqualTo(1);
        late.join();
    }

    @Test
    void aSpinThatMissesAWaitShorterThanTheLongestSpinIsTakenBack() throws Exception {
        WaitQueue q = new WaitQueue(dev.sluice.policy.SpinPolicy.ADAPTIVE);
        SpinBudget b = q.spinBudget();
        b.woke(100_000); // wake-ups cost 100 µs here, so a spin lasts 100 µs ...
        long longest = Duration.ofSeconds(5).toNanos(); // ... though 5 s would be allowed
        long started = System.nanoTime();
        Thread t = Thread.ofPlatform().start(() -> q.await(() -> false, 0, 0, longest));
        awaitParked(t); // the spin ran out: a failure, for now
        q.wakeOne();
        t.join();
        long waited = System.nanoTime() - started;
        // The wait ended well within the longest spin: a narrow miss, so no waits park at once, and the next
        // spin is long enough to have seen it.
        assertThat(b.skip()).isZero();
        long next = b.next(longest, false);
        assertThat(next).isGreaterThan(100_000).isLessThanOrEqualTo(waited + waited / 8 + 100_000);
    }

    @Test
    void aSpinThatMissesALongWaitStaysAFailure() throws Exception {
        WaitQueue q = new WaitQueue(dev.sluice.policy.SpinPolicy.ADAPTIVE);
        SpinBudget b = q.spinBudget();
        long longest = 1_000;
        AtomicBoolean ready = new AtomicBoolean();
        Thread t = Thread.ofPlatform().start(() -> q.await(ready::get, 0, 0, longest));
        awaitParked(t);
        // The wait already outlasts the 1 µs spin that ran out before the park; make sure of it by the clock.
        long until = System.nanoTime() + 2 * longest;
        while (System.nanoTime() < until) {
            Thread.onSpinWait();
        }
        ready.set(true);
        q.wakeOne();
        t.join();
        assertThat(b.skip()).as("the failure stands: the next wait parks at once").isEqualTo(1);
    }
}
