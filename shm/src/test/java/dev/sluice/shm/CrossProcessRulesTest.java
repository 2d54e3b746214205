package dev.sluice.shm;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.sluice.BrokenPipeException;
import dev.sluice.PipeInterruptedException;
import dev.sluice.PipeOptions;
import dev.sluice.PipeTimeoutException;
import dev.sluice.ReadEnd;
import dev.sluice.Readiness;
import dev.sluice.WriteEnd;
import java.io.IOException;
import java.nio.channels.AsynchronousCloseException;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The pipe's rules with the peer in another JVM: a {@link Child} in {@code serve} mode holds the other end and
 * reads, writes or closes when told ({@link ChildJvm#ask}), so each step happens at a known moment. A test
 * that waits for a blocked thread looks at the waiter count in the shared memory, never at the clock.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class CrossProcessRulesTest {
    private static final Duration PATIENCE = ChildJvm.PATIENCE;

    private static ShmPipe pipe(int capacity) throws IOException {
        return ShmPipe.create(PipeOptions.builder().capacity(capacity).build());
    }

    /**
     * Reads until {@code limit} bytes or end-of-stream; fails at a byte that is not {@link Child#pattern}'s at
     * its offset.
     *
     * @return bytes read
     */
    private static int readPattern(ReadEnd in, int limit) throws IOException {
        byte[] want = Child.pattern(limit);
        byte[] buf = new byte[10_000];
        int total = 0;
        for (int n; total < limit && (n = in.read(buf, 0, Math.min(buf.length, limit - total))) != -1; ) {
            for (int i = 0; i < n; i++) {
                if (buf[i] != want[total + i]) {
                    throw new AssertionError("byte " + (total + i) + " is " + buf[i] + ", not " + want[total + i]);
                }
            }
            total += n;
        }
        return total;
    }

    @ParameterizedTest(name = "the child closes last: {0}")
    @ValueSource(booleans = {true, false})
    void endOfStreamOnlyWhenTheLastWriterAnywhereClosesAndAfterEveryByte(boolean childLast) throws Exception {
        int size = 300_000; // several times the ring: the child waits for this JVM to read
        try (ShmPipe p = pipe(16 * 4096); ChildJvm child = ChildJvm.serve()) {
            WriteEnd mine = p.writer().dup();
            int k = child.claim(p, p.writer());
            ReadEnd in = p.reader();
            in.setTimeout(PATIENCE);
            if (childLast) {
                mine.close(); // the child's is the last write handle anywhere
            }
            child.send("write " + k + " " + size);
            child.send("close " + k + " w");
            // With the child's handle the last, a read past the end meets end-of-stream after every byte.
            assertThat(readPattern(in, childLast ? size + 1 : size)).as("every byte in order").isEqualTo(size);
            assertThat(child.reply()).isEqualTo("wrote " + size);
            assertThat(child.reply()).isEqualTo("closed");
            if (!childLast) {
                in.setNonBlocking(true);
                assertThat(in.read(new byte[1])).as("EAGAIN: a write handle is still open in this JVM").isZero();
                assertThat(in.poll().hungUp()).isFalse();
                mine.close();
            }
            assertThat(in.read(new byte[1])).isEqualTo(-1);
            assertThat(in.poll().hungUp()).isTrue();
            assertThat(p.stat().writers()).isZero();
        }
    }

    @Test
    void brokenPipeOnlyWhenTheLastReaderAnywhereCloses() throws Exception {
        try (ShmPipe p = pipe(4096); ChildJvm child = ChildJvm.serve()) {
            ReadEnd mine = p.reader().dup();
            int k = child.claim(p, p.reader());
            WriteEnd out = p.writer();
            out.setTimeout(PATIENCE);
            mine.close(); // the child's read handle is the last one anywhere
            assertThat(out.write(new byte[100])).as("a reader is open in the child").isEqualTo(100);
            // 1808 of 10000 bytes (10000 mod 4096) merge into the page after the 100; the rest waits for room.
            Async<Integer> writer = Async.start(false, () -> out.write(new byte[10_000]));
            ShmPipeTest.awaitBlocked(p, false);
            assertThat(child.ask("close " + k + " r")).isEqualTo("closed");
            assertThat(writer.failure()).isInstanceOfSatisfying(BrokenPipeException.class,
                    e -> assertThat(e.bytesTransferred()).isEqualTo(1808));
            assertThatThrownBy(() -> out.write(new byte[1])).isInstanceOf(BrokenPipeException.class);
            assertThat(out.poll().error()).isTrue();
            assertThat(p.stat().readers()).isZero();
        }
    }

    @Test
    void writesOfAtMostPipeBufAreAtomicAgainstAWriterInTheOtherProcess() throws Exception {
        int each = 2_000;
        try (ShmPipe p = pipe(4 * 4096); ChildJvm child = ChildJvm.serve()) {
            int k = child.claim(p, p.writer().dup());
            p.reader().setTimeout(PATIENCE);
            Async<Records.Parser> reader = Async.start(false, () -> Records.drain(p.reader()));
            child.send("records " + k + " 1 " + each); // 12 to 4096 bytes each, a write each
            Async<Void> local = Async.start(true, () -> {
                try (WriteEnd out = p.writer()) {
                    for (int seq = 0; seq < each; seq++) {
                        out.write(Records.make(2, seq));
                    }
                }
                return null;
            });
            assertThat(child.reply()).isEqualTo("wrote " + each);
            assertThat(child.ask("close " + k + " w")).isEqualTo("closed");
            local.get();
            Records.Parser got = reader.get(); // each record whole, each writer's in order, none twice
            assertThat(got.from(1)).isEqualTo(each);
            assertThat(got.from(2)).isEqualTo(each);
            assertThat(got.partial()).isZero();
        }
    }

    @Test
    void nonblockingReadOfAnEmptyPipeWouldBlockWhileTheWriterIsInTheChild() throws Exception {
        try (ShmPipe p = pipe(4096); ChildJvm child = ChildJvm.serve()) {
            int k = child.claim(p, p.writer());
            ReadEnd in = p.reader();
            in.setNonBlocking(true);
            byte[] buf = new byte[100];
            assertThat(in.read(buf)).as("EAGAIN, not end-of-stream").isZero();
            assertThat(in.poll().readable()).isFalse();
            assertThat(in.poll().hungUp()).isFalse();
            assertThat(p.counters().readerWaits()).isZero();
            assertThat(child.ask("write " + k + " 5")).isEqualTo("wrote 5");
            assertThat(in.read(buf)).isEqualTo(5);
            assertThat(in.read(buf)).isZero();
            assertThat(child.ask("close " + k + " w")).isEqualTo("closed");
            assertThat(in.read(buf)).isEqualTo(-1);
        }
    }

    @Test
    void nonblockingWriteToAFullPipeStoresWhatFitsThenWouldBlock() throws Exception {
        try (ShmPipe p = pipe(8192); ChildJvm child = ChildJvm.serve()) {
            int k = child.claim(p, p.reader());
            WriteEnd out = p.writer();
            out.setNonBlocking(true);
            assertThat(out.write(Child.pattern(10_000))).as("a partial count, as Linux").isEqualTo(8192);
            assertThat(out.write(new byte[1])).as("EAGAIN").isZero();
            assertThat(out.poll().writable()).isFalse();
            assertThat(child.ask("read " + k + " 100")).isEqualTo("got 100 " + Child.patternCrc(100));
            assertThat(out.write(new byte[4096])).as("atomic: no whole page is free, so nothing").isZero();
            assertThat(child.ask("read " + k + " 8092")).startsWith("got 8092 ");
            assertThat(out.poll().writable()).isTrue();
            assertThat(out.write(new byte[4096])).isEqualTo(4096);
            assertThat(out.write(new byte[9000])).as("the rest of the ring, in whole pages").isEqualTo(4096);
        }
    }

    @ParameterizedTest(name = "virtual: {0}")
    @ValueSource(booleans = {false, true})
    void aBlockedReaderWakesWhenTheChildWrites(boolean virtual) throws Exception {
        try (ShmPipe p = pipe(4096); ChildJvm child = ChildJvm.serve()) {
            int k = child.claim(p, p.writer());
            ReadEnd in = p.reader();
            in.setTimeout(PATIENCE);
            Async<Integer> reader = Async.start(virtual, () -> in.read(new byte[10]));
            ShmPipeTest.awaitBlocked(p, true);
            assertThat(child.ask("write " + k + " 3")).isEqualTo("wrote 3");
            assertThat(reader.get()).isEqualTo(3);
            // A future completes for another process's write too, through its waiting thread: later than the
            // write's return (which a blocked reader could beat, taking the bytes first), so on its own here.
            CompletableFuture<Readiness> ready = in.whenReady();
            assertThat(ready).isNotDone();
            assertThat(child.ask("write " + k + " 2")).isEqualTo("wrote 2");
            assertThat(ready.get(PATIENCE.toMillis(), TimeUnit.MILLISECONDS).readable()).isTrue();
            assertThat(in.read(new byte[10])).isEqualTo(2);
        }
    }

    @ParameterizedTest(name = "virtual: {0}")
    @ValueSource(booleans = {false, true})
    void aBlockedWriterWakesWhenTheChildReads(boolean virtual) throws Exception {
        try (ShmPipe p = pipe(4096); ChildJvm child = ChildJvm.serve()) {
            int k = child.claim(p, p.reader());
            WriteEnd out = p.writer();
            out.setTimeout(PATIENCE);
            byte[] data = Child.pattern(6000);
            assertThat(out.write(data, 0, 4096)).isEqualTo(4096);
            Async<Integer> writer = Async.start(virtual, () -> out.write(data, 4096, 1904));
            ShmPipeTest.awaitBlocked(p, false);
            assertThat(child.ask("read " + k + " 4096")).isEqualTo("got 4096 " + Child.patternCrc(4096));
            assertThat(writer.get()).isEqualTo(1904);
            assertThat(child.ask("read " + k + " 1904")).startsWith("got 1904 ");
        }
    }

    enum Ending { INTERRUPT, TIMEOUT, CLOSE }

    @ParameterizedTest
    @EnumSource(Ending.class)
    void aWaitEndsOnInterruptTimeoutOrCloseWhileTheChildHoldsTheOtherEnd(Ending how) throws Exception {
        try (ShmPipe empty = pipe(4096); ShmPipe full = pipe(4096); ChildJvm child = ChildJvm.serve()) {
            child.claim(empty, empty.writer());
            child.claim(full, full.reader());
            full.writer().write(new byte[4096]);
            ReadEnd in = empty.reader();
            WriteEnd out = full.writer();
            Duration limit = how == Ending.TIMEOUT ? Duration.ofMillis(200) : PATIENCE;
            in.setTimeout(limit);
            out.setTimeout(limit);
            Async<Integer> reader = Async.start(true, () -> in.read(new byte[1]));
            Async<Integer> writer = Async.start(false, () -> out.write(new byte[1]));
            ShmPipeTest.awaitBlocked(empty, true);
            ShmPipeTest.awaitBlocked(full, false);
            long t0 = System.nanoTime();
            end(how, reader, in);
            end(how, writer, out);
            Class<? extends Throwable> want = switch (how) {
                case INTERRUPT -> PipeInterruptedException.class;
                case TIMEOUT -> PipeTimeoutException.class;
                case CLOSE -> AsynchronousCloseException.class;
            };
            assertThat(reader.failure()).isInstanceOf(want);
            assertThat(writer.failure()).isInstanceOf(want);
            assertThat(System.nanoTime() - t0).as("ended at once, not at a dead-peer scan or the patience")
                    .isLessThan(TimeUnit.SECONDS.toNanos(5));
            assertThat(empty.stat().writers()).as("the child still holds its end").isEqualTo(1);
            assertThat(full.stat().readers()).isEqualTo(1);
        }
    }

    private static void end(Ending how, Async<Integer> call, dev.sluice.PipeEnd end) {
        switch (how) {
            case INTERRUPT -> call.thread().interrupt();
            case TIMEOUT -> { } // the wait's own 200 ms
            case CLOSE -> end.close();
        }
    }
}
