package dev.sluice.stress;

import dev.sluice.testing.Capability;
import dev.sluice.testing.PipeContract;
import dev.sluice.testing.Requires;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.PartialTransferException;
import dev.sluice.Pipe;
import dev.sluice.PipeOptions;
import dev.sluice.ReadEnd;
import dev.sluice.Splice;
import dev.sluice.WriteEnd;
import dev.sluice.stress.StressHarness.Kind;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.ReadableByteChannel;
import java.nio.channels.WritableByteChannel;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Transfers to channels that fail at random, racing with every other way of consuming the same pipe: a
 * blocking reader, a nonblocking reader, a splicer, and two transferring threads whose channels take part
 * of what they are offered, throw before or after taking some, or are interrupted; meanwhile the capacity
 * changes at random. Nothing may be lost, duplicated or reordered.
 *
 * <p>How that is seen without trusting the pipe: the writer sends rounds of 256 bytes whose values are their
 * positions in the round, and starts a round only when every byte of the last one has been consumed. So each
 * piece any consumer gets says where it belongs; per round, the pieces must tile 0..255 exactly once, and
 * no piece may have been taken entirely before a piece earlier in the stream was even asked for (each call's
 * bytes are taken at one instant within the call, so that would be a reordering). A transfer's piece is what
 * its channel took, which must also be exactly what the call reported, whether it returned or threw.
 */
@Tag("stress")
@Requires({Capability.CHANNEL_TRANSFER, Capability.SPLICE, Capability.BYTE_STREAM}) // readers check a byte stream
class ChannelTransferStressTest extends PipeContract {
    private static final int ROUND = 256;

    /** {@return how many rounds of {@value #ROUND} bytes a run moves: more for the configurations run at full size} */
    private int rounds() {
        return (int) Math.max(300, Math.min(3000, pipes.stressBytes() / 16384));
    }

    /** One call's take: which round, the bytes, and when the call started and returned. */
    private record Piece(int round, byte[] bytes, long start, long end, String who) {
        int offset() {
            return bytes[0] & 0xFF;
        }
    }

    /** The two test channels are always open; closing them does nothing. */
    private abstract static class AlwaysOpen implements java.nio.channels.Channel {
        @Override
        public boolean isOpen() {
            return true;
        }

        @Override
        public void close() {
        }
    }

    /** A channel that takes a random part of what it is offered and fails at random. */
    private static final class Flaky extends AlwaysOpen implements WritableByteChannel {
        private final SplittableRandom rnd;
        private final ByteArrayOutputStream taken = new ByteArrayOutputStream();

        Flaky(long seed) {
            this.rnd = new SplittableRandom(seed);
        }

        @Override
        public int write(ByteBuffer src) throws IOException {
            int roll = rnd.nextInt(16);
            if (roll == 0) {
                throw new IOException("refused"); // before taking anything
            }
            int k = roll <= 4 ? rnd.nextInt(src.remaining() + 1) : src.remaining();
            byte[] b = new byte[k];
            src.get(b);
            taken.write(b, 0, k);
            if (roll == 1 && k > 0) {
                throw new IOException("failed after taking " + k); // as an interrupted JDK channel does
            }
            if (roll == 2 && k > 0) {
                throw new InterruptedIOException("interrupted after taking " + k);
            }
            return k;
        }

        /** @return what this call's writes took, and forgets it */
        byte[] takeCall() {
            byte[] b = taken.toByteArray();
            taken.reset();
            return b;
        }
    }

    @ParameterizedTest(name = "{0} threads")
    @EnumSource(Kind.class)
    @Timeout(value = 120, unit = TimeUnit.SECONDS)
    void failingTransfersRacingReadersAndSplicesLoseDuplicateAndReorderNothing(Kind kind) throws Exception {
        long seed = Scenarios.seed();
        String name = "failing transfers " + kind + " seed " + seed;
        Pipe p = pipes.open(options().capacity(4 * 4096).build());
        Pipe spliced = pipes.open(options().capacity(64 * 1024).build());
        ReadEnd blocking = p.reader();
        ReadEnd nonBlocking = p.reader().reopen(); // a description of its own: a dup would share the mode
        nonBlocking.setNonBlocking(true);
        ReadEnd splicing = p.reader().dup();
        ReadEnd transferA = p.reader().dup();
        ReadEnd transferB = p.reader().dup();
        List<AutoCloseable> all = List.of(p.writer(), blocking, nonBlocking, splicing, transferA, transferB,
                spliced.writer(), spliced.reader());
        StressHarness h = new StressHarness(name, kind, p);
        h.onFailure(() -> all.forEach(ChannelTransferStressTest::quietly));
        Semaphore consumed = new Semaphore(0);
        // The round being written. A consumer reads it after its call and before it reports the bytes, and the
        // writer moves on only after every byte is reported, so the value read is the round of those bytes.
        AtomicInteger round = new AtomicInteger();
        ConcurrentLinkedQueue<Piece> pieces = new ConcurrentLinkedQueue<>();
        long start = System.nanoTime();
        Recorder rec = (who, bytes, t0) -> {
            long t1 = System.nanoTime();
            pieces.add(new Piece(round.get(), bytes, t0, t1, who));
            consumed.release(bytes.length);
        };

        List<Thread> workers = new ArrayList<>();
        workers.add(h.start("writer", () -> writeRounds(h, p, round, consumed, seed)));
        workers.add(h.start("reader", () -> readBlocking(blocking, rec, seed ^ 1)));
        workers.add(h.start("nonblocking-reader", () -> readNonBlocking(nonBlocking, rec, seed ^ 2)));
        workers.add(h.start("splicer", () -> spliceAndDrain(splicing, spliced, rec, seed ^ 3)));
        ReadEnd[] transferEnds = {transferA, transferB};
        for (int i = 0; i < 2; i++) {
            int id = i;
            workers.add(h.start("transfer-" + i, () -> transferToFlaky(transferEnds[id], id, rec, seed)));
        }
        Thread chaos = startResizer(h, p, seed ^ 4);

        h.join(workers, Scenarios.HANG, "workers");
        h.join(List.of(chaos), Scenarios.HANG, "resizer");
        verify(new ArrayList<>(pieces));
        assertThat(p.counters().bytesRead()).as("bytes the pipe counted as consumed")
                .isEqualTo((long) rounds() * ROUND);
        Scenarios.report(name, seed, (long) rounds() * ROUND, start, p, ", " + pieces.size() + " pieces");
        all.forEach(ChannelTransferStressTest::quietly);
    }

    /** The writer: writes the rounds, some bytes by gift, each once the last was consumed; then closes. */
    private void writeRounds(StressHarness h, Pipe p, AtomicInteger round, Semaphore consumed, long seed)
            throws Exception {
        SplittableRandom rnd = new SplittableRandom(seed);
        byte[] values = new byte[ROUND];
        for (int i = 0; i < ROUND; i++) {
            values[i] = (byte) i;
        }
        for (int r = 0; r < rounds() && !h.failed(); r++) {
            round.set(r);
            for (int at = 0; at < ROUND; ) {
                int n = Math.min(ROUND - at, rnd.nextInt(1, 65));
                if (rnd.nextInt(3) == 0) { // a slot of its own, never merged into
                    ByteBuffer gift = rnd.nextBoolean() ? ByteBuffer.allocate(n) : ByteBuffer.allocateDirect(n);
                    gift.put(values, at, n).flip();
                    assertThat(Splice.gift(p.writer(), gift)).isEqualTo(n);
                } else {
                    assertThat(p.writer().write(values, at, n)).isEqualTo(n);
                }
                at += n;
            }
            consumed.acquire(ROUND); // the whole round is taken before the next one starts
        }
        p.writer().close();
    }

    /** The blocking reader: reads random amounts until end-of-stream, recording each piece. */
    private static void readBlocking(ReadEnd blocking, Recorder rec, long seed) throws Exception {
        SplittableRandom rnd = new SplittableRandom(seed);
        for (;;) {
            byte[] b = new byte[rnd.nextInt(1, 300)];
            long t0 = System.nanoTime();
            int n = blocking.read(b);
            if (n < 0) {
                break;
            }
            rec.piece("reader", Arrays.copyOf(b, n), t0);
        }
    }

    /** The nonblocking reader: like the blocking one, yielding whenever a read finds nothing to take. */
    private static void readNonBlocking(ReadEnd nonBlocking, Recorder rec, long seed) throws Exception {
        SplittableRandom rnd = new SplittableRandom(seed);
        for (;;) {
            byte[] b = new byte[rnd.nextInt(1, 300)];
            long t0 = System.nanoTime();
            int n = nonBlocking.read(b);
            if (n < 0) {
                break;
            }
            if (n == 0) {
                Thread.yield(); // EAGAIN: empty, or a transfer holds the pipe
                continue;
            }
            rec.piece("nonblocking-reader", Arrays.copyOf(b, n), t0);
        }
    }

    /** The splicer: splices random amounts into its private pipe and reads back exactly those bytes. */
    private static void spliceAndDrain(ReadEnd splicing, Pipe spliced, Recorder rec, long seed) throws Exception {
        SplittableRandom rnd = new SplittableRandom(seed);
        byte[] b = new byte[64 * 1024];
        for (;;) {
            long t0 = System.nanoTime();
            long n = Splice.splice(splicing, spliced.writer(), rnd.nextInt(1, 600));
            if (n < 0) {
                break;
            }
            int got = 0;
            while (got < n) { // only this thread uses the private pipe: it holds exactly those bytes
                got += spliced.reader().read(b, got, (int) n - got);
            }
            rec.piece("splicer", Arrays.copyOf(b, got), t0);
        }
    }

    /** Transferrer {@code id}: transfers to a {@link Flaky} channel until end-of-stream, checking each report. */
    private static void transferToFlaky(ReadEnd in, int id, Recorder rec, long seed) throws Exception {
        SplittableRandom rnd = new SplittableRandom(seed ^ (10 + id));
        Flaky ch = new Flaky(seed ^ (20 + id));
        String who = "transfer-" + id;
        for (;;) {
            long t0 = System.nanoTime();
            long reported;
            try {
                reported = Splice.transferTo(in, ch, rnd.nextInt(1, 600));
            } catch (PartialTransferException e) {
                reported = e.bytesTransferred();
            } catch (InterruptedIOException e) {
                reported = e.bytesTransferred;
            } catch (IOException e) {
                assertThat(e.getMessage()).as("the channel's own failure, before it took anything")
                        .isEqualTo("refused");
                reported = 0;
            }
            if (reported < 0) {
                break;
            }
            byte[] took = ch.takeCall();
            assertThat(took.length).as("%s: bytes the channel took vs the call's report", who)
                    .isEqualTo(reported);
            if (took.length > 0) {
                rec.piece(who, took, t0);
            }
        }
    }

    /** A source of a known byte stream that gives random amounts and fails at random, before or after giving. */
    private static final class FlakySource extends AlwaysOpen implements ReadableByteChannel {
        private final SplittableRandom rnd;
        private final long length;
        private long given;

        FlakySource(long seed, long length) {
            this.rnd = new SplittableRandom(seed);
            this.length = length;
        }

        static byte at(long i) {
            return (byte) (i * 31 + (i >>> 8) * 7 + (i >>> 16));
        }

        @Override
        public int read(ByteBuffer dst) throws IOException {
            if (given == length) {
                return -1;
            }
            int roll = rnd.nextInt(12);
            if (roll == 0) {
                throw new IOException("reset"); // before giving anything
            }
            int n = (int) Math.min(Math.min(dst.remaining(), length - given), roll <= 4 ? rnd.nextInt(1, 5000)
                    : 1 << 20);
            for (int i = 0; i < n; i++) {
                dst.put(at(given++));
            }
            if (roll == 1) {
                throw new IOException("reset after giving " + n); // the bytes have left the source all the same
            }
            return n;
        }
    }

    @ParameterizedTest(name = "{0} threads")
    @EnumSource(Kind.class)
    @Timeout(value = 120, unit = TimeUnit.SECONDS)
    void transfersFromAFailingChannelStoreEveryByteItGaveUnderTimeoutsAndResizes(Kind kind) throws Exception {
        long seed = Scenarios.seed();
        String name = "transfers from a failing channel " + kind + " seed " + seed;
        long length = Math.max(1 << 20, pipes.stressBytes() / 8);
        Pipe p = pipes.open(options().capacity(2 * 4096).build());
        WriteEnd out = p.writer();
        out.setTimeout(java.time.Duration.ofNanos(20_000)); // waits for room often time out and are retried
        StressHarness h = new StressHarness(name, kind, p);
        h.onFailure(() -> List.of(p.writer(), p.reader()).forEach(ChannelTransferStressTest::quietly));
        long start = System.nanoTime();
        long[] stored = new long[1];
        long[] timeouts = new long[1];
        Thread producer = h.start("transferFrom", () -> {
            SplittableRandom rnd = new SplittableRandom(seed);
            FlakySource source = new FlakySource(seed ^ 5, length);
            for (;;) {
                long n;
                try {
                    n = Splice.transferFrom(source, out, rnd.nextInt(1, 20_000));
                } catch (PartialTransferException e) {
                    n = e.bytesTransferred();
                } catch (InterruptedIOException e) {
                    assertThat(e.bytesTransferred).as("a timeout waiting for room, before reading").isZero();
                    timeouts[0]++;
                    n = 0;
                } catch (IOException e) {
                    assertThat(e.getMessage()).isEqualTo("reset");
                    n = 0;
                }
                if (n < 0) {
                    break;
                }
                stored[0] += n;
                assertThat(stored[0]).as("what the source gave is what the calls reported").isEqualTo(source.given);
            }
            assertThat(stored[0]).isEqualTo(length);
            out.close();
        });
        long[] received = new long[1];
        Thread consumer = h.start("reader", () -> {
            SplittableRandom rnd = new SplittableRandom(seed ^ 6);
            byte[] b = new byte[70_000];
            for (int n; (n = p.reader().read(b, 0, rnd.nextInt(1, b.length + 1))) != -1; ) {
                for (int i = 0; i < n; i++) {
                    if (b[i] != FlakySource.at(received[0] + i)) {
                        throw new AssertionError("byte " + (received[0] + i) + " differs: lost or reordered");
                    }
                }
                received[0] += n;
            }
        });
        Thread chaos = startResizer(h, p, seed ^ 7);
        h.join(List.of(producer, consumer, chaos), Scenarios.HANG, "workers");
        assertThat(received[0]).isEqualTo(length);
        assertThat(p.counters().bytesWritten()).isEqualTo(length);
        Scenarios.report(name, seed, length, start, p, ", " + timeouts[0] + " timeouts waiting for room");
    }

    /**
     * A chaos thread that sets the capacity to 1 to 8 pages at random until the pipe's first write end closes;
     * below what the pipe holds, or has promised to a transfer from a channel, it is refused (EBUSY).
     */
    private static Thread startResizer(StressHarness h, Pipe p, long seed) {
        return h.startPlatform("resizer", () -> {
            SplittableRandom rnd = new SplittableRandom(seed);
            while (!h.failed() && p.writer().isOpen()) {
                try {
                    p.setCapacity(4096 << rnd.nextInt(4));
                } catch (IllegalStateException busy) {
                    // holding more than fits: refused, nothing changed
                }
                Thread.yield();
            }
        });
    }

    /** Where a consumer reports what one call took. */
    @FunctionalInterface
    private interface Recorder {
        void piece(String who, byte[] bytes, long startNanos);
    }

    /** Per round: the pieces tile 0..255 once, and none was taken before an earlier one was asked for. */
    private void verify(List<Piece> pieces) {
        List<List<Piece>> byRound = new ArrayList<>();
        for (int r = 0; r < rounds(); r++) {
            byRound.add(new ArrayList<>());
        }
        for (Piece piece : pieces) {
            for (int i = 0; i < piece.bytes.length; i++) {
                if ((piece.bytes[i] & 0xFF) != piece.offset() + i) {
                    throw new AssertionError(piece.who + " got bytes that do not follow each other in one call in"
                            + " round " + piece.round + " (lost, duplicated or reordered): "
                                    + Arrays.toString(piece.bytes));
                }
            }
            byRound.get(piece.round).add(piece);
        }
        for (int r = 0; r < rounds(); r++) {
            List<Piece> round = byRound.get(r);
            round.sort(Comparator.comparingInt(Piece::offset));
            int next = 0;
            long latestStart = Long.MIN_VALUE;
            String latestWho = null;
            for (Piece piece : round) {
                if (piece.offset() != next) {
                    throw new AssertionError("round " + r + ": " + (piece.offset() < next ? "bytes " + piece.offset()
                            + ".." + (next - 1) + " delivered twice" : "bytes " + next + ".." + (piece.offset() - 1)
                            + " lost") + " (" + describe(round) + ")");
                }
                if (piece.end < latestStart) {
                    throw new AssertionError("round " + r + ": " + piece.who + " finished taking bytes "
                            + piece.offset() + ".. before " + latestWho + " even asked for earlier ones ("
                            + describe(round) + ")");
                }
                if (piece.start > latestStart) {
                    latestStart = piece.start;
                    latestWho = piece.who;
                }
                next += piece.bytes.length;
            }
            if (next != ROUND) {
                throw new AssertionError("round " + r + ": bytes " + next + ".." + (ROUND - 1) + " lost");
            }
        }
    }

    private static String describe(List<Piece> round) {
        StringBuilder b = new StringBuilder();
        for (Piece p : round) {
            b.append(p.who).append(' ').append(p.offset()).append('+').append(p.bytes.length).append("; ");
        }
        return b.toString();
    }

    private static void quietly(AutoCloseable c) {
        try {
            c.close();
        } catch (Exception ignored) {
            // closing to abort or to clean up: the verdict is elsewhere
        }
    }
}
