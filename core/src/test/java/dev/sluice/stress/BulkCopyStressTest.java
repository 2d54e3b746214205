package dev.sluice.stress;

import dev.sluice.testing.PipeContract;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.Pipe;
import dev.sluice.PipeOptions;
import dev.sluice.ReadEnd;
import dev.sluice.WriteEnd;
import dev.sluice.stress.StressHarness.Kind;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicIntegerArray;
import java.util.stream.Stream;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Bulk writes and reads, the calls that copy without the pipe's lock (writes and reads of 16 KiB and more
 * on platform threads): several writers write runs of whole pages, several readers read into buffers of
 * whole pages, so every read must return whole pages. Each page says which writer wrote it and its number,
 * and carries bytes derived from both, so a page that was torn, mixed with another, lost, duplicated or
 * reordered within its writer is caught: every page arrives intact exactly once, and each reader sees each
 * writer's pages in increasing order.
 */
@Tag("stress")
class BulkCopyStressTest extends PipeContract {
    private static final int PAGE = 4096;

    static Stream<Arguments> configs() {
        return Stream.of(Kind.values()).flatMap(kind -> Stream.of(
                Arguments.of(kind, 1, 1, 65536),
                Arguments.of(kind, 4, 1, 65536),
                Arguments.of(kind, 4, 4, 1 << 20),
                Arguments.of(kind, 3, 3, 16384)));
    }

    @ParameterizedTest(name = "{0} threads: {1} writers x {2} readers, capacity {3}")
    @MethodSource("configs")
    @Timeout(value = 60, unit = TimeUnit.SECONDS)
    void wholePagesArriveOnceIntactAndInOrder(Kind kind, int writers, int readers, int capacity) throws Exception {
        long seed = Scenarios.seed();
        String name = "bulk " + writers + "x" + readers + " cap " + capacity + " " + kind + " seed " + seed;
        Pipe p = pipes.open(options().capacity(capacity).build());
        Scenarios.Ends ends = Scenarios.Ends.of(p, writers, readers);
        StressHarness h = new StressHarness(name, kind, p);
        h.onFailure(ends::closeAll);
        int pagesPerWriter = (int) Math.max(64, pipes.stressBytes() / writers / PAGE);
        AtomicIntegerArray seen = new AtomicIntegerArray(writers * pagesPerWriter);
        Io.Interrupts none = new Io.Interrupts();
        long start = System.nanoTime();

        List<Thread> writerThreads = new ArrayList<>();
        for (int w = 0; w < writers; w++) {
            int id = w;
            WriteEnd out = ends.outs().get(w);
            writerThreads.add(h.start("writer-" + w, () -> {
                SplittableRandom rnd = new SplittableRandom(seed * 31 + id);
                Io.Api api = new Io.Api(seed * 37 + id);
                byte[] buf = new byte[24 * PAGE];
                for (int seq = 0; seq < pagesPerWriter && !h.failed(); ) {
                    int run = Math.min(rnd.nextInt(1, 25), pagesPerWriter - seq);
                    for (int i = 0; i < run; i++) {
                        stamp(buf, i * PAGE, id, seq + i);
                    }
                    Io.WriteOutcome o = Io.writeAll(out, buf, run * PAGE, false, none, api);
                    assertThat(o.end()).as("writer %d: write outcome", id).isEqualTo(Io.End.COMPLETE);
                    seq += run;
                }
                out.close();
            }));
        }
        List<Thread> readerThreads = new ArrayList<>();
        for (int r = 0; r < readers; r++) {
            int id = r;
            ReadEnd in = ends.ins().get(r);
            readerThreads.add(h.start("reader-" + r, () -> {
                SplittableRandom rnd = new SplittableRandom(seed * 41 + id);
                Io.Api api = new Io.Api(seed * 43 + id);
                byte[] buf = new byte[32 * PAGE];
                int[] last = new int[writers];
                java.util.Arrays.fill(last, -1);
                for (int n; (n = Io.read(in, buf, 0, rnd.nextInt(1, 33) * PAGE, none, api)) != -1; ) {
                    if (n % PAGE != 0) {
                        throw new AssertionError("reader " + id + ": a read returned " + n
                                + " bytes from a stream of whole pages read in whole pages");
                    }
                    for (int off = 0; off < n; off += PAGE) {
                        int[] ws = check(buf, off, writers, pagesPerWriter);
                        int w = ws[0];
                        int seq = ws[1];
                        if (seq <= last[w]) {
                            throw new AssertionError("reader " + id + ": page " + seq + " of writer " + w
                                    + " after its page " + last[w]);
                        }
                        last[w] = seq;
                        if (seen.getAndIncrement(w * pagesPerWriter + seq) != 0) {
                            throw new AssertionError("page " + seq + " of writer " + w + " arrived twice");
                        }
                    }
                }
                in.close();
            }));
        }
        h.join(writerThreads, Scenarios.HANG, "writers");
        h.join(readerThreads, Scenarios.HANG, "readers");
        h.check();
        for (int i = 0; i < seen.length(); i++) {
            assertThat(seen.get(i)).as("%s: page %d of writer %d arrived", name, i % pagesPerWriter,
                    i / pagesPerWriter).isEqualTo(1);
        }
        assertThat(p.counters().bytesRead()).isEqualTo((long) writers * pagesPerWriter * PAGE);
        Scenarios.report(name, seed, (long) writers * pagesPerWriter * PAGE, start, p, "");
    }

    /** Fills one page: writer id and number first, then bytes that depend on both and on the position. */
    private static void stamp(byte[] b, int off, int writer, int seq) {
        ByteBuffer.wrap(b, off, 8).putInt(writer).putInt(seq);
        int x = writer * 0x9E3779B1 + seq * 0x85EBCA6B;
        for (int i = 8; i < PAGE; i++) {
            b[off + i] = (byte) (x + i * 31);
        }
    }

    /** @return {writer, seq} of the page at {@code off}, after checking every byte of it */
    private static int[] check(byte[] b, int off, int writers, int pagesPerWriter) {
        ByteBuffer head = ByteBuffer.wrap(b, off, 8);
        int writer = head.getInt();
        int seq = head.getInt();
        if (writer < 0 || writer >= writers || seq < 0 || seq >= pagesPerWriter) {
            throw new AssertionError("a page starts with writer " + writer + ", page " + seq + ": not a page start");
        }
        int x = writer * 0x9E3779B1 + seq * 0x85EBCA6B;
        for (int i = 8; i < PAGE; i++) {
            if (b[off + i] != (byte) (x + i * 31)) {
                throw new AssertionError("page " + seq + " of writer " + writer + " is damaged at byte " + i);
            }
        }
        return new int[] {writer, seq};
    }
}
