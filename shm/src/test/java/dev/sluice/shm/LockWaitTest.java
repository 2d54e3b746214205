package dev.sluice.shm;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.kernel.KernelProcess;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import org.junit.jupiter.api.Test;

/**
 * Waits for the shm futex locks ({@code LOCK}, {@code READ_LOCK}, {@code WRITE_LOCK}): a virtual thread that
 * finds one held must park, freeing its carrier, not sit in {@code FUTEX_WAIT} (which pins it: enough such
 * waiters take every carrier from a virtual holder); the unlocker's wake-up must still reach it; and the lock
 * must stay a lock with platform and virtual waiters mixed.
 */
class LockWaitTest {
    private static final long[] WORDS = {Layout.LOCK, Layout.READ_LOCK, Layout.WRITE_LOCK};
    private static final long PATIENCE_NANOS = TimeUnit.SECONDS.toNanos(10);

    /**
     * Before virtual lock waiters parked, they were RUNNABLE for the whole wait (in the futex, or yielding
     * between 1 ms slices of it): this test then never saw them all parked and failed at its bound.
     */
    @Test
    void virtualWaitersParkInsteadOfPinningACarrierAndTheUnlockReachesThem() throws Exception {
        try (ShmPipe p = ShmPipe.create()) {
            Control c = p.control;
            int n = 2 * Runtime.getRuntime().availableProcessors() + 2; // more waiters than carriers
            for (long word : WORDS) {
                c.lock(word); // held by this platform thread
                ConcurrentLinkedQueue<Throwable> failures = new ConcurrentLinkedQueue<>();
                List<Thread> waiters = new ArrayList<>();
                for (int i = 0; i < n; i++) {
                    waiters.add(Thread.ofVirtual().start(() -> {
                        try {
                            c.lock(word);
                            c.unlock(word);
                        } catch (Throwable t) {
                            failures.add(t);
                        }
                    }));
                }
                assertThat(allParked(waiters)).as("every virtual waiter of word %d parked at once", word).isTrue();
                // With every waiter parked, the carriers are free: another virtual thread runs.
                Thread other = Thread.ofVirtual().start(() -> { });
                assertThat(other.join(java.time.Duration.ofSeconds(10))).isTrue();
                c.unlock(word);
                for (Thread t : waiters) {
                    assertThat(t.join(java.time.Duration.ofSeconds(10))).as("waiter took and left the lock").isTrue();
                }
                assertThat(failures).isEmpty();
                assertThat(p.region.getInt(word)).isZero();
            }
        }
    }

    /** Polls the waiters' states until they are all WAITING or TIMED_WAITING at once, for up to 10 s. */
    private static boolean allParked(List<Thread> threads) {
        long start = System.nanoTime();
        while (System.nanoTime() - start < PATIENCE_NANOS) {
            boolean all = true;
            for (Thread t : threads) {
                Thread.State s = t.getState();
                all &= s == Thread.State.WAITING || s == Thread.State.TIMED_WAITING;
            }
            if (all) {
                return true;
            }
            LockSupport.parkNanos(100_000); // a polling pace, not a condition
        }
        return false;
    }

    /** Mutual exclusion and no lost wake-up, with platform threads in the futex and virtual ones parked. */
    @Test
    void platformAndVirtualWaitersShareEachLock() throws Exception {
        try (ShmPipe p = ShmPipe.create()) {
            Control c = p.control;
            int rounds = 2_000;
            for (long word : WORDS) {
                int[] inside = new int[2]; // [0] threads inside now, [1] entries counted plainly under the lock
                ConcurrentLinkedQueue<Throwable> failures = new ConcurrentLinkedQueue<>();
                List<Thread> threads = new ArrayList<>();
                for (int i = 0; i < 6; i++) {
                    Thread.Builder b = i % 2 == 0 ? Thread.ofPlatform() : Thread.ofVirtual();
                    threads.add(b.start(() -> {
                        try {
                            for (int k = 0; k < rounds; k++) {
                                c.lock(word);
                                try {
                                    if (++inside[0] != 1) {
                                        failures.add(new AssertionError("two threads inside the lock"));
                                    }
                                    inside[1]++;
                                    if (k % 64 == 0) {
                                        Thread.yield(); // sometimes hold it while others arrive
                                    }
                                    inside[0]--;
                                } finally {
                                    c.unlock(word);
                                }
                            }
                        } catch (Throwable t) {
                            failures.add(t);
                        }
                    }));
                }
                for (Thread t : threads) {
                    assertThat(t.join(java.time.Duration.ofSeconds(60))).as("no lost wake-up").isTrue();
                }
                assertThat(failures).isEmpty();
                c.lock(word); // its unlocks published the plain counts
                try {
                    assertThat(inside[1]).isEqualTo(6 * rounds);
                } finally {
                    c.unlock(word);
                }
            }
        }
    }

    /** A virtual waiter takes over a lock whose owner died holding it, as a platform one does. */
    @Test
    void aVirtualWaiterTakesOverALockHeldByADeadProcess() throws Exception {
        KernelProcess dead = KernelProcess.command("sleep", "60").start();
        long deadId = Procs.idOf(dead.pid());
        dead.destroyForcibly();
        dead.waitFor();
        try (ShmPipe p = ShmPipe.create()) {
            p.control.invite(deadId, 1L << 32);
            int entry = ProcTable.entryOf(p, deadId);
            p.region.setInt(Layout.WRITE_LOCK, ProcTable.ownerToken(p, entry)); // as if killed mid-write
            ConcurrentLinkedQueue<Throwable> failures = new ConcurrentLinkedQueue<>();
            Thread v = Thread.ofVirtual().start(() -> {
                try {
                    p.control.lock(Layout.WRITE_LOCK);
                    p.control.unlock(Layout.WRITE_LOCK);
                } catch (Throwable t) {
                    failures.add(t);
                }
            });
            assertThat(v.join(java.time.Duration.ofSeconds(10))).isTrue();
            assertThat(failures).isEmpty();
            assertThat(p.region.getInt(Layout.WRITE_LOCK)).isZero();
            assertThat(p.region.getLong(Layout.entry(entry) + Layout.E_ID)).as("the dead reclaimed").isZero();
        }
    }
}
