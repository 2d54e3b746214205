package dev.sluice.stress;

import dev.sluice.testing.Capability;
import dev.sluice.testing.PipeContract;
import dev.sluice.testing.Requires;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.Pipe;
import dev.sluice.PipeOptions;
import dev.sluice.ReadEnd;
import dev.sluice.Splice;
import dev.sluice.WriteEnd;
import dev.sluice.stress.StressHarness.Kind;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Several pipes chained by splice and tee, under concurrent writers, splicers and readers:
 *
 * <pre>
 *   writers ──write/gift──▶ P1 ──splice (2 threads)──▶ P2 ──tee──▶ P3 ──▶ reader 3
 *                                                       └──splice──▶ P4 ──▶ reader 4
 * </pre>
 *
 * Writers write CRC-checked records of at most PIPE_BUF bytes, some by gift. Two splicers race to move
 * P1's slots into P2: each call moves whole slots in order under both locks, so P2 holds P1's stream in
 * P1's order. One thread tees what P2 holds into P3 and then splices exactly those bytes into P4, so P3
 * and P4 must each carry the whole stream, every record contiguous (PIPE_BUF atomicity survives) and each
 * writer's records consecutive. Small capacities keep every thread blocking on full and empty pipes. The
 * run ends with end-of-stream travelling down the chain as each stage's source ends.
 */
@Tag("stress")
@Requires({Capability.SPLICE, Capability.BYTE_STREAM}) // the readers parse records across reads
class SpliceChainStressTest extends PipeContract {
    private static final int WRITERS = 4;

    @ParameterizedTest(name = "{0} threads")
    @EnumSource(Kind.class)
    @Timeout(value = 90, unit = TimeUnit.SECONDS)
    void recordsSurviveAChainOfSplicesAndTees(Kind kind) throws Exception {
        long seed = Scenarios.seed();
        String name = "splice chain " + kind + " seed " + seed;
        Pipe p1 = pipes.open(options().capacity(16 * 1024).build());
        Pipe p2 = pipes.open(options().capacity(8 * 1024).build());
        Pipe p3 = pipes.open(options().capacity(16 * 1024).build());
        Pipe p4 = pipes.open(options().capacity(4 * 1024).build());
        List<WriteEnd> p1Writers = new ArrayList<>();
        p1Writers.add(p1.writer());
        for (int i = 1; i < WRITERS; i++) {
            p1Writers.add(p1.writer().dup());
        }
        WriteEnd p2WriterB = p2.writer().dup();
        ReadEnd p1ReaderB = p1.reader().dup();
        List<AutoCloseable> all = new ArrayList<>(p1Writers);
        all.addAll(List.of(p1.reader(), p1ReaderB, p2.writer(), p2WriterB, p2.reader(), p3.writer(), p3.reader(),
                p4.writer(),
                p4.reader()));
        StressHarness h = new StressHarness(name, kind, p2);
        h.onFailure(() -> {
            for (AutoCloseable c : all) {
                try {
                    c.close();
                } catch (Exception ignored) {
                    // aborting: the first failure is what counts
                }
            }
        });
        Ledger ledger3 = new Ledger(WRITERS);
        Ledger ledger4 = new Ledger(WRITERS);
        long share = Math.max(1 << 20, pipes.stressBytes()) / WRITERS; // cheap: no byte is copied between pipes
        long start = System.nanoTime();

        List<Thread> threads = new ArrayList<>();
        for (int i = 0; i < WRITERS; i++) {
            int id = i;
            WriteEnd out = p1Writers.get(i);
            threads.add(h.start("writer-" + i, () -> {
                SplittableRandom rnd = new SplittableRandom(seed * 31 + id);
                byte[] buf = new byte[Records.PIPE_BUF];
                int seq = 0;
                long bytes = 0;
                while (bytes < share && !h.failed()) {
                    int len = Records.smallLength(rnd, Records.PIPE_BUF);
                    Records.encode(buf, 0, id, seq, len, rnd);
                    if (rnd.nextInt(8) == 0) {
                        // A gift takes a fresh buffer each time: it belongs to the pipe until read.
                        ByteBuffer gift = rnd.nextBoolean() ? ByteBuffer.allocate(len) : ByteBuffer.allocateDirect(len);
                        gift.put(buf, 0, len).flip();
                        assertThat(Splice.gift(out, gift)).isEqualTo(len);
                    } else {
                        out.write(buf, 0, len);
                    }
                    seq++;
                    bytes += len;
                }
                ledger3.stored[id] = ledger4.stored[id] = seq;
                ledger3.bytesStored[id] = ledger4.bytesStored[id] = bytes;
                out.close();
            }));
        }
        WriteEnd[] p2Writers = {p2.writer(), p2WriterB};
        ReadEnd[] p1Readers = {p1.reader(), p1ReaderB};
        for (int s = 0; s < 2; s++) {
            int sid = s;
            threads.add(h.start("splicer-" + s,
                    () -> spliceAll(p1Readers[sid], p2Writers[sid], seed ^ (0x5B11CE + sid))));
        }
        threads.add(h.start("teer", () -> teeAndSpliceAll(p2, p3, p4, seed ^ 0x7EE)));
        Ledger.ReaderLog log3 = ledger3.newReader("reader-3", true);
        Ledger.ReaderLog log4 = ledger4.newReader("reader-4", true);
        threads.add(h.start("reader-3", () -> readAll(p3.reader(), log3, seed ^ 3)));
        threads.add(h.start("reader-4", () -> readAll(p4.reader(), log4, seed ^ 4)));

        h.join(threads, Scenarios.HANG, "chain");
        h.check();
        ledger3.verify(true);
        ledger4.verify(true);
        long stored = ledger3.bytesStored();
        assertThat(ledger3.bytesReceived()).as("bytes through the tee").isEqualTo(stored);
        assertThat(ledger4.bytesReceived()).as("bytes through the splices").isEqualTo(stored);
        assertThat(p1.counters().bytesRead()).as("P1 counted what the splicers took").isEqualTo(stored);
        assertThat(p2.counters().bytesWritten()).isEqualTo(stored);
        assertThat(p4.counters().bytesRead()).isEqualTo(stored);
        Scenarios.report(name, seed, stored, start, p2, "");
    }

    /** A splicer: moves P1's slots from {@code in} to {@code out} until P1 ends, then closes both handles. */
    private static void spliceAll(ReadEnd in, WriteEnd out, long seed) throws Exception {
        SplittableRandom rnd = new SplittableRandom(seed);
        while (Splice.splice(in, out, rnd.nextInt(Records.PIPE_BUF, 64 * 1024 + 1)) != -1) {
            // each call moves at least one slot; -1 once every writer of P1 is closed and P1 is empty
        }
        in.close();
        out.close();
    }

    /** The teer: tees what P2 holds into P3, splices those same bytes into P4, and closes both at the end. */
    private static void teeAndSpliceAll(Pipe p2, Pipe p3, Pipe p4, long seed) throws Exception {
        SplittableRandom rnd = new SplittableRandom(seed);
        for (long n; (n = Splice.tee(p2.reader(), p3.writer(), rnd.nextInt(Records.PIPE_BUF, 32 * 1024
                + 1))) != -1; ) {
            // Only this thread consumes P2, so the slots just teed are still at its tail: move exactly them.
            for (long moved = 0; moved < n; ) {
                long m = Splice.splice(p2.reader(), p4.writer(), n - moved);
                assertThat(m).as("splice after tee").isPositive();
                moved += m;
            }
        }
        p3.writer().close();
        p4.writer().close();
    }

    private static void readAll(ReadEnd in, Ledger.ReaderLog log, long seed) throws Exception {
        Scenarios.StreamParser parser = new Scenarios.StreamParser(WRITERS, Records.PIPE_BUF, log);
        SplittableRandom rnd = new SplittableRandom(seed);
        for (;;) {
            int want = rnd.nextInt(4) == 0 ? rnd.nextInt(1, 100) : rnd.nextInt(1, 64 * 1024 + 1);
            int n = in.read(parser.room(want), parser.end(), want);
            if (n == -1) {
                break;
            }
            parser.filled(n);
        }
        parser.atEof();
        in.close();
    }
}
