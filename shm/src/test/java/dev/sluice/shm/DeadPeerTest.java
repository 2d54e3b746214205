package dev.sluice.shm;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.BrokenPipeException;
import dev.sluice.PipeOptions;
import dev.sluice.kernel.KernelProcess;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * What a process killed at the worst moment leaves behind, made exactly: the table entry of a dead process
 * holding a handle, and the lock held by it. The cross-process tests kill real peers; these set the state a
 * kill would leave, so the recovery is tested every run whatever the kill happened to interrupt.
 */
class DeadPeerTest {
    private static long deadId;

    @BeforeAll
    static void aDeadProcess() throws Exception {
        KernelProcess p = KernelProcess.command("sleep", "60").start();
        deadId = Procs.idOf(p.pid());
        assertThat(deadId).isNotZero();
        p.destroyForcibly();
        p.waitFor();
        assertThat(Procs.alive(deadId)).isFalse();
    }

    @Test
    void aProcessThatExitedHasNoPidLeft() throws Exception {
        Process sleeper = new ProcessBuilder("sleep", "60").start();
        try {
            long id = Procs.idOf(sleeper.pid());
            assertThat(id).isNotZero();
            assertThat(Procs.pidExists(id)).as("running").isTrue();
            assertThat(Procs.alive(id)).isTrue();
            // The same pid with another start time: the cheap look cannot tell, the full one can.
            long reused = id ^ (1L << Procs.PID_BITS);
            assertThat(Procs.pidExists(reused)).isTrue();
            assertThat(Procs.alive(reused)).isFalse();
        } finally {
            sleeper.destroyForcibly();
            assertThat(sleeper.waitFor(10, TimeUnit.SECONDS)).isTrue();
        }
        long gone = sleeper.pid() | (1L << Procs.PID_BITS);
        assertThat(Procs.pidExists(gone)).as("killed and reaped").isFalse();
        assertThat(Procs.pidExists(Procs.self())).isTrue();
        assertThat(Procs.pidExists(0)).isFalse();
    }

    @Test
    void aDeadWritersHandleIsReclaimedAndTheReaderSeesEndOfStream() throws Exception {
        try (ShmPipe p = ShmPipe.create()) {
            p.writer().write(new byte[] {1, 2, 3});
            p.control.invite(deadId, 1L << 32); // a write handle registered to a process that is gone
            p.writer().close();
            assertThat(p.stat().writers()).isEqualTo(1);
            p.reader().setTimeout(Duration.ofSeconds(10));
            assertThat(p.reader().read(new byte[10])).isEqualTo(3); // what it had published is delivered
            long t0 = System.nanoTime();
            assertThat(p.reader().read(new byte[10])).isEqualTo(-1);
            assertThat(System.nanoTime() - t0).isLessThan(TimeUnit.SECONDS.toNanos(2));
            assertThat(p.stat().writers()).isZero();
        }
    }

    @Test
    void aDeadReadersHandleIsReclaimedAndTheWriterGetsBrokenPipe() throws Exception {
        try (ShmPipe p = ShmPipe.create(PipeOptions.builder().capacity(4096).build())) {
            p.control.invite(deadId, 1);
            p.reader().close();
            p.writer().setTimeout(Duration.ofSeconds(10));
            try {
                p.writer().write(new byte[10_000]);
                throw new AssertionError("wrote to a pipe whose only reader is dead");
            } catch (BrokenPipeException e) {
                assertThat(e.bytesTransferred()).isEqualTo(4096);
            }
        }
    }

    @Test
    void aLockHeldByADeadProcessIsTakenOverAndItsHandlesReclaimed() throws Exception {
        try (ShmPipe p = ShmPipe.create()) {
            p.control.invite(deadId, 1L << 32);
            int entry = ProcTable.entryOf(p, deadId);
            // As if it was killed while changing its handles: the lock word names it.
            p.region.setInt(Layout.LOCK, ProcTable.ownerToken(p, entry));
            p.writer().close();
            long t0 = System.nanoTime();
            p.reader().setTimeout(Duration.ofSeconds(10));
            assertThat(p.reader().read(new byte[1])).isEqualTo(-1);
            assertThat(System.nanoTime() - t0).isLessThan(TimeUnit.SECONDS.toNanos(2));
            assertThat(p.region.getInt(Layout.LOCK)).isZero();
            assertThat(p.region.getLong(Layout.entry(entry) + Layout.E_ID)).isZero();
        }
    }

    @Test
    void aLiveOwnersLockIsNotTakenOver() throws Exception {
        try (ShmPipe p = ShmPipe.create()) {
            p.control.lock();
            Thread t = Thread.ofPlatform().start(() -> {
                try {
                    p.writer().dup(); // a handle count changes under LOCK
                } catch (Exception e) {
                    throw new RuntimeException(e);
                }
            });
            t.join(100); // it waits slices on the lock, checks the owner, finds it alive, waits on
            assertThat(t.isAlive()).isTrue();
            p.control.unlock();
            t.join(5_000);
            assertThat(t.isAlive()).isFalse();
            assertThat(p.stat().writers()).isEqualTo(2);
        }
    }
}
