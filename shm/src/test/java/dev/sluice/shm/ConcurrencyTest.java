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
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Many writers and readers at once, platform and virtual threads, spread over two mappings of one pipe (as
 * if two processes): nothing lost, duplicated, torn or interleaved.
 */
class ConcurrencyTest {

    interface Body {
        void run() throws IOException;
    }

    /** Runs {@code body} on a thread of the kind; {@link Async#get} then rethrows what it threw. */
    private static Async<Void> start(boolean virtual, Body body) {
        return Async.start(virtual, () -> {
            body.run();
            return null;
        });
    }

    /**
     * With a reader of 97 bytes a read, the reader takes most slots in pieces while writers merge into the
     * newest: the merge holds {@code READ_LOCK} as well, so it never meets a partial take of that slot.
     */
    @ParameterizedTest
    @ValueSource(ints = {7000, 97})
    void writersOfBothMappingsAndBothThreadKindsNeverInterleave(int readSize) throws Exception {
        ShmPipe a = ShmPipe.create(PipeOptions.builder().capacity(4 * 4096).build());
        ShmPipe b = ShmPipe.attach(a.path());
        b.reader().close();
        int perWriter = 1_500;
        List<Async<Void>> writers = new ArrayList<>();
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
            }));
        }
        ReadEnd in = a.reader();
        in.setTimeout(Duration.ofSeconds(30));
        Records.Parser got = Records.drain(in, readSize);
        for (Async<Void> t : writers) {
            t.get();
        }
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
        Set<Long> seen = ConcurrentHashMap.newKeySet();
        int perWriter = 800;
        List<Async<Void>> threads = new ArrayList<>();
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
            }));
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
            }));
        }
        for (Async<Void> t : threads) {
            t.get();
        }
        assertThat(seen).hasSize(2 * perWriter);
    }
}
