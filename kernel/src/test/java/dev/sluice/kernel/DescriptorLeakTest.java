package dev.sluice.kernel;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.ReadEnd;
import dev.sluice.WriteEnd;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;

/**
 * Open and close thousands of pipes and hundreds of children; the JVM's descriptor count returns to where
 * it started. Each round also waits (so the poller registers the descriptor), dups, and uses futures.
 */
class DescriptorLeakTest {
    @Test
    void pipesAndChildrenLeaveNoDescriptorBehind() throws Exception {
        warmUp();
        var before = Fds.snapshot();
        for (int i = 0; i < 3000; i++) {
            KernelPipe p = KernelPipe.open();
            ReadEnd r2 = p.reader().dup();
            WriteEnd w2 = p.writer().dup();
            CompletableFuture<?> f = r2.whenReady();
            w2.write(new byte[] {(byte) i});
            f.get();
            assertThat(p.reader().read(new byte[4])).isEqualTo(1);
            if (i % 10 == 0) {
                // A blocked read woken by the write: the descriptor went through the poller's epoll set.
                Thread t = Thread.ofVirtual().start(() -> {
                    try {
                        p.reader().read(new byte[1]);
                    } catch (IOException e) {
                        throw new java.io.UncheckedIOException(e);
                    }
                });
                KernelSpliceTest.awaitParked(t);
                p.writer().write(new byte[1]);
                t.join();
            }
            p.reader().whenReady(); // left pending: completed (invalid) by the close
            p.reader().close();
            r2.close();
            p.writer().close();
            w2.close();
        }
        List<KernelProcess> children = new ArrayList<>();
        for (int i = 0; i < 200; i++) {
            KernelPipe p = KernelPipe.open();
            children.add(KernelProcess.command("true").stdout(p.writer()).start());
            assertThat(p.reader().read(new byte[1])).isEqualTo(-1);
            p.reader().close();
        }
        for (KernelProcess c : children) {
            assertThat(c.waitFor()).isZero();
        }
        // Nothing this test opened is left (fewer than before is fine: the cleaner may close what earlier
        // tests dropped without closing).
        assertThat(Fds.newSince(before)).as("descriptors left after 3000 pipes and 200 children").isEmpty();
    }

    /**
     * The poller's epoll descriptor is made once, on first use (a readiness future, or a wait on a pipe
     * shared with a child): create it before counting.
     */
    private static void warmUp() throws Exception {
        KernelPipe p = KernelPipe.open();
        CompletableFuture<?> armed = p.reader().whenReady(); // empty pipe: queued with the poller
        p.writer().write(new byte[1]);
        armed.get();
        p.reader().read(new byte[1]);
        Thread t = Thread.ofPlatform().start(() -> {
            try {
                p.reader().read(new byte[1]);
            } catch (IOException e) {
                throw new java.io.UncheckedIOException(e);
            }
        });
        KernelSpliceTest.awaitParked(t);
        p.writer().write(new byte[1]);
        t.join();
        p.reader().close();
        p.writer().close();
    }
}
