package dev.sluice.shm;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.sluice.BrokenPipeException;
import dev.sluice.PipeOptions;
import dev.sluice.ReadEnd;
import dev.sluice.WriteEnd;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A side waiting on a live but idle peer costs no wake-ups (so no CPU), and still learns at once that the peer
 * was killed with -9, including a peer that joined while it slept.
 *
 * <p>Wake-ups are counted as the kernel counts them: a thread's {@code voluntary_ctxt_switches}
 * ({@code /proc/self/task/<tid>/status}), one per return from a sleep that blocked, summed over this JVM's
 * threads whose names start with {@code sluice-shm} (the watchers, the peer watch and the waiting thread,
 * named so here). A watcher waking every 100 ms to look for dead peers makes about ten a second.
 *
 * <p>Each test ends with this JVM's descriptors back where they were: the peer watch's pidfds and eventfd are
 * closed once the pipes it watched are.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class IdleWaitTest {
    /** Wake-ups allowed in {@link #IDLE}: a slice that was already running when the count began, and slack. */
    private static final int MOST_WAKEUPS = 3;
    private static final Duration IDLE = Duration.ofSeconds(1);
    private long fdsBefore;

    @BeforeAll
    static void warmUp() throws IOException {
        // What a JVM opens once for its first child (the KernelProcess poller) is open before the first count.
        ChildJvm.serve().close();
    }

    @BeforeEach
    void countDescriptors() throws IOException {
        fdsBefore = descriptors();
    }

    @AfterEach
    void noDescriptorLeft() throws Exception {
        // The peer watch closes its descriptors on its own thread, and a child's pidfd is closed by the thread
        // that reaps it: a moment after the pipe is closed.
        long end = System.nanoTime() + ChildJvm.PATIENCE.toNanos();
        while (descriptors() != fdsBefore && System.nanoTime() < end) {
            Thread.sleep(10);
        }
        assertThat(descriptors()).as("this JVM's descriptors after closing everything").isEqualTo(fdsBefore);
    }

    private static long descriptors() throws IOException {
        try (Stream<Path> fds = Files.list(Path.of("/proc/self/fd"))) {
            return fds.count();
        }
    }

    @Test
    void aBlockedWriterSleepsWithoutWakingAndGetsBrokenPipeWhenTheReaderIsKilled() throws Exception {
        try (ShmPipe p = ShmPipe.create(PipeOptions.builder().capacity(4096).build());
             ChildJvm c = ChildJvm.start("stall", p.path().toString())) {
            // Full, so the next write waits for room the stalled reader never makes; the peer watch holds the
            // reader's pidfd before the count begins (a loaded machine may take a moment to run its first look).
            Async<Integer> blocked = blockedWriter(p, c);

            assertThat(wakeupsWhileIdle()).as("wake-ups of the shm threads in %s of waiting", IDLE)
                    .isLessThanOrEqualTo(MOST_WAKEUPS);

            long t0 = System.nanoTime();
            c.kill();
            assertThatThrownBy(blocked::get).isInstanceOf(BrokenPipeException.class);
            assertThat(System.nanoTime() - t0).isLessThan(TimeUnit.SECONDS.toNanos(2));
            assertThat(p.stat().readers()).isZero();
        }
    }

    @Test
    void aPeerThatJoinsWhileTheReaderSleepsIsWatchedToo() throws Exception {
        try (ShmPipe p = ShmPipe.create()) {
            ReadEnd in = p.reader();
            in.setTimeout(ChildJvm.PATIENCE);
            Async<Integer> blocked = named(() -> in.read(new byte[1]));
            ShmPipeTest.awaitBlocked(p, true);
            try (ChildJvm c = ChildJvm.start("hold", p.path().toString())) {
                assertThat(c.reply()).isEqualTo("attached 2"); // it joined while the read slept
                p.writer().close(); // the child's write handle is the only one left: nothing wakes the reader
                assertThat(p.stat().writers()).isEqualTo(1);
                Thread.sleep(200);
                assertThat(blocked.isDone()).isFalse();

                long t0 = System.nanoTime();
                c.kill();
                assertThat(blocked.get()).isEqualTo(-1);
                assertThat(System.nanoTime() - t0).as("end-of-stream after the kill, not at a long safety bound")
                        .isLessThan(TimeUnit.SECONDS.toNanos(2));
                assertThat(p.stat().writers()).isZero();
            }
        }
    }

    @Test
    void aPipeWhoseLockALivePeerKeepsDoesNotHoldUpTheWatchOfAnother() throws Exception {
        try (ShmPipe a = ShmPipe.create(PipeOptions.builder().capacity(4096).build());
             ShmPipe b = ShmPipe.create(PipeOptions.builder().capacity(4096).build());
             ChildJvm ca = ChildJvm.start("stall", a.path().toString());
             ChildJvm cb = ChildJvm.start("stall", b.path().toString())) {
            Async<Integer> wa = blockedWriter(a, ca);
            Async<Integer> wb = blockedWriter(b, cb);
            a.control.lock(); // as a peer stopped (SIGSTOP) while holding it would: a's reclaim waits for it
            try {
                ca.kill();
                Thread.sleep(200); // the watch has seen it, and a's reclaim waits on the lock
                assertThat(wa.isDone()).isFalse();
                long t0 = System.nanoTime();
                cb.kill();
                assertThatThrownBy(wb::get).isInstanceOf(BrokenPipeException.class);
                assertThat(System.nanoTime() - t0).as("b's broken pipe, while a's reclaim waits")
                        .isLessThan(TimeUnit.SECONDS.toNanos(2));
            } finally {
                a.control.unlock();
            }
            assertThatThrownBy(wa::get).isInstanceOf(BrokenPipeException.class);
        }
    }

    /** Hands {@code p}'s read end to the stalled child {@code c}, fills {@code p}, and blocks a write on it. */
    private static Async<Integer> blockedWriter(ShmPipe p, ChildJvm c) throws Exception {
        p.handOver(p.reader(), c.handle());
        ChildJvm.awaitClaimed(p);
        WriteEnd out = p.writer();
        out.setTimeout(ChildJvm.PATIENCE);
        out.write(new byte[4096]);
        Async<Integer> blocked = named(() -> out.write(new byte[1]));
        ShmPipeTest.awaitBlocked(p, false);
        long end = System.nanoTime() + ChildJvm.PATIENCE.toNanos();
        while (!p.peersWatched() && System.nanoTime() < end) {
            Thread.sleep(5);
        }
        assertThat(p.peersWatched()).as("the peer watch holds the child's pidfd").isTrue();
        return blocked;
    }

    @Test
    void withoutPidfdsTheWaitersLookForTheDeadThemselves() throws Exception {
        PeerWatch.available(false); // as on a kernel before 5.3
        try (ShmPipe p = ShmPipe.create(PipeOptions.builder().capacity(4096).build());
             ChildJvm c = ChildJvm.start("stall", p.path().toString())) {
            p.handOver(p.reader(), c.handle());
            ChildJvm.awaitClaimed(p);
            WriteEnd out = p.writer();
            out.setTimeout(ChildJvm.PATIENCE);
            out.write(new byte[4096]);
            Async<Integer> blocked = named(() -> out.write(new byte[1]));
            ShmPipeTest.awaitBlocked(p, false);
            Thread.sleep(300);
            assertThat(p.peersWatched()).isFalse();

            long t0 = System.nanoTime();
            c.kill();
            assertThatThrownBy(blocked::get).isInstanceOf(BrokenPipeException.class);
            assertThat(System.nanoTime() - t0).isLessThan(TimeUnit.SECONDS.toNanos(2));
        } finally {
            PeerWatch.available(true);
        }
    }

    /** Runs {@code call} on a platform thread whose name the wake-up count includes. */
    private static <T> Async<T> named(Async.Call<T> call) {
        return Async.start(false, () -> {
            Thread.currentThread().setName("sluice-shm-test-waiter"); // only the thread itself renames its task
            return call.call();
        });
    }

    /**
     * @return the wake-ups of this JVM's shm threads in {@link #IDLE}, counted over threads that lived through
     *         it, after a short settling (a watcher may finish the slice it began before the wait was set up)
     */
    private static long wakeupsWhileIdle() throws Exception {
        Thread.sleep(300);
        Map<Long, Long> before = switches();
        Thread.sleep(IDLE.toMillis());
        Map<Long, Long> after = switches();
        assertThat(before.keySet()).as("shm threads").isNotEmpty();
        long sum = 0;
        for (Map.Entry<Long, Long> e : after.entrySet()) {
            Long was = before.get(e.getKey());
            if (was != null) {
                sum += e.getValue() - was;
            }
        }
        return sum;
    }

    /** @return voluntary context switches by thread id, of the threads whose names start with sluice-shm */
    private static Map<Long, Long> switches() throws IOException {
        Map<Long, Long> m = new HashMap<>();
        try (Stream<Path> tasks = Files.list(Path.of("/proc/self/task"))) {
            for (Path t : (Iterable<Path>) tasks::iterator) {
                try {
                    // The kernel keeps the first 15 bytes of a thread's name.
                    if (!Files.readString(t.resolve("comm")).startsWith("sluice-shm")) {
                        continue;
                    }
                    for (String line : Files.readAllLines(t.resolve("status"))) {
                        if (line.startsWith("voluntary_ctxt_switches:")) {
                            m.put(Long.parseLong(t.getFileName().toString()),
                                    Long.parseLong(line.substring(line.indexOf(':') + 1).trim()));
                        }
                    }
                } catch (NoSuchFileException gone) {
                    // the thread ended between the listing and the read
                }
            }
        }
        return m;
    }
}
