package dev.sluice.shm;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.sluice.BrokenPipeException;
import dev.sluice.PipeInterruptedException;
import dev.sluice.PipeOptions;
import dev.sluice.PipeTimeoutException;
import dev.sluice.ReadEnd;
import dev.sluice.WriteEnd;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.AsynchronousCloseException;
import java.nio.channels.ClosedChannelException;
import java.time.Duration;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The pipe's rules with both ends in this JVM over two mappings of the same memory: the writer is the
 * creator's, the reader the attacher's, as if they were two processes.
 */
class ShmPipeTest {
    private ShmPipe a;
    private ShmPipe b;
    private WriteEnd out;
    private ReadEnd in;

    @BeforeEach
    void open() throws IOException {
        open(PipeOptions.defaults());
    }

    private void open(PipeOptions options) throws IOException {
        a = ShmPipe.create(options);
        b = ShmPipe.attach(a.path());
        a.reader().close();
        b.writer().close();
        out = a.writer();
        in = b.reader();
    }

    @AfterEach
    void close() {
        a.close();
        b.close();
    }

    @Test
    void bytesGoThroughInOrder() throws IOException {
        byte[] data = new byte[10_000];
        for (int i = 0; i < data.length; i++) {
            data[i] = (byte) (i * 31);
        }
        assertThat(out.write(data)).isEqualTo(data.length);
        byte[] got = new byte[data.length];
        int n = 0;
        while (n < got.length) {
            n += in.read(got, n, got.length - n);
        }
        assertThat(got).isEqualTo(data);
        assertThat(in.available()).isZero();
    }

    @Test
    void smallWritesMergeIntoOnePage() throws IOException {
        for (int i = 0; i < 16; i++) {
            out.write(new byte[] {(byte) i});
        }
        assertThat(a.stat().slotsUsed()).isEqualTo(1);
        assertThat(a.stat().bytesQueued()).isEqualTo(16);
        byte[] got = new byte[64];
        assertThat(in.read(got)).isEqualTo(16);
        assertThat(got[15]).isEqualTo((byte) 15);
    }

    /**
     * A read and a write meet at no shared lock: with {@code LOCK} held, as a peer changing its handles holds
     * it, a merge, a page, {@code FIONREAD} and the reads go through (each side takes only its own lock).
     */
    @ParameterizedTest
    @ValueSource(booleans = {false, true})
    void readsAndWritesDoNotWaitForTheSharedLock(boolean virtual) throws Exception {
        byte[] data = new byte[6000];
        new Random(7).nextBytes(data);
        a.control.lock();
        try {
            Async<long[]> io = Async.start(virtual, () -> {
                out.write(data, 0, 100);
                out.write(data, 100, 100); // merges
                out.write(data, 200, 5800); // 1705 bytes merge, then a slot of 4095
                long slots = a.stat().slotsUsed();
                long queued = in.available();
                byte[] got = new byte[data.length];
                for (int n = 0; n < got.length; ) {
                    n += in.read(got, n, got.length - n);
                }
                assertThat(got).isEqualTo(data);
                return new long[] {slots, queued};
            });
            assertThat(io.get()).containsExactly(2, 6000);
        } finally {
            a.control.unlock();
        }
    }

    @Test
    void endOfStreamWhenTheLastWriterAnywhereCloses() throws IOException {
        WriteEnd second = out.dup();
        out.write(new byte[] {1, 2, 3});
        out.close();
        byte[] got = new byte[8];
        assertThat(in.read(got)).isEqualTo(3);
        in.setNonBlocking(true);
        assertThat(in.read(got)).isZero(); // a writer is still open
        second.close();
        assertThat(in.read(got)).isEqualTo(-1);
        assertThat(in.poll().hungUp()).isTrue();
    }

    @Test
    void brokenPipeWhenTheLastReaderAnywhereCloses() throws IOException {
        in.close();
        assertThatThrownBy(() -> out.write(new byte[1])).isInstanceOf(BrokenPipeException.class);
        assertThat(out.poll().error()).isTrue();
        assertThat(out.write(new byte[0])).isZero(); // a null write does not look for readers
    }

    @Test
    void nonblockingWritesStoreWhatFitsAndAtomicOnesAllOrNothing() throws IOException {
        close();
        open(PipeOptions.builder().capacity(8192).build());
        out.setNonBlocking(true);
        assertThat(out.write(new byte[10_000])).isEqualTo(8192); // partial count, as Linux
        assertThat(out.write(new byte[1])).isZero(); // EAGAIN
        assertThat(out.poll().writable()).isFalse();
        byte[] got = new byte[100];
        assertThat(in.read(got)).isEqualTo(100);
        // 4096 bytes: the first page is not free yet (100 read of 4096), so nothing at all is stored
        assertThat(out.write(new byte[4096])).isZero();
        assertThat(in.read(new byte[3996])).isEqualTo(3996);
        assertThat(out.write(new byte[4096])).isEqualTo(4096);
    }

    @Test
    void blockedReaderWakesForAWrite() throws Exception {
        CompletableFuture<Integer> r = CompletableFuture.supplyAsync(() -> {
            try {
                return in.read(new byte[10]);
            } catch (IOException e) {
                throw new RuntimeException(e);
            }
        });
        awaitBlocked(b, true);
        out.write(new byte[] {7, 7});
        assertThat(r.get(10, TimeUnit.SECONDS)).isEqualTo(2);
    }

    @ParameterizedTest
    @ValueSource(booleans = {false, true})
    void timeoutsEndAWait(boolean virtual) throws Exception {
        in.setTimeout(Duration.ofMillis(50));
        Throwable t = Async.start(virtual, () -> in.read(new byte[1])).failure();
        assertThat(t).isInstanceOf(PipeTimeoutException.class);
    }

    @ParameterizedTest
    @ValueSource(booleans = {false, true})
    void interruptEndsAWaitAndKeepsTheStatus(boolean virtual) throws Exception {
        CountDownLatch started = new CountDownLatch(1);
        boolean[] status = new boolean[1];
        Thread th = (virtual ? Thread.ofVirtual() : Thread.ofPlatform()).start(() -> {
            started.countDown();
            try {
                in.read(new byte[1]);
            } catch (PipeInterruptedException e) {
                status[0] = Thread.currentThread().isInterrupted();
            } catch (IOException e) {
                throw new RuntimeException(e);
            }
        });
        started.await();
        awaitBlocked(b, true);
        th.interrupt();
        th.join(5_000);
        assertThat(th.isAlive()).isFalse();
        assertThat(status[0]).isTrue();
        assertThat(in.isOpen()).isTrue();
    }

    /**
     * A platform thread sleeps in {@code FUTEX_WAIT} itself (no watcher hand-off), and {@code interrupt()} still
     * reaches it at once, also on its next wait (an interrupt closes the thread's {@link FutexSleep}, and the
     * next sleep makes another). Without the hook the sleep would last its 5 s safety bound.
     */
    @Test
    void aPlatformThreadSleepsInTheFutexAndAnInterruptReachesItThere() throws Exception {
        assertThat(ShmPipe.DIRECT_FUTEX).as("the default").isTrue();
        in.setTimeout(Duration.ofSeconds(30));
        CountDownLatch again = new CountDownLatch(1);
        int[] interrupts = new int[1];
        Thread th = Thread.ofPlatform().name("shm-futex-sleep").start(() -> {
            for (int i = 0; i < 2; i++) {
                try {
                    in.read(new byte[1]);
                    return;
                } catch (PipeInterruptedException e) {
                    interrupts[0]++;
                    Thread.interrupted();
                    again.countDown();
                } catch (IOException e) {
                    throw new RuntimeException(e);
                }
            }
        });
        for (int round = 0; round < 2; round++) {
            awaitInFutex("shm-futex-sleep");
            assertThat(th.getState()).as("asleep in a system call").isEqualTo(Thread.State.RUNNABLE);
            long t0 = System.nanoTime();
            th.interrupt();
            if (round == 0) {
                assertThat(again.await(2, TimeUnit.SECONDS)).as("the first interrupt ends the sleep").isTrue();
            } else {
                th.join(2_000);
                assertThat(th.isAlive()).as("the second interrupt ends the second sleep").isFalse();
            }
            assertThat(System.nanoTime() - t0).as("well inside the 5 s safety bound")
                    .isLessThan(TimeUnit.SECONDS.toNanos(2));
        }
        assertThat(interrupts[0]).isEqualTo(2);
        out.write(new byte[] {1});
        assertThat(in.read(new byte[1])).as("the pipe as it was").isEqualTo(1);
    }

    /** Waits until the thread of this name is inside the {@code futex} system call (x86_64 202, aarch64 98). */
    private static void awaitInFutex(String name) throws Exception {
        String futex = System.getProperty("os.arch").equals("aarch64") ? "98 " : "202 ";
        long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        for (;;) {
            try (var tasks = java.nio.file.Files.list(java.nio.file.Path.of("/proc/self/task"))) {
                for (var t : (Iterable<java.nio.file.Path>) tasks::iterator) {
                    try {
                        if (java.nio.file.Files.readString(t.resolve("comm")).trim().equals(name)
                                && java.nio.file.Files.readString(t.resolve("syscall")).startsWith(futex)) {
                            return;
                        }
                    } catch (IOException gone) {
                        // a task that ended while we looked
                    }
                }
            }
            if (System.nanoTime() > end) {
                throw new AssertionError(name + " never slept in the futex");
            }
            Thread.sleep(1);
        }
    }

    @ParameterizedTest
    @ValueSource(booleans = {false, true})
    void closeFromAnotherThreadEndsAWait(boolean virtual) throws Exception {
        Throwable[] got = new Throwable[1];
        Thread th = (virtual ? Thread.ofVirtual() : Thread.ofPlatform()).start(() -> {
            try {
                in.read(new byte[1]);
            } catch (Throwable e) {
                got[0] = e;
            }
        });
        awaitBlocked(b, true);
        long t0 = System.nanoTime();
        in.close();
        th.join(5_000);
        assertThat(th.isAlive()).isFalse();
        assertThat(got[0]).isInstanceOf(AsynchronousCloseException.class);
        assertThat(System.nanoTime() - t0).isLessThan(TimeUnit.MILLISECONDS.toNanos(1_000));
        assertThatThrownBy(() -> in.read(new byte[1])).isInstanceOf(ClosedChannelException.class);
    }

    @Test
    void blockedWriterGetsBrokenPipeWhenTheReaderCloses() throws Exception {
        close();
        open(PipeOptions.builder().capacity(4096).build());
        Throwable[] got = new Throwable[1];
        Thread th = Thread.ofPlatform().start(() -> {
            try {
                out.write(new byte[6000]);
            } catch (Throwable e) {
                got[0] = e;
            }
        });
        awaitBlocked(a, false);
        in.close();
        th.join(5_000);
        assertThat(got[0]).isInstanceOf(BrokenPipeException.class);
        assertThat(((BrokenPipeException) got[0]).bytesTransferred()).isEqualTo(4096);
    }

    @Test
    void readinessAndFutures() throws Exception {
        assertThat(in.poll().readable()).isFalse();
        CompletableFuture<dev.sluice.Readiness> f = in.whenReady();
        assertThat(f).isNotDone();
        out.write(ByteBuffer.wrap(new byte[] {1}));
        assertThat(f.get(5, TimeUnit.SECONDS).readable()).isTrue();
        assertThat(out.poll().writable()).isTrue();
    }

    /**
     * A change made by this JVM completes a future of this JVM before the call that made it returns, through
     * whichever attachment the call and the future are (the ends here are in two attachments). Rounds, since
     * the future's own waiting thread could now and then complete it first.
     */
    @Test
    void aCallThroughAnotherAttachmentOfThisJvmCompletesFuturesBeforeItReturns() throws Exception {
        close();
        open(PipeOptions.builder().capacity(4096).build());
        for (int round = 0; round < 20; round++) {
            CompletableFuture<dev.sluice.Readiness> data = in.whenReady();
            assertThat(data).isNotDone();
            out.write(new byte[4096]);
            assertThat(data).as("round %d: the reader's future, after a write through the other attachment", round)
                    .isDone();
            CompletableFuture<dev.sluice.Readiness> room = out.whenReady();
            assertThat(room).isNotDone();
            assertThat(in.read(new byte[4096])).isEqualTo(4096);
            assertThat(room).as("round %d: the writer's future, after a read through the other attachment", round)
                    .isDone();
        }
        CompletableFuture<dev.sluice.Readiness> hangUp = in.whenReady();
        out.close();
        assertThat(hangUp).as("the reader's future, after the last writer closed").isDone();
        assertThat(hangUp.join().hungUp()).isTrue();
    }

    /**
     * A blocking call that has to wait counts as a wait however the wait ends: in the spin (the other side made
     * room or data a moment later) or asleep. Which of the two happens is the scheduler's choice, so counting
     * only sleeps made writerWaits a coin toss (core's Rule01 asks a writer of 1 MiB into 64 KiB to have
     * waited). Here the wait ends in its first spin, as the pipe already has room.
     */
    @Test
    void aWaitThatEndsSpinningIsCounted() throws IOException {
        ShmEnd w = (ShmEnd) out;
        ShmEnd r = (ShmEnd) in;
        a.await(w, false, w.deadline(), 0, "write to a full pipe");
        out.write(new byte[1]);
        b.await(r, true, r.deadline(), 0, "read from an empty pipe");
        assertThat(a.counters().writerWaits()).isEqualTo(1);
        assertThat(b.counters().readerWaits()).isEqualTo(1);
    }

    /**
     * A sleeping side is woken once per pass of the other side, when the pass ends, as {@code pipe_write()} and
     * {@code pipe_read()} wake once per call. A 1 MiB write into the empty ring publishes every 16 KiB as it
     * goes, which a spinning reader sees, but a reader asleep is woken once, after the last page, and takes the
     * whole megabyte in one read; a 1 MiB read from the full ring gives back every 16 KiB, and the writer asleep
     * on it is woken once and refills the ring in one pass: one wait. Woken at the first 16 KiB instead, as
     * before, the sleeper ran while the other side still copied (a wake-up takes longer than 16 KiB's copy, not
     * than a megabyte's), took part and slept again. The counters count {@code FUTEX_WAKE} calls to sleepers.
     */
    @ParameterizedTest
    @ValueSource(booleans = {false, true})
    void aSleepingSideIsWokenOncePerPassOfTheOther(boolean virtual) throws Exception {
        close();
        int mib = 1 << 20;
        open(PipeOptions.builder().capacity(mib).spinBeforePark(Duration.ZERO).build()); // waits sleep at once
        byte[] data = new byte[mib];
        new java.util.Random(17).nextBytes(data);
        Async<byte[]> reader = Async.start(virtual, () -> {
            byte[] got = new byte[mib];
            return java.util.Arrays.copyOf(got, in.read(got));
        });
        awaitAsleep(b, true);
        awaitParked(reader, virtual);
        out.write(data);
        byte[] took = reader.get();
        assertThat(took.length).as("bytes the woken reader took in its one read").isEqualTo(mib);
        assertThat(took).isEqualTo(data);
        assertThat(a.counters().readerWakeups()).as("FUTEX_WAKE calls to the reader").isEqualTo(1);
        assertThat(b.counters().readerWaits()).isEqualTo(1);

        out.write(data); // fills the ring; no one waits, so no wake-up
        Async<Integer> writer = Async.start(virtual, () -> {
            out.write(data);
            return 0;
        });
        awaitAsleep(a, false);
        awaitParked(writer, virtual);
        byte[] got = new byte[mib];
        assertThat(in.read(got)).isEqualTo(mib);
        writer.get();
        assertThat(b.counters().writerWakeups()).as("FUTEX_WAKE calls to the writer").isEqualTo(1);
        assertThat(a.counters().writerWaits()).as("the writer's waits: woken once, it wrote the rest in one pass")
                .isEqualTo(1);
        assertThat(a.counters().readerWakeups()).isEqualTo(1);
        assertThat(in.read(got)).isEqualTo(mib);
        assertThat(got).isEqualTo(data);
    }

    /**
     * A watcher woken with no waiter that takes bytes passes the wake-up on. A {@code whenReady()} future's
     * watcher, asleep on the data word before a blocked reader, took the one thread {@code FUTEX_WAKE(1)} woke:
     * it completed the future, and the reader slept on until its 5 s safety bound (the shm run of core's
     * {@code Rule12ReadinessTest} took 5 s a case) or its timeout. Here the timeout is 4 s, and a read that
     * returns only after 2 s (it takes milliseconds when woken) was not woken by the write.
     */
    @ParameterizedTest
    @ValueSource(booleans = {false, true})
    void aWriteWakesABlockedReaderBesideAFuturesWatcher(boolean virtual) throws Exception {
        CompletableFuture<dev.sluice.Readiness> ready = in.whenReady();
        awaitAsleep(b, true, 1);
        Async<long[]> reader = timedRead(virtual);
        awaitBlocked(b, true);
        if (!virtual) {
            awaitAsleep(b, true, 2); // the platform reader sleeps in the futex itself, behind the watcher
        }
        writeAndAssertWoken(reader, new byte[] {1, 2, 3});
        out.write(new byte[] {4}); // the reader may have taken the bytes before the future looked: readiness is now
        assertThat(ready.get(10, TimeUnit.SECONDS).readable()).isTrue();
    }

    /**
     * A data watcher lingers a few slices after its last waiter left, asleep on the word, and the wake-up a
     * write sends to one sleeper may reach it first: it passes it on, so the platform reader asleep behind it
     * is woken by the write, not by its 4 s timeout. Skipped in the rare run where the watcher has ended (it
     * lingers about 300 ms) before the reader sleeps.
     */
    @Test
    void aLingeringWatcherPassesTheWakeUpOn() throws Exception {
        CompletableFuture<dev.sluice.Readiness> ready = in.whenReady();
        awaitAsleep(b, true, 1);
        out.write(new byte[] {1});
        assertThat(ready.get(10, TimeUnit.SECONDS).readable()).isTrue();
        assertThat(in.read(new byte[1])).isEqualTo(1); // the future's watcher now lingers with no waiter
        Async<long[]> reader = timedRead(false);
        awaitBlocked(b, true);
        long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(1);
        long seen;
        while ((seen = asleep(b, true)) < 2 && System.nanoTime() < end) {
            Thread.sleep(1);
        }
        // (skipped, the close after the test ends the read)
        org.junit.jupiter.api.Assumptions.assumeTrue(seen >= 2, "the watcher ended before the reader slept");
        writeAndAssertWoken(reader, new byte[] {2, 3});
    }

    /** A read of up to 8 bytes with a 4 s timeout, started now: what it returned, and when. */
    private Async<long[]> timedRead(boolean virtual) {
        in.setTimeout(Duration.ofSeconds(4));
        return Async.start(virtual, () -> new long[] {in.read(new byte[8]), System.nanoTime()});
    }

    /** Writes {@code bytes}; the timed read must take them, woken by the write, not by its timeout. */
    private void writeAndAssertWoken(Async<long[]> read, byte[] bytes) throws Exception {
        long wrote = System.nanoTime();
        out.write(bytes);
        long[] got = read.get();
        assertThat(got[0]).isEqualTo(bytes.length);
        assertThat(Duration.ofNanos(got[1] - wrote)).as("the read's return after the write: woken by it, not by"
                + " its 4 s timeout").isLessThan(Duration.ofSeconds(2));
    }

    /**
     * The options' {@code spinBeforePark} is how long a wait may spin before it sleeps (it was a fixed 30 µs);
     * an attachment that joins takes the system default. Which of the two ends a given wait is the scheduler's
     * choice, so this looks at what each attachment was given.
     */
    @Test
    void spinBeforeParkIsTheOptionsAndAJoinerTakesTheDefault() throws Exception {
        close();
        open(PipeOptions.builder().spinBeforePark(Duration.ofNanos(700_000)).build());
        boolean canSpin = Runtime.getRuntime().availableProcessors() > 1;
        assertThat(a.spinNanos()).isEqualTo(canSpin ? 700_000 : 0);
        assertThat(b.spinNanos()).isEqualTo(canSpin ? PipeOptions.defaults().spinBeforePark().toNanos() : 0);
        close();
        open(PipeOptions.builder().spinBeforePark(Duration.ZERO).build());
        assertThat(a.spinNanos()).isZero();
    }

    @Test
    void capacityIsFixed() {
        assertThat(a.capacity()).isEqualTo(65536);
        assertThat(a.setCapacity(65536)).isEqualTo(65536);
        assertThatThrownBy(() -> a.setCapacity(1 << 20)).isInstanceOf(UnsupportedOperationException.class);
    }

    @Test
    void statCountsEveryProcessHandles() {
        assertThat(a.stat().readers()).isEqualTo(1);
        assertThat(a.stat().writers()).isEqualTo(1);
    }

    /** Waits until a thread of this JVM is blocked on the pipe's side (the count the waker reads). */
    /**
     * Waits until a thread of this JVM sleeps in {@code FUTEX_WAIT} on the pipe's data (or room) word: the
     * sleeper itself, or the watcher that sleeps for a virtual one ({@code /proc/self/task/<tid>/syscall} names
     * the call and its first argument, the word's address). {@link #awaitBlocked} sees the waiter counted, which
     * it is a moment before it sleeps, and a change in that moment ends the wait without a sleep.
     */
    static void awaitAsleep(ShmPipe p, boolean read) throws Exception {
        awaitAsleep(p, read, 1);
    }

    /** As {@link #awaitAsleep(ShmPipe, boolean)}, until {@code threads} threads sleep there. */
    static void awaitAsleep(ShmPipe p, boolean read, int threads) throws Exception {
        long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (asleep(p, read) < threads) {
            if (System.nanoTime() > end) {
                throw new AssertionError("fewer than " + threads + " threads asleep on the word");
            }
            Thread.sleep(1);
        }
    }

    /** {@return how many threads of this JVM sleep in {@code FUTEX_WAIT} on the pipe's data (or room) word} */
    static long asleep(ShmPipe p, boolean read) throws IOException {
        String call = Native.SYS_FUTEX + " 0x" + Long.toHexString(p.region.base
                + (read ? Layout.DATA_SEQ : Layout.ROOM_SEQ)) + " ";
        try (var tasks = java.nio.file.Files.list(java.nio.file.Path.of("/proc/self/task"))) {
            return tasks.filter(t -> {
                try {
                    return java.nio.file.Files.readString(t.resolve("syscall")).startsWith(call);
                } catch (IOException e) {
                    return false; // the thread has ended
                }
            }).count();
        }
    }

    /**
     * Waits until a virtual waiter has parked. Its watcher sleeps in the futex as soon as the waiter registers,
     * before the waiter's last look at the pipe: a change made in between (a page published mid-pass) is seen
     * by that look, and the waiter takes it instead of sleeping. A platform waiter sleeps in the futex itself,
     * after that look, which {@link #awaitAsleep} sees.
     */
    static void awaitParked(Async<?> waiter, boolean virtual) throws InterruptedException {
        long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (virtual && waiter.thread().getState() != Thread.State.TIMED_WAITING
                && waiter.thread().getState() != Thread.State.WAITING) {
            if (System.nanoTime() > end) {
                throw new AssertionError("the virtual waiter did not park: " + waiter.thread().getState());
            }
            Thread.sleep(1);
        }
    }

    static void awaitBlocked(ShmPipe p, boolean read) throws InterruptedException {
        long word = read ? Layout.DATA_WAITERS : Layout.ROOM_WAITERS;
        long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (p.region.getInt(word) == 0) {
            if (System.nanoTime() > end) {
                throw new AssertionError("no thread blocked");
            }
            Thread.sleep(1);
        }
    }
}
