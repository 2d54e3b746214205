package dev.sluice;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.ConformanceSupport.Running;
import dev.sluice.ConformanceSupport.ThreadKind;
import dev.sluice.policy.SpinPolicy;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A splice, tee, gift or transfer that waits shows in the counters exactly as a read or write that waits:
 * every call waits through the one blocking protocol, which counts a wait that ended spinning
 * ({@code spunWaits}) and feeds the spin budget, for every kind of call alike.
 *
 * <p>Each test is a ping-pong of {@value #ROUNDS} rounds between the call, on a platform thread whose pipe
 * spins up to a millisecond before it parks, and the main thread, which gives it the data or room it waits
 * for a moment later; on an idle machine nearly every wait ends in the spin. The first round waits until the
 * call has parked ({@link #parked}), so at least one wait is certain whatever the scheduler does. The main thread takes
 * what the call produced with nonblocking reads ({@link #takeOne}), so that its own waits never count on the
 * pipe whose counters the test reads.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class WaitCountingTest {
    private static final int ROUNDS = 200;

    private static Pipe spinning(int capacity) {
        return Pipe.open(PipeOptions.builder().capacity(capacity).spinBeforePark(Duration.ofMillis(1))
                .spinPolicy(SpinPolicy.FIXED).build());
    }

    /**
     * Waits, without touching the pipe, until the call has parked: with nobody taking or giving, its first wait
     * outlasts the spin. This makes one counted wait certain; the rounds after it are a race the call may lose
     * every time (a main thread that is always quicker leaves it nothing to wait for, as CI saw once).
     */
    private static void parked(Running<Long> call) {
        FeatureSupport.awaitBlocked(call.thread(), call::isDone);
    }

    /** Reads one byte without ever waiting in the pipe: nonblocking attempts until it is there. */
    private static byte takeOne(Pipe p) throws Exception {
        p.reader().setNonBlocking(true);
        byte[] one = new byte[1];
        while (p.reader().read(one) == 0) {
            Thread.onSpinWait();
        }
        return one[0];
    }

    /**
     * The call's waits are counted as a read's or write's are: a wait that parked on the side's wait queue, or
     * one that ended spinning ({@code spunWaits}). Which of the two depends on the scheduler (on a loaded
     * machine the main thread may take longer than the spin), so the test demands their sum, which the engine
     * before the one blocking protocol left at 0.
     */
    private static void assertCounted(Pipe p, boolean readers, String what) {
        PipeCounters c = p.counters();
        long parked = readers ? c.readerWaits() : c.writerWaits();
        assertThat(parked + c.spunWaits()).as(what).isPositive();
    }

    @Test
    void aSpliceWaitingForDataIsCounted() throws Exception {
        Pipe a = spinning(65536);
        Pipe b = spinning(65536);
        Running<Long> s = ConformanceSupport.start(ThreadKind.PLATFORM, () -> {
            long n = 0;
            for (int i = 0; i < ROUNDS; i++) {
                n += Splice.splice(a.reader(), b.writer(), 1);
            }
            return n;
        });
        parked(s);
        for (int i = 0; i < ROUNDS; i++) {
            a.writer().write(new byte[] {(byte) i});
            assertThat(takeOne(b)).isEqualTo((byte) i);
        }
        assertThat(s.join()).isEqualTo(ROUNDS);
        assertCounted(a, true, "splice waits on the source's readers' queue");
    }

    @Test
    void aTeeWaitingForRoomIsCounted() throws Exception {
        Pipe a = spinning(65536);
        Pipe b = spinning(4096);
        a.writer().write(new byte[] {42});
        Running<Long> t = ConformanceSupport.start(ThreadKind.PLATFORM, () -> {
            long n = 0;
            for (int i = 0; i < ROUNDS; i++) {
                n += Splice.tee(a.reader(), b.writer(), 1);
            }
            return n;
        });
        parked(t);
        for (int i = 0; i < ROUNDS; i++) {
            assertThat(takeOne(b)).isEqualTo((byte) 42);
        }
        assertThat(t.join()).isEqualTo(ROUNDS);
        assertCounted(b, false, "tee waits on the target's writers' queue");
    }

    @Test
    void aGiftWaitingForRoomIsCounted() throws Exception {
        Pipe b = spinning(4096);
        Running<Long> g = ConformanceSupport.start(ThreadKind.PLATFORM, () -> {
            long n = 0;
            for (int i = 0; i < ROUNDS; i++) {
                n += Splice.gift(b.writer(), ByteBuffer.wrap(new byte[] {(byte) i}));
            }
            return n;
        });
        parked(g);
        for (int i = 0; i < ROUNDS; i++) {
            assertThat(takeOne(b)).isEqualTo((byte) i);
        }
        assertThat(g.join()).isEqualTo(ROUNDS);
        assertCounted(b, false, "a gift waits on the target's writers' queue");
    }

    @Test
    void aTransferToWaitingForDataIsCounted() throws Exception {
        Pipe a = spinning(65536);
        Pipe c = spinning(65536);
        Running<Long> t = ConformanceSupport.start(ThreadKind.PLATFORM, () -> {
            long n = 0;
            for (int i = 0; i < ROUNDS; i++) {
                n += Splice.transferTo(a.reader(), c.writer(), 1);
            }
            return n;
        });
        parked(t);
        for (int i = 0; i < ROUNDS; i++) {
            a.writer().write(new byte[] {(byte) i});
            assertThat(takeOne(c)).isEqualTo((byte) i);
        }
        assertThat(t.join()).isEqualTo(ROUNDS);
        assertCounted(a, true, "transferTo waits on the source's readers' queue");
    }

    @Test
    void aTransferFromWaitingForRoomIsCounted() throws Exception {
        Pipe b = spinning(4096);
        Pipe c = spinning(65536);
        byte[] data = ConformanceSupport.pattern(ROUNDS);
        c.writer().write(data);
        Running<Long> t = ConformanceSupport.start(ThreadKind.PLATFORM, () -> {
            long n = 0;
            for (int i = 0; i < ROUNDS; i++) {
                n += Splice.transferFrom(c.reader(), b.writer(), 1);
            }
            return n;
        });
        parked(t);
        for (int i = 0; i < ROUNDS; i++) {
            assertThat(takeOne(b)).isEqualTo(data[i]);
        }
        assertThat(t.join()).isEqualTo(ROUNDS);
        assertCounted(b, false, "transferFrom waits on the target's writers' queue");
    }
}
