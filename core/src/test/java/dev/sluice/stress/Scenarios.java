package dev.sluice.stress;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.testing.Capability;
import dev.sluice.testing.PipeContract;
import dev.sluice.testing.PipeFactory;
import dev.sluice.Pipe;
import dev.sluice.PipeCounters;
import dev.sluice.PipeEnd;
import dev.sluice.PipeOptions;
import dev.sluice.PipeStat;
import dev.sluice.ReadEnd;
import dev.sluice.WriteEnd;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.LongAdder;
import java.util.concurrent.locks.LockSupport;

/**
 * The stress workloads, shared by the test classes: N writers and M readers moving at least
 * {@link PipeFactory#stressBytes()} of checked records through one pipe, optionally while a chaos thread
 * interrupts them.
 *
 * <p>To replay a failed run, give its seed (each failure message names it) as {@code -Dsluice.stress.seed=N}.
 */
final class Scenarios {
    /**
     * With interrupts, writers go on past their share (up to this many times it) until the interrupts have
     * hit enough blocked calls on both sides, so that the run has really tested them.
     */
    static final int MAX_OVERRUN = 8;
    /** Packet runs write batches, so cut-short writes that stored whole pages must occur. */
    private static final boolean PACKET_PARTIAL = true;
    static final Duration HANG = StressHarness.HANG_DEFAULT;
    static final int PIPE_BUF = Pipe.PIPE_BUF;
    static final int LARGE_MAX = 200 * 1024;

    private Scenarios() {
    }

    static long seed() {
        Long fixed = Long.getLong("sluice.stress.seed");
        return fixed != null ? fixed : System.nanoTime();
    }

    /** What a chaos thread does to the pipe while the workers run. */
    enum Chaos {
        /** Nothing. */
        NONE,
        /** Interrupts random writers and readers. */
        INTERRUPTS,
        /** Changes the capacity at random (1 to 32 pages), also below the occupancy (refused: EBUSY). */
        RESIZES,
        /** Every other handle has a timeout of a few microseconds; its calls time out and resume. */
        TIMEOUTS
    }

    /** What the writers write. */
    enum Shape {
        /** One record of at most PIPE_BUF bytes per write. */
        SMALL,
        /**
         * Mostly single small records; one write in six is a batch of 1..15 records of exactly PIPE_BUF bytes
         * followed by one small record, a write of up to 64 KiB. Packet mode cuts it at page boundaries, so
         * every packet is still exactly one record, and the batch may interleave with other writers there.
         */
        PACKET_BATCHES,
        /** Small records and, two in five, one record of PIPE_BUF+1 .. 200 KiB per write (one writer only). */
        LARGE
    }

    /**
     * Fills {@code buf} with the records of one write.
     *
     * @return the write's length; {@code seqBox[0]} is advanced by the records it holds
     */
    static int nextWrite(Shape shape, byte[] buf, int writerId, int[] seqBox, SplittableRandom rnd) {
        switch (shape) {
            case SMALL -> {
                int n = Records.smallLength(rnd, PIPE_BUF);
                Records.encode(buf, 0, writerId, seqBox[0]++, n, rnd);
                return n;
            }
            case PACKET_BATCHES -> {
                if (rnd.nextInt(6) != 0) {
                    int n = Records.smallLength(rnd, PIPE_BUF);
                    Records.encode(buf, 0, writerId, seqBox[0]++, n, rnd);
                    return n;
                }
                int full = rnd.nextInt(1, 16);
                int off = 0;
                for (int i = 0; i < full; i++) {
                    Records.encode(buf, off, writerId, seqBox[0]++, PIPE_BUF, rnd);
                    off += PIPE_BUF;
                }
                int tail = Records.smallLength(rnd, PIPE_BUF);
                Records.encode(buf, off, writerId, seqBox[0]++, tail, rnd);
                return off + tail;
            }
            case LARGE -> {
                int n = rnd.nextInt(5) < 2 ? rnd.nextInt(PIPE_BUF + 1, LARGE_MAX + 1) : Records.smallLength(rnd,
                        PIPE_BUF);
                Records.encode(buf, 0, writerId, seqBox[0]++, n, rnd);
                return n;
            }
            default -> throw new AssertionError(shape);
        }
    }

    static int bufferFor(Shape shape) {
        return shape == Shape.SMALL ? PIPE_BUF : shape == Shape.PACKET_BATCHES ? 16 * PIPE_BUF : LARGE_MAX;
    }

    /**
     * The chaos of one run: starts the chaos thread (or sets the timeouts), tells writers whether to go on
     * past their share until the chaos has hit enough blocked calls, stops, checks and reports.
     */
    static final class ChaosControl {
        final Chaos chaos;
        final Io.Interrupts seen = new Io.Interrupts();
        private final boolean wantPartial;
        private final boolean wantReads;
        private final AtomicBoolean stop = new AtomicBoolean();
        private final LongAdder sent = new LongAdder();
        private final LongAdder resized = new LongAdder();
        private final LongAdder busy = new LongAdder();
        /** The handles {@link #configure} gave a timeout, with their bound; read-only once the workers run. */
        private final Map<PipeEnd, Integer> timed = new IdentityHashMap<>();
        private Thread thread;

        /**
         * @param wantPartial whether cut-short writes that stored part of their data must be among them
         * @param wantReads   whether cut-short reads must be among them (a lone reader seldom waits long:
         *                    facing many writers it hardly ever waits, and on a busy machine it is ready
         *                    again before its timeout, so only the multi-reader runs can insist on them)
         */
        ChaosControl(Chaos chaos, boolean wantPartial, boolean wantReads) {
            this.chaos = chaos;
            this.wantPartial = wantPartial;
            this.wantReads = wantReads;
        }

        /**
         * For {@link Chaos#TIMEOUTS}: gives every other handle a random timeout of 2 to {@code maxMicros}
         * microseconds. Call before the workers start.
         */
        void configure(List<? extends PipeEnd> ends, long seed, int maxMicros) {
            if (chaos != Chaos.TIMEOUTS) {
                return;
            }
            SplittableRandom rnd = new SplittableRandom(seed);
            for (int i = 0; i < ends.size(); i += 2) {
                PipeEnd end = ends.get(i);
                end.setTimeout(randomTimeout(rnd, maxMicros));
                timed.put(end, maxMicros);
            }
        }

        /**
         * Draws a new timeout for a handle that has one, before each of its writes: one timeout for the whole
         * run would make the run's chaos depend on the seed (a lone writer that drew 100 µs against a brisk
         * reader could write 256 MiB and time out a dozen times), while fresh draws keep hitting the short end.
         */
        void retime(PipeEnd end, SplittableRandom rnd) {
            Integer maxMicros = timed.get(end);
            if (maxMicros != null) {
                end.setTimeout(randomTimeout(rnd, maxMicros));
            }
        }

        private static Duration randomTimeout(SplittableRandom rnd, int maxMicros) {
            return Duration.ofNanos(rnd.nextLong(2_000, maxMicros * 1_000L));
        }

        /** Whether a writer that has written {@code bytes} of its {@code share} goes on. */
        boolean moreToWrite(long bytes, long share) {
            // Go on past the share until the chaos has really happened: enough interrupted or timed-out calls,
            // or at least one resize (on a short run the writers can finish before the resizer first runs).
            boolean enough = chaos == Chaos.RESIZES ? resized.sum() > 0 : seen.enough(chaos, wantPartial, wantReads);
            // The cap is at least 256 MiB, so the configurations that run an eighth of the bytes still get there.
            return bytes < share || (!enough && bytes < Math.max(MAX_OVERRUN * share, 256L << 20));
        }

        /** Starts the chaos thread, if the chaos needs one. */
        void start(StressHarness h, Pipe p, List<Thread> targets, long seed) {
            SplittableRandom rnd = new SplittableRandom(seed);
            if (chaos == Chaos.INTERRUPTS) {
                thread = h.startPlatform("chaos-interrupter", () -> {
                    while (!stop.get()) {
                        targets.get(rnd.nextInt(targets.size())).interrupt();
                        sent.increment();
                        LockSupport.parkNanos(rnd.nextLong(10_000, 150_000)); // pacing only
                    }
                });
            } else if (chaos == Chaos.RESIZES) {
                thread = h.startPlatform("chaos-resizer", () -> {
                    while (!stop.get()) {
                        int bytes = Pipe.PIPE_BUF << rnd.nextInt(6);
                        try {
                            int now = p.setCapacity(bytes);
                            assertThat(now).isEqualTo(bytes);
                            resized.increment();
                        } catch (IllegalStateException e) {
                            busy.increment(); // more slots hold data than would fit
                        }
                        LockSupport.parkNanos(rnd.nextLong(10_000, 150_000)); // pacing only
                    }
                });
            }
        }

        /** Stops the chaos thread (call once the writers are done). */
        void stop(StressHarness h) throws InterruptedException {
            stop.set(true);
            if (thread != null) {
                h.join(List.of(thread), HANG, thread.getName());
            }
        }

        void verify() {
            if (chaos == Chaos.INTERRUPTS || chaos == Chaos.TIMEOUTS) {
                assertThat(seen.enough(chaos, wantPartial, wantReads)).as("%s hit enough blocked calls (%s)", chaos,
                        summary())
                        .isTrue();
            } else if (chaos == Chaos.RESIZES) {
                assertThat(resized.sum()).as("resizes done").isPositive();
            }
        }

        String summary() {
            return switch (chaos) {
                case NONE -> "";
                case INTERRUPTS -> String.format("; interrupts sent %,d, %s", sent.sum(), seen);
                case TIMEOUTS -> "; " + seen;
                case RESIZES -> String.format("; resizes %,d, refused (busy) %,d", resized.sum(), busy.sum());
            };
        }
    }

    /** The handles a run hands out: the pipe's own two, and {@code dup()}s of them up to the counts asked for. */
    record Ends(List<WriteEnd> outs, List<ReadEnd> ins) {
        static Ends of(Pipe p, int writers, int readers) throws IOException {
            List<WriteEnd> outs = new ArrayList<>(List.of(p.writer()));
            List<ReadEnd> ins = new ArrayList<>(List.of(p.reader()));
            for (int i = 1; i < writers; i++) {
                outs.add(p.writer().dup());
            }
            for (int i = 1; i < readers; i++) {
                ins.add(p.reader().dup());
            }
            return new Ends(outs, ins);
        }

        /** Closes every handle: what a failed run does so that no thread stays blocked. */
        void closeAll() {
            Scenarios.closeAll(outs);
            Scenarios.closeAll(ins);
        }
    }

    static void closeAll(List<? extends java.nio.channels.Channel> ends) {
        for (var e : ends) {
            try {
                e.close();
            } catch (IOException ignored) {
                // PipeEnd.close does not throw
            }
        }
    }

    /** A summary line for the test log. */
    static void report(String name, long seed, long bytes, long startNanos, Pipe p, String extra) {
        PipeCounters c = p.counters();
        System.out.printf("%s: %,d bytes in %d ms (seed %d); writer waits %,d, reader waits %,d, "
                + "empty wake-ups %,d%s%n",
                name, bytes, (System.nanoTime() - startNanos) / 1_000_000, seed, c.writerWaits(), c.readerWaits(),
                c.emptyWakeups(), extra);
    }

    // ---- packet mode: N writers x M readers, every read is one whole record ---------------------------

    /**
     * Packet mode with {@code readers} readers, each reading into a buffer of two pages: every read must
     * return exactly one record (one packet), and across all readers every record must arrive exactly
     * once, in each writer's order within each reader.
     */
    static void packetRun(PipeFactory pipes, StressHarness.Kind kind, int writers, int readers, int capacity,
            Chaos chaosKind)
            throws Exception {
        long seed = seed();
        String name = "packet " + writers + "x" + readers + " cap " + capacity + (chaosKind == Chaos.NONE ? "" : " +"
                + chaosKind)
                + " " + kind + " seed " + seed;
        Pipe p = pipes.open(pipes.options().capacity(capacity).packetMode(true).build());
        Scenarios.Ends ends = Scenarios.Ends.of(p, writers, readers);
        List<WriteEnd> outs = ends.outs();
        List<ReadEnd> ins = ends.ins();
        StressHarness h = new StressHarness(name, kind, p);
        h.onFailure(ends::closeAll);
        Ledger ledger = new Ledger(writers);
        ChaosControl chaos = new ChaosControl(chaosKind, PACKET_PARTIAL, true);
        chaos.configure(outs, seed ^ 1, 100);
        chaos.configure(ins, seed ^ 2, 20);
        Io.Interrupts seen = chaos.seen;
        long share = (pipes.stressBytes() + writers - 1) / writers;
        long start = System.nanoTime();

        List<Thread> writerThreads = new ArrayList<>();
        for (int i = 0; i < writers; i++) {
            int id = i;
            WriteEnd out = outs.get(i);
            writerThreads.add(h.start("writer-" + i, () -> {
                SplittableRandom rnd = new SplittableRandom(seed * 31 + id);
                SplittableRandom timing = new SplittableRandom(seed * 43 + id);
                Io.Api api = new Io.Api(seed * 37 + id);
                byte[] buf = new byte[bufferFor(Shape.PACKET_BATCHES)];
                int[] seq = {0};
                long bytes = 0;
                while (chaos.moreToWrite(bytes, share) && !h.failed()) {
                    int len = nextWrite(Shape.PACKET_BATCHES, buf, id, seq, rnd);
                    chaos.retime(out, timing);
                    Io.WriteOutcome o = Io.writeAll(out, buf, len, true, seen, api);
                    assertThat(o.end()).as("writer %d: write outcome", id).isEqualTo(Io.End.COMPLETE);
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
            long apiSeed = seed * 41 + j;
            readerThreads.add(h.start("reader-" + j, () -> {
                Io.Api api = new Io.Api(apiSeed);
                byte[] buf = new byte[2 * PIPE_BUF];
                for (;;) {
                    int n = Io.read(in, buf, 0, buf.length, seen, api);
                    if (n == -1) {
                        break;
                    }
                    Records.Header r = Records.check(buf, 0, writers, PIPE_BUF, log.name);
                    if (n != r.length()) {
                        throw new AssertionError(log.name + ": a packet-mode read returned " + n
                                + " bytes for record " + r.writerId() + "/" + r.seq() + " of " + r.length()
                                + " (one read must return exactly one packet)");
                    }
                    log.add(r);
                }
                in.close();
            }));
        }
        List<Thread> targets = new ArrayList<>(writerThreads);
        targets.addAll(readerThreads);
        chaos.start(h, p, targets, seed ^ 0x5EED);
        try {
            h.join(writerThreads, HANG, "writers");
        } finally {
            chaos.stop(h);
        }
        h.join(readerThreads, HANG, "readers");
        h.check();

        ledger.verify(true);
        PipeCounters c = p.counters();
        assertThat(ledger.bytesReceived()).as("bytes received").isEqualTo(ledger.bytesStored());
        assertThat(c.bytesWritten()).as("counters().bytesWritten").isEqualTo(ledger.bytesStored());
        assertThat(c.bytesRead()).as("counters().bytesRead").isEqualTo(ledger.bytesStored());
        assertThat(ledger.bytesStored()).isGreaterThanOrEqualTo(pipes.stressBytes());
        PipeStat s = p.stat();
        assertThat(s.bytesQueued()).isZero();
        assertThat(s.readers()).isZero();
        assertThat(s.writers()).isZero();
        chaos.verify();
        report(name, seed, ledger.bytesStored(), start, p, chaos.summary());
    }

    // ---- stream mode: N writers x 1 reader, the reader parses the byte stream -------------------------

    /**
     * Normal (merging) mode, one reader that reads with random buffer sizes and parses the byte stream:
     * each record must arrive contiguous and intact, each writer's records consecutive and in order.
     * {@link Shape#LARGE} needs a single writer (larger writes may interleave at page boundaries).
     */
    static void streamRun(PipeFactory pipes, StressHarness.Kind kind, int writers, Shape shape, int capacity,
            Chaos chaosKind) throws Exception {
        PipeContract.assume(pipes, Capability.BYTE_STREAM); // the reader parses a stream; packets would cut it
        if (shape != Shape.SMALL && writers != 1) {
            throw new IllegalArgumentException("records larger than PIPE_BUF are only checkable with one writer");
        }
        long seed = seed();
        String name = "stream " + writers + "x1 " + shape + " cap " + capacity + (chaosKind == Chaos.NONE ? "" : " +"
                + chaosKind)
                + " " + kind + " seed " + seed;
        Pipe p = pipes.open(pipes.options().capacity(capacity).build());
        Ends ends = Ends.of(p, writers, 1);
        List<WriteEnd> outs = ends.outs();
        ReadEnd in = ends.ins().get(0);
        StressHarness h = new StressHarness(name, kind, p);
        h.onFailure(ends::closeAll);
        Ledger ledger = new Ledger(writers);
        ChaosControl chaos = new ChaosControl(chaosKind, shape == Shape.LARGE,
                writers == 1 && chaosKind == Chaos.INTERRUPTS);
        chaos.configure(outs, seed ^ 1, 100);
        chaos.configure(List.of(in), seed ^ 2, 20);
        Io.Interrupts seen = chaos.seen;
        long share = (pipes.stressBytes() + writers - 1) / writers;
        int maxRecord = shape == Shape.LARGE ? LARGE_MAX : PIPE_BUF;
        long start = System.nanoTime();

        List<Thread> writerThreads = new ArrayList<>();
        for (int i = 0; i < writers; i++) {
            int id = i;
            WriteEnd out = outs.get(i);
            writerThreads.add(h.start("writer-" + i, () -> {
                SplittableRandom rnd = new SplittableRandom(seed * 31 + id);
                SplittableRandom timing = new SplittableRandom(seed * 43 + id);
                Io.Api api = new Io.Api(seed * 37 + id);
                byte[] buf = new byte[bufferFor(shape)];
                int[] seq = {0};
                long bytes = 0;
                while (chaos.moreToWrite(bytes, share) && !h.failed()) {
                    int len = nextWrite(shape, buf, id, seq, rnd);
                    chaos.retime(out, timing);
                    Io.WriteOutcome o = Io.writeAll(out, buf, len, false, seen, api);
                    assertThat(o.end()).as("writer %d: write outcome", id).isEqualTo(Io.End.COMPLETE);
                    bytes += len;
                }
                ledger.stored[id] = seq[0];
                ledger.bytesStored[id] = bytes;
                out.close();
            }));
        }
        Ledger.ReaderLog log = ledger.newReader("reader", true);
        Thread reader = h.start("reader", () -> {
            StreamParser parser = new StreamParser(writers, maxRecord, log);
            SplittableRandom rnd = new SplittableRandom(seed ^ 0xBEEF);
            Io.Api api = new Io.Api(seed ^ 0xAB1);
            for (;;) {
                int want = rnd.nextInt(4) == 0 ? rnd.nextInt(1, 100) : rnd.nextInt(1, 64 * 1024 + 1);
                int n = Io.read(in, parser.room(want), parser.end(), want, seen, api);
                if (n == -1) {
                    break;
                }
                if (n <= 0 || n > want) {
                    throw new AssertionError("blocking read of " + want + " returned " + n);
                }
                parser.filled(n);
            }
            parser.atEof();
            in.close();
        });
        List<Thread> targets = new ArrayList<>(writerThreads);
        targets.add(reader);
        chaos.start(h, p, targets, seed ^ 0x5EED);
        try {
            h.join(writerThreads, HANG, "writers");
        } finally {
            chaos.stop(h);
        }
        h.join(List.of(reader), HANG, "reader");
        h.check();

        ledger.verify(true);
        PipeCounters c = p.counters();
        assertThat(ledger.bytesReceived()).as("bytes received").isEqualTo(ledger.bytesStored());
        assertThat(c.bytesWritten()).as("counters().bytesWritten").isEqualTo(ledger.bytesStored());
        assertThat(c.bytesRead()).as("counters().bytesRead").isEqualTo(ledger.bytesStored());
        assertThat(ledger.bytesStored()).isGreaterThanOrEqualTo(pipes.stressBytes());
        chaos.verify();
        report(name, seed, ledger.bytesStored(), start, p, chaos.summary());
    }

    /** Reassembles records from a byte stream read in arbitrary pieces. */
    static final class StreamParser {
        private final int writers;
        private final int maxRecord;
        private final Ledger.ReaderLog log;
        private byte[] acc;
        private int start;
        private int end;
        private long offset;

        StreamParser(int writers, int maxRecord, Ledger.ReaderLog log) {
            this.writers = writers;
            this.maxRecord = maxRecord;
            this.log = log;
            this.acc = new byte[2 * (maxRecord + 64 * 1024)];
        }

        /** @return the buffer to read up to {@code want} bytes into, at {@link #end()} */
        byte[] room(int want) {
            if (acc.length - end < want) {
                System.arraycopy(acc, start, acc, 0, end - start);
                end -= start;
                start = 0;
            }
            return acc;
        }

        int end() {
            return end;
        }

        void filled(int n) {
            end += n;
            while (end - start >= Records.HEADER) {
                String where = log.name + " at stream offset " + offset;
                int len = Records.lengthAt(acc, start, maxRecord, where);
                if (end - start < len) {
                    break;
                }
                log.add(Records.check(acc, start, writers, maxRecord, where));
                start += len;
                offset += len;
            }
        }

        void atEof() {
            if (end != start) {
                throw new AssertionError(log.name + ": end-of-stream inside a record, " + (end - start)
                        + " bytes left over at stream offset " + offset);
            }
        }
    }
}
