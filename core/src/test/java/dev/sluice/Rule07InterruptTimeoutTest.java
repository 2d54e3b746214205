package dev.sluice;

import static dev.sluice.ConformanceSupport.as;
import static dev.sluice.ConformanceSupport.awaitBlockedReading;
import static dev.sluice.ConformanceSupport.awaitBlockedWriting;
import static dev.sluice.ConformanceSupport.filled;
import static dev.sluice.ConformanceSupport.pattern;
import static dev.sluice.ConformanceSupport.readFully;
import static dev.sluice.ConformanceSupport.readToEnd;
import static dev.sluice.ConformanceSupport.start;
import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.ConformanceSupport.Running;
import dev.sluice.ConformanceSupport.ThreadKind;
import java.io.InterruptedIOException;
import java.time.Duration;
import java.util.Arrays;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Rule 7, signals and timeouts (fs/pipe.c; linux-pipe.md §4 "signals", "partial writes"). A thread
 * interrupted while blocked in a read or write returns at once, as a signal makes Linux return
 * {@code -EINTR} or the partial count: here with {@link InterruptedIOException}, whose
 * {@code bytesTransferred} is exactly what the call stored (a read only waits while it has read nothing),
 * and with the interrupt status still set. No byte is lost or duplicated, and the pipe stays usable. An
 * interrupt only matters when the call would wait, as a signal only matters to a sleeping pipe call. A
 * per-end timeout ({@code setTimeout}, like {@code SO_RCVTIMEO}/{@code SO_SNDTIMEO}) ends a wait with
 * {@link PipeTimeoutException}, leaving the pipe as it was and usable.
 */
@Timeout(value = 20, unit = TimeUnit.SECONDS)
class Rule07InterruptTimeoutTest extends ConformanceTest {

    private static final Duration SHORT = Duration.ofMillis(50);

    // ---- interrupts ---------------------------------------------------------------------------------

    @ParameterizedTest
    @EnumSource(ThreadKind.class)
    void interruptedReaderReturnsPromptlyWithStatusSetAndThePipeStaysUsable(ThreadKind kind) throws Exception {
        Pipe p = open();
        Running<Integer> reader = start(kind, () -> p.reader().read(new byte[10]));
        awaitBlockedReading(reader.thread(), p, 1);

        reader.thread().interrupt();

        InterruptedIOException e = as(InterruptedIOException.class, reader.failure());
        assertThat(e).isNotInstanceOf(PipeTimeoutException.class);
        assertThat(e.bytesTransferred).isZero();
        assertThat(reader.interruptedAtEnd()).as("interrupt status still set").isTrue();
        assertThat(p.reader().isOpen()).as("unlike InterruptibleChannel, the end stays open").isTrue();

        p.writer().write(pattern(5));
        byte[] buf = new byte[10];
        assertThat(p.reader().read(buf)).as("no byte consumed by the interrupted read").isEqualTo(5);
        assertThat(Arrays.copyOf(buf, 5)).isEqualTo(pattern(5));
    }

    @ParameterizedTest
    @EnumSource(ThreadKind.class)
    void interruptedWriterReportsExactlyWhatItStoredAndNothingIsLostOrDuplicated(ThreadKind kind)
            throws Exception {
        Pipe p = open();
        byte[] data = pattern(100 * 1024);
        Running<Integer> writer = start(kind, () -> p.writer().write(data));
        awaitBlockedWriting(writer.thread(), p, 1);

        writer.thread().interrupt();

        InterruptedIOException e = as(InterruptedIOException.class, writer.failure());
        assertThat(e).isNotInstanceOf(PipeTimeoutException.class);
        assertThat(writer.interruptedAtEnd()).isTrue();
        assertThat(e.bytesTransferred).as("the 64 KiB that fit before it blocked").isEqualTo(65536);
        assertThat(p.stat().bytesQueued()).isEqualTo(e.bytesTransferred);

        // Restart the write from where it stopped (what SA_RESTART callers do by hand): the reader gets
        // every byte once, in order.
        int stored = e.bytesTransferred;
        Running<Integer> rest = start(kind, () -> {
            try (WriteEnd out = p.writer()) {
                return out.write(data, stored, data.length - stored);
            }
        });
        assertThat(readToEnd(p.reader())).isEqualTo(data);
        assertThat(rest.join()).isEqualTo(data.length - stored);
    }

    @ParameterizedTest
    @EnumSource(ThreadKind.class)
    void interruptedPipeBufWriterStoresNothing(ThreadKind kind) throws Exception {
        Pipe p = open();
        p.writer().write(pattern(65536));
        Running<Integer> writer = start(kind, () -> p.writer().write(filled(Pipe.PIPE_BUF, 1)));
        awaitBlockedWriting(writer.thread(), p, 1);

        writer.thread().interrupt();

        assertThat(as(InterruptedIOException.class, writer.failure()).bytesTransferred).isZero();
        assertThat(writer.interruptedAtEnd()).isTrue();
        assertThat(p.stat().bytesQueued()).isEqualTo(65536);
        assertThat(readFully(p.reader(), 65536)).isEqualTo(pattern(65536));
    }

    @ParameterizedTest
    @EnumSource(ThreadKind.class)
    void alreadyInterruptedThreadFailsOnlyWhenItWouldHaveToWait(ThreadKind kind) throws Exception {
        Pipe p = open();
        Running<int[]> r = start(kind, () -> {
            Thread.currentThread().interrupt();
            int wrote = p.writer().write(pattern(10)); // room: an interrupt does not matter
            int read = p.reader().read(new byte[100]); // data: does not matter either
            int failedRead;
            try {
                p.reader().read(new byte[100]); // empty: would wait
                failedRead = -100;
            } catch (InterruptedIOException e) {
                failedRead = e.bytesTransferred;
            }
            p.writer().write(pattern(65536));
            int failedWrite;
            try {
                p.writer().write(pattern(10)); // full: would wait
                failedWrite = -100;
            } catch (InterruptedIOException e) {
                failedWrite = e.bytesTransferred;
            }
            return new int[] {wrote, read, failedRead, failedWrite};
        });
        assertThat(r.join()).containsExactly(10, 10, 0, 0);
        assertThat(r.interruptedAtEnd()).isTrue();
        assertThat(p.stat().bytesQueued()).isEqualTo(65536);
    }

    // ---- timeouts -----------------------------------------------------------------------------------

    @ParameterizedTest
    @EnumSource(ThreadKind.class)
    void readTimeoutLeavesThePipeUnchangedAndUsable(ThreadKind kind) throws Exception {
        Pipe p = open();
        p.reader().setTimeout(SHORT);
        assertThat(p.reader().timeout()).isEqualTo(SHORT);
        Running<Long> reader = start(kind, () -> {
            long t0 = System.nanoTime();
            try {
                p.reader().read(new byte[10]);
                return -1L;
            } catch (PipeTimeoutException e) {
                assertThat(e.bytesTransferred).isZero();
                return System.nanoTime() - t0;
            }
        });
        assertThat(reader.join()).as("waited at least the timeout").isGreaterThanOrEqualTo(SHORT.toNanos());
        assertThat(reader.interruptedAtEnd()).as("a timeout is not an interrupt").isFalse();
        assertThat(p.reader().isOpen()).isTrue();
        assertThat(p.stat().bytesQueued()).isZero();

        p.writer().write(pattern(3));
        assertThat(p.reader().read(new byte[10])).as("the timed-out end still reads").isEqualTo(3);
    }

    @ParameterizedTest
    @EnumSource(ThreadKind.class)
    void writeTimeoutStoresNothingOfAPipeBufWriteAndThePipeStaysUsable(ThreadKind kind) throws Exception {
        Pipe p = open();
        p.writer().write(pattern(65536));
        p.writer().setTimeout(SHORT);
        PipeStat before = p.stat();
        Running<Integer> writer = start(kind, () -> p.writer().write(filled(100, 9)));

        PipeTimeoutException e = as(PipeTimeoutException.class, writer.failure());
        assertThat(e.bytesTransferred).isZero();
        assertThat(writer.interruptedAtEnd()).isFalse();
        assertThat(p.stat().bytesQueued()).isEqualTo(before.bytesQueued());
        assertThat(p.stat().slotsUsed()).isEqualTo(before.slotsUsed());

        assertThat(readFully(p.reader(), 65536)).isEqualTo(pattern(65536));
        assertThat(p.writer().write(filled(100, 9))).as("the timed-out end still writes").isEqualTo(100);
        assertThat(readFully(p.reader(), 100)).isEqualTo(filled(100, 9));
    }

    @ParameterizedTest
    @EnumSource(ThreadKind.class)
    void writeTimeoutReportsThePartOfALargeWriteThatWasStored(ThreadKind kind) throws Exception {
        Pipe p = open();
        p.writer().setTimeout(SHORT);
        byte[] data = pattern(100 * 1024);
        Running<Integer> writer = start(kind, () -> p.writer().write(data));

        PipeTimeoutException e = as(PipeTimeoutException.class, writer.failure());
        assertThat(e.bytesTransferred).isEqualTo(65536);
        assertThat(p.stat().bytesQueued()).isEqualTo(65536);
        assertThat(readFully(p.reader(), 65536)).isEqualTo(Arrays.copyOf(data, 65536));
    }

    @ParameterizedTest
    @EnumSource(ThreadKind.class)
    void dataArrivingBeforeTheTimeoutIsReturned(ThreadKind kind) throws Exception {
        Pipe p = open();
        p.reader().setTimeout(Duration.ofSeconds(30)); // far longer than the test's own @Timeout
        Running<Integer> reader = start(kind, () -> p.reader().read(new byte[10]));
        awaitBlockedReading(reader.thread(), p, 1);

        p.writer().write(pattern(4));

        assertThat(reader.join()).isEqualTo(4);
    }

    @Test
    void timeoutMustNotBeNegativeAndZeroMeansNone() {
        Pipe p = open();
        ConformanceSupport.thrownBy(IllegalArgumentException.class, () -> p.reader().setTimeout(Duration.ofMillis(-1)));
        assertThat(p.reader().timeout()).isEqualTo(Duration.ZERO);
        p.writer().setTimeout(SHORT);
        p.writer().setTimeout(Duration.ZERO);
        assertThat(p.writer().timeout()).isEqualTo(Duration.ZERO);
    }

    /**
     * Writers send numbered records of at most PIPE_BUF bytes and one reader collects them, while another
     * thread keeps interrupting all of them. An interrupted PIPE_BUF write must have stored nothing (it is
     * then retried), an interrupted read must have consumed nothing; so every record arrives exactly once,
     * whole and in order. The reader starts only once a writer blocked on the full pipe has been interrupted,
     * so the storm certainly reaches a waiting call, whatever the scheduling and the spin policy.
     */
    @ParameterizedTest
    @EnumSource(ThreadKind.class)
    void interruptStormNeverLosesOrDuplicatesARecord(ThreadKind kind) throws Exception {
        final int writers = 3;
        final int records = 1500;
        Pipe p = open(options().capacity(8192).build());
        WriteEnd[] ends = {p.writer(), p.writer().dup(), p.writer().dup()};
        java.util.concurrent.atomic.AtomicLong writerInterrupts = new java.util.concurrent.atomic.AtomicLong();
        java.util.List<Running<Void>> ws = new java.util.ArrayList<>();
        for (int w = 0; w < writers; w++) {
            final int id = w;
            ws.add(start(kind, () -> {
                try (WriteEnd out = ends[id]) {
                    for (int seq = 0; seq < records; seq++) {
                        int size = 8 + (seq * 997 + id * 131) % (Pipe.PIPE_BUF - 7);
                        byte[] rec = filled(size, 'a' + id);
                        rec[0] = (byte) (size >>> 8);
                        rec[1] = (byte) size;
                        rec[2] = (byte) id;
                        rec[3] = (byte) (seq >>> 8);
                        rec[4] = (byte) seq;
                        for (;;) {
                            try {
                                assertThat(out.write(rec)).isEqualTo(size);
                                break;
                            } catch (InterruptedIOException e) {
                                assertThat(e.bytesTransferred).as("a PIPE_BUF write is all or nothing").isZero();
                                assertThat(Thread.interrupted()).as("status was still set").isTrue();
                                writerInterrupts.incrementAndGet();
                            }
                        }
                    }
                }
                Thread.interrupted(); // an interrupt after the last write is of no interest
                return null;
            }));
        }
        Running<int[]> reader = start(kind, () -> {
            long gate = System.nanoTime() + ConformanceSupport.PATIENCE.toNanos() / 2;
            while (writerInterrupts.get() == 0 && System.nanoTime() - gate < 0) {
                Thread.interrupted(); // the storm reaches this thread too; the gate is not a pipe call
                java.util.concurrent.locks.LockSupport.parkNanos(50_000);
            }
            java.io.ByteArrayOutputStream all = new java.io.ByteArrayOutputStream();
            byte[] buf = new byte[5000];
            for (;;) {
                int n;
                try {
                    n = p.reader().read(buf);
                } catch (InterruptedIOException e) {
                    assertThat(e.bytesTransferred).isZero();
                    assertThat(Thread.interrupted()).isTrue();
                    continue;
                }
                if (n < 0) {
                    break;
                }
                all.write(buf, 0, n);
            }
            Thread.interrupted();
            byte[] b = all.toByteArray();
            int[] next = new int[writers];
            for (int pos = 0; pos < b.length; ) {
                int size = ((b[pos] & 0xFF) << 8) | (b[pos + 1] & 0xFF);
                int id = b[pos + 2];
                int seq = ((b[pos + 3] & 0xFF) << 8) | (b[pos + 4] & 0xFF);
                assertThat(id).as("writer id at %d", pos).isBetween(0, writers - 1);
                assertThat(seq).as("sequence of writer %d at %d", id, pos).isEqualTo(next[id]);
                for (int i = pos + 5; i < pos + size; i++) {
                    if (b[i] != (byte) ('a' + id)) {
                        throw new AssertionError("record " + id + "/" + seq + " at " + pos + " is not contiguous");
                    }
                }
                next[id]++;
                pos += size;
            }
            return next;
        });
        java.util.List<Thread> targets = new java.util.ArrayList<>();
        ws.forEach(w -> targets.add(w.thread()));
        targets.add(reader.thread());
        java.util.SplittableRandom rnd = new java.util.SplittableRandom(42);
        long deadline = System.nanoTime() + ConformanceSupport.PATIENCE.toNanos();
        while (!reader.isDone() && System.nanoTime() - deadline < 0) {
            targets.get(rnd.nextInt(targets.size())).interrupt();
            java.util.concurrent.locks.LockSupport.parkNanos(20_000);
        }
        for (Running<Void> w : ws) {
            w.join();
        }
        assertThat(reader.join()).containsOnly(records);
        assertThat(writerInterrupts.get()).as("the storm interrupted a writer blocked on the full pipe").isPositive();
    }
}
