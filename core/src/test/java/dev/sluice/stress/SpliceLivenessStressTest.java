package dev.sluice.stress;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.Pipe;
import dev.sluice.PipeOptions;
import dev.sluice.Splice;
import dev.sluice.policy.LockStrategy;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Liveness of two-pipe calls under the spin lock: six splicers move pipe A into pipe B while a thread
 * interrupts them at random, and every byte must reach B's reader, in order. An interrupted splicer keeps its
 * interrupt status (the stream convention) and carries on, so it keeps spinning on locks with the status set.
 *
 * <p>The defect this pins: a splicer that held A's spin lock while it spun for B's yielded or napped with
 * A's lock held, and an interrupted spinner's nap returned at once ({@code parkNanos} does not park while
 * the status is set), so on two carriers the virtual splicers kept both carriers spinning for locks whose
 * holders could not run: no byte moved, for good. The timeout is the failure; a correct build moves the
 * bytes in well under a second.
 */
@Tag("stress")
@Tag("stress")
class SpliceLivenessStressTest {
    private static final int BYTES = 2 << 20;
    private static final int SPLICERS = 6;

    enum Kind {
        PLATFORM, VIRTUAL;

        Thread start(Runnable r) {
            return this == PLATFORM ? Thread.ofPlatform().daemon(true).start(r) : Thread.ofVirtual().start(r);
        }
    }

    @ParameterizedTest
    @EnumSource(Kind.class)
    @Timeout(value = 60, unit = TimeUnit.SECONDS)
    void interruptedSplicersOnSpinLocksStillMoveEveryByte(Kind kind) throws Exception {
        PipeOptions spin = PipeOptions.builder().lockStrategy(LockStrategy.SPIN).build();
        Pipe a = Pipe.open(spin);
        Pipe b = Pipe.open(spin);
        CompletableFuture<Long> read = new CompletableFuture<>();
        kind.start(() -> read(b, read));
        CompletableFuture<Void> fed = new CompletableFuture<>();
        Thread.ofPlatform().daemon(true).start(() -> feed(a, fed));

        AtomicInteger running = new AtomicInteger(SPLICERS);
        List<Thread> splicers = new ArrayList<>();
        List<Throwable> failures = new ArrayList<>();
        for (int i = 0; i < SPLICERS; i++) {
            splicers.add(kind.start(() -> {
                try {
                    splice(a, b);
                } catch (Throwable t) {
                    synchronized (failures) {
                        failures.add(t);
                    }
                } finally {
                    if (running.decrementAndGet() == 0) {
                        b.writer().close(); // the last splicer out ends B's stream
                    }
                }
            }));
        }
        AtomicBoolean stop = new AtomicBoolean();
        Thread interrupter = Thread.ofPlatform().daemon(true).start(() -> {
            SplittableRandom rnd = new SplittableRandom(42);
            while (!stop.get()) {
                splicers.get(rnd.nextInt(SPLICERS)).interrupt();
                for (int i = rnd.nextInt(200); i > 0; i--) {
                    Thread.onSpinWait();
                }
            }
        });
        try {
            fed.get();
            assertThat(read.get()).as("bytes that reached B's reader, in order").isEqualTo(BYTES);
        } finally {
            stop.set(true);
            interrupter.join();
        }
        assertThat(failures).isEmpty();
    }

    /**
     * Splices until A's end-of-stream, riding out interrupts as a caller that retries would: an interrupt
     * that lands while the splicer spins for a lock is only seen when a wait throws, and cleared then.
     */
    private static void splice(Pipe a, Pipe b) throws IOException {
        for (;;) {
            try {
                if (Splice.splice(a.reader(), b.writer(), 4096) < 0) {
                    return;
                }
            } catch (InterruptedIOException e) {
                Thread.interrupted();
            }
        }
    }

    private static void feed(Pipe a, CompletableFuture<Void> fed) {
        try (var out = a.writer()) {
            byte[] chunk = new byte[1000];
            for (int at = 0; at < BYTES; ) {
                int n = Math.min(chunk.length, BYTES - at);
                for (int i = 0; i < n; i++) {
                    chunk[i] = (byte) ((at + i) * 7);
                }
                out.write(chunk, 0, n);
                at += n;
            }
            fed.complete(null);
        } catch (Throwable t) {
            fed.completeExceptionally(t);
        }
    }

    private static void read(Pipe b, CompletableFuture<Long> read) {
        try (var in = b.reader()) {
            byte[] buf = new byte[65536];
            long at = 0;
            for (int n; (n = in.read(buf)) != -1; ) {
                for (int i = 0; i < n; i++, at++) {
                    if (buf[i] != (byte) (at * 7)) {
                        throw new AssertionError("byte " + at + " is " + buf[i]);
                    }
                }
            }
            read.complete(at);
        } catch (Throwable t) {
            read.completeExceptionally(t);
        }
    }
}
