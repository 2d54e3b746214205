package dev.sluice.shm;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.sluice.BrokenPipeException;
import dev.sluice.PipeOptions;
import dev.sluice.ReadEnd;
import dev.sluice.WriteEnd;
import java.io.IOException;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * Peers in child JVMs ({@link ChildJvm}, started through {@code KernelProcess}): writer processes and a
 * thread with checked records, a child copying one shared pipe into another, kill -9 of a writer and of a
 * reader. {@link CrossProcessRulesTest} checks the pipe's rules one by one across processes, and
 * {@link CrossProcessStressTest} many processes at once.
 */
class CrossProcessTest {

    @Test
    void severalWriterProcessesAndThreadsNothingLostDuplicatedOrInterleaved() throws Exception {
        int perChild = 3_000;
        try (ShmPipe p = ShmPipe.create(PipeOptions.builder().capacity(16 * 4096).build());
             ChildJvm c1 = ChildJvm.start("write", p.path().toString(), "1", String.valueOf(perChild));
             ChildJvm c2 = ChildJvm.start("write", p.path().toString(), "2", String.valueOf(perChild))) {
            p.handOver(p.writer().dup(), c1.handle());
            p.handOver(p.writer().dup(), c2.handle());
            Thread local = Thread.ofVirtual().start(() -> {
                try (WriteEnd out = p.writer()) {
                    for (int seq = 0; seq < perChild; seq++) {
                        out.write(Records.make(3, seq));
                    }
                } catch (IOException e) {
                    throw new RuntimeException(e);
                }
            });
            p.reader().setTimeout(Duration.ofSeconds(30));
            Records.Parser got = Records.drain(p.reader());
            local.join();
            assertThat(got.from(1)).isEqualTo(perChild);
            assertThat(got.from(2)).isEqualTo(perChild);
            assertThat(got.from(3)).isEqualTo(perChild);
            assertThat(got.partial()).isZero();
            assertThat(c1.exitCode()).isZero();
            assertThat(c2.exitCode()).isZero();
        }
    }

    @Test
    void aChildCopiesOneSharedPipeIntoAnother() throws Exception {
        try (ShmPipe there = ShmPipe.create(PipeOptions.builder().capacity(8192).build());
             ShmPipe back = ShmPipe.create();
             ChildJvm c = ChildJvm.start("copy", there.path().toString(), back.path().toString())) {
            there.handOver(there.reader(), c.handle());
            back.handOver(back.writer(), c.handle());
            Thread w = Thread.ofPlatform().start(() -> {
                try (WriteEnd out = there.writer()) {
                    for (int seq = 0; seq < 2_000; seq++) {
                        out.write(Records.make(7, seq));
                    }
                } catch (IOException e) {
                    throw new RuntimeException(e);
                }
            });
            back.reader().setTimeout(Duration.ofSeconds(30));
            Records.Parser got = Records.drain(back.reader());
            w.join();
            assertThat(got.from(7)).isEqualTo(2_000);
            assertThat(c.exitCode()).isZero();
        }
    }

    @Test
    void killingAWriterGivesEndOfStreamAfterItsLastWholeRecord() throws Exception {
        try (ShmPipe p = ShmPipe.create(PipeOptions.builder().capacity(4 * 4096).build());
             ChildJvm c = ChildJvm.start("write", p.path().toString(), "5", "-1")) {
            p.handOver(p.writer(), c.handle());
            ReadEnd in = p.reader();
            in.setTimeout(Duration.ofSeconds(30));
            Records.Parser got = new Records.Parser();
            byte[] buf = new byte[3000];
            while (got.records() < 500) {
                int n = in.read(buf);
                assertThat(n).isPositive();
                got.feed(buf, 0, n);
            }
            c.process().destroyForcibly(); // SIGKILL, mid-stream: the child is writing or waiting for room
            long t0 = System.nanoTime();
            for (int n; (n = in.read(buf)) != -1; ) {
                got.feed(buf, 0, n);
            }
            assertThat(got.partial()).as("bytes of a record the dead writer never finished").isZero();
            assertThat(System.nanoTime() - t0).isLessThan(TimeUnit.SECONDS.toNanos(5));
            assertThat(p.stat().writers()).isZero();
            assertThat(c.exitCode()).isEqualTo(128 + 9);
        }
    }

    @Test
    void killingAReaderGivesTheBlockedWriterBrokenPipe() throws Exception {
        try (ShmPipe p = ShmPipe.create(PipeOptions.builder().capacity(4 * 4096).build());
             ChildJvm c = ChildJvm.start("stall", p.path().toString())) {
            p.handOver(p.reader(), c.handle());
            ChildJvm.awaitClaimed(p);
            WriteEnd out = p.writer();
            out.setTimeout(Duration.ofSeconds(30));
            Thread killer = Thread.ofPlatform().start(() -> {
                try {
                    ShmPipeTest.awaitBlocked(p, false);
                } catch (InterruptedException e) {
                    return;
                }
                c.process().destroyForcibly();
            });
            long t0 = System.nanoTime();
            assertThatThrownBy(() -> out.write(new byte[1 << 20])).isInstanceOfSatisfying(BrokenPipeException.class,
                    e -> assertThat(e.bytesTransferred()).isEqualTo(4 * 4096));
            assertThat(System.nanoTime() - t0).isLessThan(TimeUnit.SECONDS.toNanos(20));
            killer.join();
            assertThat(p.stat().readers()).isZero();
        }
    }
}
