package dev.sluice.shm;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.sluice.BrokenPipeException;
import dev.sluice.PipeOptions;
import dev.sluice.ReadEnd;
import dev.sluice.WriteEnd;
import dev.sluice.kernel.KernelProcess;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * Peers in child JVMs started through {@link KernelProcess}; handles reach them by
 * {@link ShmPipe#handOver} and {@link ShmPipe#claim} (the child opens the parent's memfd through
 * {@code /proc/<pid>/fd/<n>}: {@code KernelProcess.fd(n, end)} takes kernel pipe ends only).
 */
class CrossProcessTest {

    static KernelProcess spawn(String... args) throws IOException {
        List<String> cmd = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC", "-Xmx64m", "-Xshare:auto",
                "--enable-native-access=ALL-UNNAMED", "-cp", System.getProperty("java.class.path"),
                Child.class.getName()));
        cmd.addAll(List.of(args));
        return KernelProcess.command(cmd).start();
    }

    /** Reads records until end-of-stream, checking each. */
    static Records.Parser drain(ReadEnd in) throws IOException {
        Records.Parser parser = new Records.Parser();
        byte[] buf = new byte[7000];
        for (int n; (n = in.read(buf)) != -1; ) {
            parser.feed(buf, 0, n);
        }
        return parser;
    }

    @Test
    void severalWriterProcessesAndThreadsNothingLostDuplicatedOrInterleaved() throws Exception {
        try (ShmPipe p = ShmPipe.create(PipeOptions.builder().capacity(16 * 4096).build())) {
            int perChild = 3_000;
            KernelProcess c1 = spawn("write", p.path().toString(), "1", String.valueOf(perChild));
            p.handOver(p.writer().dup(), c1.toHandle());
            KernelProcess c2 = spawn("write", p.path().toString(), "2", String.valueOf(perChild));
            p.handOver(p.writer().dup(), c2.toHandle());
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
            Records.Parser got = drain(p.reader());
            local.join();
            assertThat(got.from(1)).isEqualTo(perChild);
            assertThat(got.from(2)).isEqualTo(perChild);
            assertThat(got.from(3)).isEqualTo(perChild);
            assertThat(got.partial()).isZero();
            assertThat(c1.waitFor()).isZero();
            assertThat(c2.waitFor()).isZero();
        }
    }

    @Test
    void aChildCopiesOneSharedPipeIntoAnother() throws Exception {
        try (ShmPipe there = ShmPipe.create(PipeOptions.builder().capacity(8192).build());
             ShmPipe back = ShmPipe.create()) {
            KernelProcess c = spawn("copy", there.path().toString(), back.path().toString());
            there.handOver(there.reader(), c.toHandle());
            back.handOver(back.writer(), c.toHandle());
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
            Records.Parser got = drain(back.reader());
            w.join();
            assertThat(got.from(7)).isEqualTo(2_000);
            assertThat(c.waitFor()).isZero();
        }
    }

    @Test
    void killingAWriterGivesEndOfStreamAfterItsLastWholeRecord() throws Exception {
        try (ShmPipe p = ShmPipe.create(PipeOptions.builder().capacity(4 * 4096).build())) {
            KernelProcess c = spawn("write", p.path().toString(), "5", "-1");
            p.handOver(p.writer(), c.toHandle());
            ReadEnd in = p.reader();
            in.setTimeout(Duration.ofSeconds(30));
            Records.Parser got = new Records.Parser();
            byte[] buf = new byte[3000];
            while (got.records() < 500) {
                int n = in.read(buf);
                assertThat(n).isPositive();
                got.feed(buf, 0, n);
            }
            c.destroyForcibly(); // SIGKILL, mid-stream: the child is writing or waiting for room
            long t0 = System.nanoTime();
            for (int n; (n = in.read(buf)) != -1; ) {
                got.feed(buf, 0, n);
            }
            assertThat(got.partial()).as("bytes of a record the dead writer never finished").isZero();
            assertThat(System.nanoTime() - t0).isLessThan(TimeUnit.SECONDS.toNanos(5));
            assertThat(p.stat().writers()).isZero();
            assertThat(c.waitFor()).isEqualTo(128 + 9);
        }
    }

    @Test
    void killingAReaderGivesTheBlockedWriterBrokenPipe() throws Exception {
        try (ShmPipe p = ShmPipe.create(PipeOptions.builder().capacity(4 * 4096).build())) {
            KernelProcess c = spawn("stall", p.path().toString());
            p.handOver(p.reader(), c.toHandle());
            awaitClaimed(p);
            WriteEnd out = p.writer();
            out.setTimeout(Duration.ofSeconds(30));
            Thread killer = Thread.ofPlatform().start(() -> {
                try {
                    ShmPipeTest.awaitBlocked(p, false);
                } catch (InterruptedException e) {
                    return;
                }
                c.destroyForcibly();
            });
            long t0 = System.nanoTime();
            assertThatThrownBy(() -> out.write(new byte[1 << 20])).isInstanceOfSatisfying(BrokenPipeException.class,
                    e -> assertThat(e.bytesTransferred()).isEqualTo(4 * 4096));
            assertThat(System.nanoTime() - t0).isLessThan(TimeUnit.SECONDS.toNanos(20));
            killer.join();
            assertThat(p.stat().readers()).isZero();
        }
    }

    /** Waits until a child has claimed what was handed to it (its entry is no longer pending). */
    static void awaitClaimed(ShmPipe p) throws InterruptedException {
        long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        for (;;) {
            for (int i = 0; i < p.region.layout.procs; i++) {
                long e = Layout.entry(i);
                if (i != p.control.entry() && p.region.getLong(e + Layout.E_ID) != 0
                        && p.region.getInt(e + Layout.E_PENDING) == 0) {
                    return;
                }
            }
            if (System.nanoTime() > end) {
                throw new AssertionError("the child never claimed its handles");
            }
            Thread.sleep(5);
        }
    }
}
