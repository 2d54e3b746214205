package dev.sluice.shm;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.BrokenPipeException;
import dev.sluice.PipeEnd;
import dev.sluice.PipeOptions;
import dev.sluice.WriteEnd;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.IntStream;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.RepeatedTest;
import org.junit.jupiter.api.RepetitionInfo;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Several writer processes and reader processes on one packet-mode pipe, with a writer and a reader thread in
 * this JVM too: numbered records of 12 to 4096 bytes (one atomic write, one packet each) must each reach
 * exactly one reader, whole, each writer's in order. Then writers and readers killed with SIGKILL mid-stream.
 * Every test ends with this JVM's descriptors and memfd mappings back where they were.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class CrossProcessStressTest {
    private final List<ChildJvm> children = new ArrayList<>();
    private Usage before;

    /** Open descriptors and mappings of shared pipes' memfds in this JVM. */
    record Usage(long fds, long memfdMappings) {
        static Usage now() throws IOException {
            try (Stream<Path> fds = Files.list(Path.of("/proc/self/fd"));
                 Stream<String> maps = Files.lines(Path.of("/proc/self/maps"))) {
                return new Usage(fds.count(), maps.filter(m -> m.contains("/memfd:sluice-shm")).count());
            }
        }
    }

    @BeforeAll
    static void warmUp() throws IOException {
        // What a JVM opens once for its first child (the KernelProcess poller) is open before the first count.
        ChildJvm.serve().close();
    }

    @BeforeEach
    void count() throws IOException {
        before = Usage.now();
    }

    /** Closes (kills and reaps) every child, then checks that nothing of this JVM's is left open. */
    @AfterEach
    void nothingLeaks() throws Exception {
        children.forEach(ChildJvm::close);
        // A child's pidfd is closed by the poller thread that reaps it, a moment after it exits.
        long end = System.nanoTime() + ChildJvm.PATIENCE.toNanos();
        while (!Usage.now().equals(before) && System.nanoTime() < end) {
            Thread.sleep(10);
        }
        assertThat(Usage.now()).as("descriptors and memfd mappings after closing everything").isEqualTo(before);
    }

    private static ShmPipe packetPipe(int pages) throws IOException {
        ShmPipe p = ShmPipe.create(PipeOptions.builder().capacity(pages * 4096).packetMode(true).build());
        p.reader().setTimeout(ChildJvm.PATIENCE);
        p.writer().setTimeout(ChildJvm.PATIENCE);
        return p;
    }

    /** Starts a child and hands it a duplicate of {@code end}. */
    private ChildJvm child(ShmPipe p, PipeEnd end, String... args) throws IOException {
        ChildJvm c = ChildJvm.start(args);
        children.add(c);
        p.handOver(end.dup(), c.handle());
        return c;
    }

    private ChildJvm writer(ShmPipe p, int id, int count) throws IOException {
        return child(p, p.writer(), "write", p.path().toString(), String.valueOf(id), String.valueOf(count), "packet");
    }

    private ChildJvm reader(ShmPipe p) throws IOException {
        return child(p, p.reader(), "read", p.path().toString());
    }

    /** This JVM's writer: {@code count} records (-1: until broken pipe) as {@code id}, then closes its handle. */
    private static Async<Throwable> localWriter(ShmPipe p, int id, long count, AtomicLong written) {
        return Async.start(true, () -> {
            try (WriteEnd out = p.writer()) {
                for (int seq = 0; count < 0 || seq < count; seq++) {
                    out.write(Records.make(id, seq));
                    written.incrementAndGet();
                }
            } catch (BrokenPipeException e) {
                return e;
            }
            return null;
        });
    }

    /** Waits (not past the children's patience) until {@code n} is at least {@code least}. */
    private static void awaitAtLeast(AtomicLong n, long least) throws InterruptedException {
        long end = System.nanoTime() + ChildJvm.PATIENCE.toNanos();
        while (n.get() < least) {
            if (System.nanoTime() > end) {
                throw new AssertionError("stuck at " + n.get() + " of " + least);
            }
            Thread.sleep(1);
        }
    }

    /** @return the tallies of the reader children, each having read to end-of-stream and exited 0 */
    private static List<Records.Tally> tallies(List<ChildJvm> readers) throws IOException {
        List<Records.Tally> all = new ArrayList<>();
        for (ChildJvm r : readers) {
            all.add(Records.Tally.parse(r.linesUntil("end")));
            assertThat(r.exitCode()).as("reader child (%d: a bad record)", Child.EXIT_BAD_RECORD).isZero();
        }
        return all;
    }

    private static void assertComplete(Map<Integer, BitSet> got, int writer, int count) {
        assertThat(got.get(writer)).as("writer %d's records", writer).isNotNull();
        assertThat(got.get(writer).cardinality()).as("writer %d's records", writer).isEqualTo(count);
        assertThat(got.get(writer).nextClearBit(0)).as("writer %d's first missing record", writer).isEqualTo(count);
    }

    @Test
    void writerAndReaderProcessesAndThreadsLoseDuplicateAndTearNothing() throws Exception {
        stress(3, 2, 5_000);
    }

    @Test
    @Tag("slow")
    void manyMoreRecordsThroughMoreProcesses() throws Exception {
        stress(6, 4, 100_000);
    }

    private void stress(int writerProcesses, int readerProcesses, int perWriter) throws Exception {
        try (ShmPipe p = packetPipe(16)) {
            List<ChildJvm> writers = new ArrayList<>();
            for (int w = 1; w <= writerProcesses; w++) {
                writers.add(writer(p, w, perWriter));
            }
            List<ChildJvm> readers = new ArrayList<>();
            for (int r = 0; r < readerProcesses; r++) {
                readers.add(reader(p));
            }
            Async<Throwable> local = localWriter(p, 0, perWriter, new AtomicLong());
            Async<Records.Tally> localReader = Async.start(false,
                    () -> Records.Tally.readPackets(p.reader(), t -> { }));
            assertThat(local.get()).isNull();
            List<Records.Tally> all = tallies(readers);
            all.add(localReader.get());
            for (ChildJvm w : writers) {
                assertThat(w.exitCode()).isZero();
            }
            Map<Integer, BitSet> got = Records.Tally.union(all); // fails at any record read twice
            assertThat(got.keySet()).containsExactlyElementsOf(IntStream.rangeClosed(0, writerProcesses).boxed()
                    .toList());
            for (int w = 0; w <= writerProcesses; w++) {
                assertComplete(got, w, perWriter);
            }
        }
    }

    @Test
    void aWriterKilledMidStreamLeavesWholeRecordsThenEndOfStream() throws Exception {
        killAWriter(50);
    }

    /** The kill lands at another moment of the victim's write each time. */
    @RepeatedTest(20)
    @Tag("slow")
    void writersKilledAtManyMoments(RepetitionInfo run) throws Exception {
        killAWriter(1 + run.getCurrentRepetition() * 37 % 400);
    }

    @Test
    void readersKilledOneByOneLeaveTheWritersBrokenPipeNotHung() throws Exception {
        killTheReaders();
    }

    @RepeatedTest(10)
    @Tag("slow")
    void readersKilledAgainAndAgain() throws Exception {
        killTheReaders();
    }

    /** Kills a writer child once this JVM's reader has read {@code some} of its records. */
    private void killAWriter(int some) throws Exception {
        int perWriter = 800;
        int victim = 9;
        try (ShmPipe p = packetPipe(16)) {
            ChildJvm killed = writer(p, victim, -1);
            writer(p, 1, perWriter);
            writer(p, 2, perWriter);
            List<ChildJvm> readers = List.of(reader(p), reader(p));
            CountDownLatch someOfTheVictims = new CountDownLatch(1);
            Async<Records.Tally> localReader = Async.start(false, () -> Records.Tally.readPackets(p.reader(), t -> {
                if (t.count(victim) >= some) {
                    someOfTheVictims.countDown();
                }
            }));
            Async<Throwable> local = localWriter(p, 0, perWriter, new AtomicLong());
            assertThat(someOfTheVictims.await(ChildJvm.PATIENCE.toMillis(), TimeUnit.MILLISECONDS)).isTrue();
            killed.kill(); // SIGKILL, mid-stream: it is copying a record, waiting for room or for the lock
            assertThat(killed.exitCode()).isEqualTo(128 + 9);
            assertThat(local.get()).isNull();
            // End-of-stream once the other writers have closed and the dead one's handle is reclaimed.
            List<Records.Tally> all = tallies(readers);
            all.add(localReader.get());
            Map<Integer, BitSet> got = Records.Tally.union(all);
            for (int w = 0; w <= 2; w++) {
                assertComplete(got, w, perWriter);
            }
            BitSet dead = got.get(victim);
            assertThat(dead.cardinality()).isGreaterThanOrEqualTo(some);
            assertThat(dead.nextClearBit(0)).as("the dead writer's records: those it published, with no gap")
                    .isEqualTo(dead.cardinality());
            assertThat(p.stat().writers()).isZero();
        }
    }

    private void killTheReaders() throws Exception {
        try (ShmPipe p = packetPipe(4)) {
            ChildJvm first = reader(p);
            ChildJvm last = reader(p);
            p.reader().close(); // the children hold every read handle
            ChildJvm otherWriter = writer(p, 1, -1);
            // Joined before the readers die: once they have, this JVM's writer gets broken pipe and closes the
            // last handle here, which closes the memfd a child still starting could no longer open.
            ChildJvm.awaitClaimed(p);
            AtomicLong written = new AtomicLong();
            Async<Throwable> local = localWriter(p, 0, -1, written);
            awaitAtLeast(written, 200);
            first.kill();
            long then = written.get();
            awaitAtLeast(written, then + 200); // the other reader still takes what the writers write
            last.kill();
            assertThat(local.get()).as("this JVM's writer, once no reader is left").isInstanceOf(
                    BrokenPipeException.class);
            assertThat(otherWriter.exitCode()).as("the writer child's exit status (EPIPE: %d)", Child.EXIT_EPIPE)
                    .isEqualTo(Child.EXIT_EPIPE);
            assertThat(p.stat().readers()).isZero();
        }
    }
}
