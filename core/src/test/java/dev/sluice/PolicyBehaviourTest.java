package dev.sluice;

import static dev.sluice.ConformanceSupport.awaitBlockedWriting;
import static dev.sluice.ConformanceSupport.awaitCondition;
import static dev.sluice.ConformanceSupport.filled;
import static dev.sluice.ConformanceSupport.readFully;
import static dev.sluice.ConformanceSupport.start;
import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.ConformanceSupport.Running;
import dev.sluice.ConformanceSupport.ThreadKind;
import dev.sluice.policy.LockStrategy;
import dev.sluice.policy.SpinPolicy;
import dev.sluice.policy.WaitDiscipline;
import dev.sluice.policy.WakePolicy;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The wake-up policies inside a real pipe, driven step by step: a writer blocks on a full ring, the test
 * thread reads a little at a time, and after each step the pipe's wake-up counter must say exactly what
 * the policy promises. Wake-ups are sent before a read returns, so the counter is exact when the read
 * returns: no sleeping, no timing.
 */
@Timeout(60)
class PolicyBehaviourTest {
    private static final int PAGE = Pipe.PAGE_SIZE;
    private static final int SLOTS = 16;

    private static Pipe fullPipe(WakePolicy policy) throws Exception {
        Pipe p = Pipe.open(PipeOptions.builder().wakePolicy(policy).spinBeforePark(Duration.ZERO).build());
        for (int i = 0; i < SLOTS; i++) {
            p.writer().write(filled(PAGE, i));
        }
        assertThat(p.stat().slotsUsed()).isEqualTo(SLOTS);
        return p;
    }

    private static Running<Integer> blockedWriter(Pipe p, ThreadKind kind, int bytes) {
        long waitsBefore = p.counters().writerWaits();
        Running<Integer> w = start(kind, () -> p.writer().write(filled(bytes, 0x77)));
        awaitBlockedWriting(w.thread(), p, waitsBefore + 1);
        return w;
    }

    private static long wakeups(Pipe p) {
        return p.counters().writerWakeups();
    }

    @ParameterizedTest(name = "{0}")
    @EnumSource(WakePolicy.class)
    void nibblingAFullRingWakesOnlyFullAtStart(WakePolicy policy) throws Exception {
        Pipe p = fullPipe(policy);
        Running<Integer> w = blockedWriter(p, ThreadKind.PLATFORM, PAGE);
        readFully(p.reader(), 16); // frees no slot
        assertThat(wakeups(p)).as("%s after a read that freed nothing", policy)
                .isEqualTo(policy == WakePolicy.FULL_AT_START ? 1 : 0);
        // The woken writer (if any) finds no room and waits again: an empty wake-up.
        if (policy == WakePolicy.FULL_AT_START) {
            awaitCondition("the writer waits again", () -> p.counters().writerWaits() >= 2
                    && p.counters().emptyWakeups() >= 1);
        }
        readFully(p.reader(), PAGE - 16); // frees the first slot of a full ring
        boolean expectWake = policy != WakePolicy.HALF_EMPTY;
        long expected = (policy == WakePolicy.FULL_AT_START ? 1 : 0) + (expectWake ? 1 : 0);
        assertThat(wakeups(p)).as("%s after freeing one slot of a full ring", policy).isEqualTo(expected);
        if (expectWake) {
            assertThat(w.join()).isEqualTo(PAGE);
        } else {
            // half-empty: the writer sleeps beside a free slot until the ring is half empty
            for (int i = 1; i <= 7; i++) {
                assertThat(w.isDone()).isFalse();
                readFully(p.reader(), PAGE);
                assertThat(wakeups(p)).as("after freeing %d slots", i + 1).isEqualTo(i == 7 ? 1 : 0);
            }
            assertThat(w.join()).isEqualTo(PAGE);
        }
    }

    @Test
    void adaptiveWakesABulkWriterWhenHalfTheRingIsFree() throws Exception {
        Pipe p = fullPipe(WakePolicy.ADAPTIVE);
        Running<Integer> w = blockedWriter(p, ThreadKind.PLATFORM, SLOTS * PAGE); // needs 8 slots
        for (int freed = 1; freed <= SLOTS / 2; freed++) {
            readFully(p.reader(), PAGE);
            assertThat(wakeups(p)).as("after freeing %d slots", freed).isEqualTo(freed == SLOTS / 2 ? 1 : 0);
        }
        // Drain; the writer finishes its 64 KiB.
        Running<byte[]> r = start(ThreadKind.PLATFORM, () -> readFully(p.reader(), SLOTS / 2 * PAGE + SLOTS * PAGE));
        assertThat(w.join()).isEqualTo(SLOTS * PAGE);
        assertThat(r.join()).hasSize(SLOTS / 2 * PAGE + SLOTS * PAGE);
    }

    @Test
    void adaptiveWakesAWriterWhoseRestFitsAsSoonAsItFits() throws Exception {
        Pipe p = fullPipe(WakePolicy.ADAPTIVE);
        Running<Integer> w = blockedWriter(p, ThreadKind.PLATFORM, 3 * PAGE); // fits in 3 free slots
        readFully(p.reader(), PAGE);
        readFully(p.reader(), PAGE);
        assertThat(wakeups(p)).isZero();
        readFully(p.reader(), PAGE);
        assertThat(wakeups(p)).isEqualTo(1);
        assertThat(w.join()).isEqualTo(3 * PAGE);
    }

    /**
     * Linus Torvalds' worry about half-empty, as a test for every policy: the reader frees room for the
     * writer's record and then waits for the writer by another route, here a latch the writer opens after
     * its write returns. Every policy but half-empty must wake the writer; half-empty is documented to
     * strand it, and this shows it does, deterministically.
     */
    @ParameterizedTest(name = "{0} on {1} threads")
    @EnumSource(WakePolicy.class)
    void readerThatFreesRoomAndThenWaitsForTheWriterIsNotStranded(WakePolicy policy) throws Exception {
        for (ThreadKind kind : ThreadKind.values()) {
            Pipe p = fullPipe(policy);
            CountDownLatch written = new CountDownLatch(1);
            long waitsBefore = p.counters().writerWaits();
            Running<Integer> w = start(kind, () -> {
                int n = p.writer().write(filled(100, 1)); // an atomic record: needs one slot
                written.countDown();
                return n;
            });
            awaitBlockedWriting(w.thread(), p, waitsBefore + 1);
            readFully(p.reader(), PAGE); // frees one slot, then waits for the writer elsewhere
            if (policy == WakePolicy.HALF_EMPTY) {
                assertThat(wakeups(p)).as("half-empty strands the writer").isZero();
                assertThat(written.await(0, TimeUnit.MILLISECONDS)).isFalse();
                p.reader().close(); // release it: broken pipe
                assertThat(w.failure()).isInstanceOf(BrokenPipeException.class);
            } else {
                assertThat(written.await(10, TimeUnit.SECONDS)).as("%s woke the writer", policy).isTrue();
                assertThat(w.join()).isEqualTo(100);
            }
        }
    }

    @ParameterizedTest(name = "{0}")
    @EnumSource(ThreadKind.class)
    void broadcastWakesEveryWaiterAndExclusiveOnlyOne(ThreadKind kind) throws Exception {
        for (WaitDiscipline d : WaitDiscipline.values()) {
            Pipe p = Pipe.open(PipeOptions.builder().waitDiscipline(d).spinBeforePark(Duration.ZERO).build());
            int readers = 4;
            java.util.List<Running<byte[]>> rs = new java.util.ArrayList<>();
            for (int i = 0; i < readers; i++) {
                ReadEnd end = p.reader().dup();
                Running<byte[]> r = start(kind, () -> readFully(end, 1));
                rs.add(r);
                ConformanceSupport.awaitBlockedReading(r.thread(), p, i + 1);
            }
            p.writer().write(new byte[] {42}); // empty -> non-empty
            long sent = p.counters().readerWakeups();
            assertThat(sent).as(d.toString()).isEqualTo(d == WaitDiscipline.BROADCAST ? readers : 1);
            p.writer().write(new byte[] {1, 2, 3}); // let the others finish
            for (Running<byte[]> r : rs) {
                assertThat(r.join()).hasSize(1);
            }
        }
    }

    @ParameterizedTest(name = "{0}")
    @EnumSource(LockStrategy.class)
    void bothLockStrategiesMoveDataBetweenManyThreads(LockStrategy lock) throws Exception {
        Pipe p = Pipe.open(PipeOptions.builder().lockStrategy(lock).capacity(PAGE).build());
        int writers = 4;
        int perWriter = 2000;
        java.util.List<Running<Integer>> ws = new java.util.ArrayList<>();
        for (int i = 0; i < writers; i++) {
            WriteEnd end = p.writer().dup();
            int id = i;
            ws.add(start(ThreadKind.VIRTUAL, () -> {
                try (end) {
                    for (int k = 0; k < perWriter; k++) {
                        end.write(filled(10, id));
                    }
                }
                return perWriter;
            }));
        }
        p.writer().close();
        int[] seen = new int[writers];
        byte[] rec = new byte[10];
        int n;
        while ((n = p.reader().read(rec)) > 0) {
            assertThat(n).isEqualTo(10); // the pipe always holds whole 10-byte records: they are atomic
            seen[rec[0]]++;
        }
        for (int i = 0; i < writers; i++) {
            assertThat(ws.get(i).join()).isEqualTo(perWriter);
            assertThat(seen[i]).isEqualTo(perWriter);
        }
    }

    @Test
    void spinningWaitsAreCountedAndNeedNoWakeUp() throws Exception {
        Pipe p = Pipe.open(PipeOptions.builder().spinBeforePark(Duration.ofMillis(1)).build());
        // The reader spins; this thread writes while it spins or before. Either way nothing is lost.
        Running<byte[]> r = start(ThreadKind.PLATFORM, () -> readFully(p.reader(), 3));
        p.writer().write(new byte[] {1, 2, 3});
        assertThat(r.join()).containsExactly(1, 2, 3);
        PipeCounters c = p.counters();
        assertThat(c.spunWaits() + c.readerWaits()).as("the reader either spun or parked, or never waited")
                .isLessThanOrEqualTo(1);
    }

    @Test
    void theDefaultSpinIsBoundedAndThenTheWaiterParks() throws Exception {
        // Explicit, so the policy matrix's -Dsluice.spinBeforePark cannot turn this into a no-spin test.
        Pipe p = Pipe.open(PipeOptions.builder().capacity(4096)
                .spinBeforePark(PipeOptions.DEFAULT_SPIN_BEFORE_PARK).spinPolicy(PipeOptions.DEFAULT_SPIN_POLICY)
                        .build());
        assertThat(p.options().spinBeforePark().toNanos()).isPositive();
        Running<byte[]> r = start(ThreadKind.PLATFORM, () -> readFully(p.reader(), 1));
        // Parked (WAITING), not spinning (RUNNABLE): a reader of an idle pipe does not burn a core.
        ConformanceSupport.awaitBlockedReading(r.thread(), p, 1);
        p.writer().write(new byte[] {7});
        assertThat(r.join()).containsExactly(7);
        p.writer().write(filled(4096, 1));
        Running<Integer> w = start(ThreadKind.PLATFORM, () -> p.writer().write(new byte[] {9}));
        awaitBlockedWriting(w.thread(), p, 1);
        assertThat(readFully(p.reader(), 4096)).hasSize(4096);
        assertThat(w.join()).isEqualTo(1);
    }

    private static dev.sluice.internal.sync.SpinBudget readerBudget(Pipe p) {
        return dev.sluice.internal.engine.EngineProbe.readerBudget(p);
    }

    /** @return a pipe with the adaptive spin whose readers spin for a page, as after a stream of small writes */
    private static Pipe batchingPipe() {
        Pipe p = Pipe.open(PipeOptions.builder().spinBeforePark(Duration.ofNanos(20_000))
                .spinPolicy(SpinPolicy.ADAPTIVE).build());
        while (!readerBudget(p).batching()) {
            readerBudget(p).spunIntoLock(true);
        }
        return p;
    }

    /**
     * A batching reader (a platform one parks at once, a virtual one yields for a page) that wakes to a sliver
     * goes back to spinning. Before, a virtual reader skipped the wait for a page, and never left batching.
     */
    @ParameterizedTest
    @EnumSource(ThreadKind.class)
    void aBatchingReaderTakesLessWhenNoMoreComesAndStopsBatching(ThreadKind kind) throws Exception {
        Pipe p = batchingPipe();
        dev.sluice.internal.sync.SpinBudget readers = readerBudget(p);
        Running<byte[]> r = start(kind, () -> readFully(p.reader(), 1));
        ConformanceSupport.awaitBlockedReading(r.thread(), p, 1);
        p.writer().write(new byte[] {5});
        assertThat(r.join()).containsExactly(5);
        assertThat(readers.batching()).isFalse();
    }

    /** A reader that parks at once, marked as napping for a batch (its writers' half, without its clock). */
    private static Pipe nappingPipe() {
        return Pipe.open(PipeOptions.builder().spinBeforePark(Duration.ZERO).build());
    }

    /**
     * A napping platform reader is not woken by the write that finds the pipe empty: that wake-up is held back
     * until a batch (8 of the 16 slots) is queued, and the reader then wakes to all of it. Before, the first
     * write woke it, to one page.
     */
    @Test
    void aNappingReaderIsWokenByTheWriteThatCompletesABatch() throws Exception {
        Pipe p = nappingPipe();
        Running<Integer> r = start(ThreadKind.PLATFORM, () -> p.reader().read(new byte[SLOTS * PAGE]));
        ConformanceSupport.awaitBlockedReading(r.thread(), p, 1);
        dev.sluice.internal.engine.EngineProbe.napping(p, true);
        for (int i = 0; i < 7; i++) {
            p.writer().write(filled(PAGE, i));
        }
        assertThat(p.counters().readerWakeups()).as("held back for the batch").isZero();
        p.writer().write(filled(PAGE, 7));
        assertThat(r.join()).isEqualTo(8 * PAGE);
        assertThat(p.counters().readerWakeups()).isEqualTo(1);
    }

    /** With a second reader waiting the wake-up is not held back: that one could sleep through it. */
    @Test
    void aWakeUpIsNotHeldBackWhileAnotherReaderWaits() throws Exception {
        Pipe p = nappingPipe();
        Running<Integer> a = start(ThreadKind.PLATFORM, () -> p.reader().read(new byte[PAGE]));
        ConformanceSupport.awaitBlockedReading(a.thread(), p, 1);
        Running<Integer> b = start(ThreadKind.PLATFORM, () -> p.reader().read(new byte[PAGE]));
        ConformanceSupport.awaitBlockedReading(b.thread(), p, 2);
        dev.sluice.internal.engine.EngineProbe.napping(p, true);
        p.writer().write(filled(2 * PAGE, 1)); // one wake-up: the reader it wakes passes the baton to the other
        assertThat(a.join() + b.join()).isEqualTo(2 * PAGE);
    }

    /**
     * A batching pipe whose lock is held by this thread while one page is queued, and a platform reader that
     * has arrived and parked for that lock: when the lock is let go, its read finds data at once, but the lock
     * held and less than a batch, as in a stream of small writes whose two sides run at once.
     *
     * @param interrupted whether the reader calls read with its interrupt status set
     */
    private static Running<Integer> readerBehindTheLock(Pipe p, boolean interrupted) throws Exception {
        return readerBehindTheLock(p, interrupted, false);
    }

    private static Running<Integer> readerBehindTheLock(Pipe p, boolean interrupted, boolean nonBlocking)
            throws Exception {
        p.reader().setNonBlocking(nonBlocking);
        while (!readerBudget(p).batching()) {
            readerBudget(p).spunIntoLock(true);
        }
        p.writer().write(filled(PAGE, 0));
        dev.sluice.internal.engine.EngineProbe.lock(p);
        try {
            Running<Integer> r = start(ThreadKind.PLATFORM, () -> {
                if (interrupted) {
                    Thread.currentThread().interrupt();
                }
                try {
                    return p.reader().read(new byte[SLOTS * PAGE]);
                } finally {
                    Thread.interrupted();
                }
            });
            ConformanceSupport.awaitBlocked(r.thread(),
                    () -> dev.sluice.internal.engine.EngineProbe.lockHasWaiters(p));
            return r;
        } finally {
            dev.sluice.internal.engine.EngineProbe.unlock(p);
        }
    }

    /**
     * An adaptive pipe whose readers' naps last as long as the test's patience: a nap that the batch does not
     * end outlasts the test's wait for the reader, so the test fails instead of racing the nap's clock.
     */
    private static Pipe longNapPipe() {
        Pipe p = Pipe.open(PipeOptions.builder().spinBeforePark(Duration.ofNanos(20_000))
                .spinPolicy(SpinPolicy.ADAPTIVE).build());
        dev.sluice.internal.engine.EngineProbe.napFor(p, ConformanceSupport.PATIENCE.multipliedBy(2));
        return p;
    }

    /**
     * A batching platform reader whose read finds data but the lock held by a writer and less than a batch
     * naps for the batch before it takes anything, and the write that completes the batch wakes it, though no
     * write found the pipe empty. Before, such reads took each sliver as it came and the two sides traded the
     * lock write by write, without the reader ever waiting, so it never batched.
     */
    @Test
    void aBatchingReaderThatFindsTheLockHeldNapsForTheBatchAndTheBatchWakesIt() throws Exception {
        Pipe p = longNapPipe();
        Running<Integer> r = readerBehindTheLock(p, false);
        ConformanceSupport.awaitBlockedReading(r.thread(), p, 1);
        long wakeups = p.counters().readerWakeups();
        for (int i = 1; i < 8; i++) {
            p.writer().write(filled(PAGE, i));
        }
        assertThat(r.join()).as("the whole batch").isEqualTo(8 * PAGE);
        assertThat(p.counters().readerWakeups() - wakeups).as("woken by the batch, not by the nap's end")
                .isEqualTo(1);
        assertThat(readerBudget(p).batching()).as("a nap the batch ended keeps the reader batching").isTrue();
    }

    /**
     * Such a read with an interrupt pending, or on a nonblocking end, takes what is there at once: it must not
     * throw, or return 0 as if the pipe were empty, with data queued.
     */
    @ParameterizedTest
    @org.junit.jupiter.params.provider.ValueSource(booleans = {true, false})
    void aReadThatWouldNapButIsInterruptedOrNonblockingTakesWhatIsThere(boolean interrupted) throws Exception {
        Pipe p = longNapPipe();
        Running<Integer> r = readerBehindTheLock(p, interrupted, !interrupted);
        assertThat(r.join()).isEqualTo(PAGE);
    }

    @ParameterizedTest
    @EnumSource(ThreadKind.class)
    void aBatchingReaderStillGetsEveryByteOfSmallWrites(ThreadKind kind) throws Exception {
        Pipe p = batchingPipe();
        int n = 20_000;
        Running<Long> r = start(kind, () -> {
            long sum = 0;
            int seen = 0;
            byte[] buf = new byte[65536];
            for (int k; (k = p.reader().read(buf, 0, buf.length)) > 0; ) {
                for (int i = 0; i < k; i++, seen++) {
                    if (buf[i] != (byte) seen) {
                        throw new AssertionError("byte " + seen + " is " + buf[i]);
                    }
                }
                sum += k;
            }
            return sum;
        });
        byte[] chunk = new byte[100];
        for (int w = 0, at = 0; w < n; w++) {
            for (int i = 0; i < chunk.length; i++, at++) {
                chunk[i] = (byte) at;
            }
            p.writer().write(chunk);
        }
        p.writer().close();
        assertThat(r.join()).isEqualTo(100L * n);
    }

    @Test
    void adaptiveSpinningMovesEveryByte() throws Exception {
        Pipe p = Pipe.open(PipeOptions.builder().spinBeforePark(Duration.ofMillis(1))
                .spinPolicy(SpinPolicy.ADAPTIVE).build());
        assertThat(p.options().spinPolicy()).isEqualTo(SpinPolicy.ADAPTIVE);
        Running<byte[]> r = start(ThreadKind.PLATFORM, () -> readFully(p.reader(), 3));
        p.writer().write(new byte[] {1, 2, 3});
        assertThat(r.join()).containsExactly(1, 2, 3);
    }

    @Test
    void spinPolicyIsAnOption() {
        PipeOptions a = PipeOptions.builder().spinPolicy(SpinPolicy.ADAPTIVE).build();
        assertThat(a.spinPolicy()).isEqualTo(SpinPolicy.ADAPTIVE);
        assertThat(a.toBuilder().build()).isEqualTo(a);
        assertThat(a).isNotEqualTo(a.toBuilder().spinPolicy(SpinPolicy.FIXED).build());
        assertThat(a.toString()).contains("spinPolicy=adaptive");
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> PipeOptions.builder().spinPolicy(null))
                .isInstanceOf(NullPointerException.class);
    }

    @Test
    void systemPropertyNamesAreParsed() {
        assertThat(dev.sluice.policy.Aliased.parse(WakePolicy.class, "adaptive", "x")).isEqualTo(WakePolicy.ADAPTIVE);
        assertThat(dev.sluice.policy.Aliased.parse(LockStrategy.class, "SPIN", "x")).isEqualTo(LockStrategy.SPIN);
        assertThat(dev.sluice.policy.Aliased.parse(SpinPolicy.class, "adaptive", "x")).isEqualTo(SpinPolicy.ADAPTIVE);
        assertThat(PipeOptions.SystemDefaults.parseSpin("20us")).isEqualTo(20_000);
        assertThat(PipeOptions.SystemDefaults.parseSpin("1ms")).isEqualTo(1_000_000);
        assertThat(PipeOptions.SystemDefaults.parseSpin("500ns")).isEqualTo(500);
        assertThat(PipeOptions.SystemDefaults.parseSpin("0")).isZero();
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> PipeOptions.SystemDefaults.parseSpin("2ms"))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("sluice.spinBeforePark");
        org.assertj.core.api.Assertions.assertThatThrownBy(
                () -> dev.sluice.policy.Aliased.parse(WakePolicy.class, "never", "sluice.wakePolicy"))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("sluice.wakePolicy=never");
    }
}
