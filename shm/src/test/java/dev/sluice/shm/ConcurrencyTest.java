package dev.sluice.shm;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.PipeOptions;
import dev.sluice.ReadEnd;
import dev.sluice.WriteEnd;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.junit.jupiter.api.Test;

/**
 * Many writers and readers at once, platform and virtual threads, spread over two mappings of one pipe (as
 * if two processes): nothing lost, duplicated, torn or interleaved.
 */
class ConcurrencyTest {

    interface Body {
        void run() throws IOException;
    }

    private static Thread start(boolean virtual, Body body, List<Throwable> failures) {
        return (virtual ? Thread.ofVirtual() : Thread.ofPlatform()).start(() -> {
            try {
                body.run();
            } catch (Throwable t) {
                failures.add(t);
            }
        });
    }

    @Test
    void writersOfBothMappingsAndBothThreadKindsNeverInterleave() throws Exception {
        ShmPipe a = ShmPipe.create(PipeOptions.builder().capacity(4 * 4096).build());
        ShmPipe b = ShmPipe.attach(a.path());
        b.reader().close();
        List<Throwable> failures = new java.util.concurrent.CopyOnWriteArrayList<>();
        int perWriter = 1_500;
        List<Thread> writers = new ArrayList<>();
        WriteEnd[] ends = {a.writer(), a.writer().dup(), b.writer(), b.writer().dup()};
        for (int w = 0; w < ends.length; w++) {
            int id = w;
            WriteEnd out = ends[w];
            writers.add(start(w % 2 == 1, () -> {
                try (out) {
                    for (int seq = 0; seq < perWriter; seq++) {
                        out.write(Records.make(id, seq));
                    }
                }
            }, failures));
        }
        ReadEnd in = a.reader();
        in.setTimeout(Duration.ofSeconds(30));
        Records.Parser got = Records.drain(in);
        for (Thread t : writers) {
            t.join();
        }
        assertThat(failures).isEmpty();
        for (int w = 0; w < ends.length; w++) {
            assertThat(got.from(w)).as("records of writer " + w).isEqualTo(perWriter);
        }
        assertThat(got.partial()).isZero();
        a.close();
    }

    @Test
    void readersOfBothMappingsEachGetWholePageRecords() throws Exception {
        ShmPipe a = ShmPipe.create(PipeOptions.builder().capacity(4 * 4096).build());
        ShmPipe b = ShmPipe.attach(a.path());
        List<Throwable> failures = new java.util.concurrent.CopyOnWriteArrayList<>();
        Set<Long> seen = ConcurrentHashMap.newKeySet();
        int perWriter = 800;
        List<Thread> threads = new ArrayList<>();
        WriteEnd[] outs = {a.writer(), b.writer()};
        for (int w = 0; w < outs.length; w++) {
            int id = w;
            WriteEnd out = outs[w];
            threads.add(start(w == 1, () -> {
                try (out) {
                    for (int seq = 0; seq < perWriter; seq++) {
                        out.write(Records.make(id, seq, 4096)); // a page each: one slot, never merged
                    }
                }
            }, failures));
        }
        ReadEnd[] ins = {a.reader(), a.reader().dup(), b.reader(), b.reader().dup()};
        for (int r = 0; r < ins.length; r++) {
            ReadEnd in = ins[r];
            in.setTimeout(Duration.ofSeconds(30));
            threads.add(start(r % 2 == 0, () -> {
                try (in) {
                    byte[] buf = new byte[4096];
                    for (int n; (n = in.read(buf)) != -1; ) {
                        assertThat(seen.add(Records.verify(buf, n))).as("read twice").isTrue();
                    }
                }
            }, failures));
        }
        for (Thread t : threads) {
            t.join();
        }
        assertThat(failures).isEmpty();
        assertThat(seen).hasSize(2 * perWriter);
    }
}
