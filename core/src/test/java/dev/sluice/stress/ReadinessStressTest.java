package dev.sluice.stress;

import dev.sluice.testing.PipeContract;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.Pipe;
import dev.sluice.PipeCounters;
import dev.sluice.PipeOptions;
import dev.sluice.ReadEnd;
import dev.sluice.Readiness;
import dev.sluice.WriteEnd;
import dev.sluice.stress.Scenarios.Shape;
import dev.sluice.stress.StressHarness.Kind;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.LongAdder;
import java.util.stream.Stream;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Event-loop style: every handle nonblocking; a writer that gets 0 (EAGAIN) and a reader that gets 0 wait on
 * {@link dev.sluice.PipeEnd#whenReady()} and retry. A readiness notification that is lost leaves a worker
 * waiting on a future forever, which the harness reports as a hang. The records are checked as in the
 * blocking runs: nonblocking writes of at most PIPE_BUF bytes store all or nothing, larger packet writes
 * whole pages.
 */
@Tag("stress")
class ReadinessStressTest extends PipeContract {
    private static final int PIPE_BUF = Pipe.PIPE_BUF;

    static Stream<Arguments> configs() {
        return Stream.of(Kind.values()).flatMap(kind -> Stream.of(
                Arguments.of(kind, 4, 4, 8192),
                Arguments.of(kind, 8, 1, 4096)));
    }

    @ParameterizedTest(name = "{0} threads: {1} writers x {2} readers, capacity {3}")
    @MethodSource("configs")
    @Timeout(value = 60, unit = TimeUnit.SECONDS)
    void nonBlockingEndsDrivenByReadinessFutures(Kind kind, int writers, int readers, int capacity) throws Exception {
        long seed = Scenarios.seed();
        String name = "readiness " + writers + "x" + readers + " cap " + capacity + " " + kind + " seed " + seed;
        Pipe p = pipes.open(options().capacity(capacity).packetMode(true).nonBlocking(true).build());
        Scenarios.Ends ends = Scenarios.Ends.of(p, writers, readers);
        List<WriteEnd> outs = ends.outs();
        List<ReadEnd> ins = ends.ins();
        StressHarness h = new StressHarness(name, kind, p);
        h.onFailure(ends::closeAll);
        Ledger ledger = new Ledger(writers);
        long share = (pipes.stressBytes() / 2 + writers - 1) / writers;
        LongAdder writerWaits = new LongAdder();
        LongAdder readerWaits = new LongAdder();
        long start = System.nanoTime();

        List<Thread> writerThreads = new ArrayList<>();
        for (int i = 0; i < writers; i++) {
            int id = i;
            WriteEnd out = outs.get(i);
            writerThreads.add(h.start("writer-" + i, () -> {
                SplittableRandom rnd = new SplittableRandom(seed * 31 + id);
                byte[] buf = new byte[Scenarios.bufferFor(Shape.PACKET_BATCHES)];
                int[] seq = {0};
                long bytes = 0;
                while (bytes < share && !h.failed()) {
                    int len = Scenarios.nextWrite(Shape.PACKET_BATCHES, buf, id, seq, rnd);
                    int done = 0;
                    while (done < len) {
                        int call = len - done;
                        int n = out.write(buf, done, call);
                        if (n == 0) {
                            Readiness r = out.whenReady().join();
                            assertThat(r.writable() || r.error() || r.invalid()).as("writer %d woken by %s", id, r)
                                    .isTrue();
                            writerWaits.increment();
                            continue;
                        }
                        if (call <= PIPE_BUF && n != call) {
                            throw new AssertionError("nonblocking atomic write of " + call + " bytes stored " + n);
                        }
                        if (n != call && n % PIPE_BUF != 0) {
                            throw new AssertionError("nonblocking packet write stored " + n
                                    + " bytes, not whole pages");
                        }
                        done += n;
                    }
                    bytes += len;
                }
                ledger.stored[id] = seq[0];
                ledger.bytesStored[id] = bytes;
                out.close();
            }));
        }
        List<Thread> readerThreads = new ArrayList<>();
        for (int j = 0; j < readers; j++) {
            ReadEnd in = ins.get(j);
            Ledger.ReaderLog log = ledger.newReader("reader-" + j, readers == 1);
            readerThreads.add(h.start("reader-" + j, () -> {
                byte[] buf = new byte[2 * PIPE_BUF];
                for (;;) {
                    int n = in.read(buf);
                    if (n == -1) {
                        break;
                    }
                    if (n == 0) {
                        Readiness r = in.whenReady().join();
                        assertThat(r.readable() || r.hungUp() || r.invalid()).as("%s woken by %s", log.name, r)
                                .isTrue();
                        readerWaits.increment();
                        continue;
                    }
                    Records.Header r = Records.check(buf, 0, writers, PIPE_BUF, log.name);
                    assertThat(n).as("%s: bytes of one packet read", log.name).isEqualTo(r.length());
                    log.add(r);
                }
                in.close();
            }));
        }
        h.join(writerThreads, StressHarness.HANG_DEFAULT, "writers");
        h.join(readerThreads, StressHarness.HANG_DEFAULT, "readers");
        h.check();

        ledger.verify(true);
        PipeCounters c = p.counters();
        assertThat(ledger.bytesReceived()).isEqualTo(ledger.bytesStored());
        assertThat(c.bytesWritten()).isEqualTo(ledger.bytesStored());
        assertThat(c.readerWaits()).as("no call blocked").isZero();
        assertThat(c.writerWaits()).as("no call blocked").isZero();
        assertThat(writerWaits.sum()).as("writers that waited on a readiness future").isPositive();
        assertThat(readerWaits.sum()).as("readers that waited on a readiness future").isPositive();
        Scenarios.report(name, seed, ledger.bytesStored(), start, p, String.format(
                "; readiness waits: writers %,d, readers %,d", writerWaits.sum(), readerWaits.sum()));
    }
}
