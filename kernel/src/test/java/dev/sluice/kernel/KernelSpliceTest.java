package dev.sluice.kernel;

import static java.nio.file.StandardOpenOption.CREATE;
import static java.nio.file.StandardOpenOption.READ;
import static java.nio.file.StandardOpenOption.TRUNCATE_EXISTING;
import static java.nio.file.StandardOpenOption.WRITE;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.sluice.BrokenPipeException;
import dev.sluice.Pipe;
import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.channels.ClosedChannelException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.EnumSet;
import java.util.Set;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** splice, tee and vmsplice, with byte-exact checks of what arrived, and their bad input. */
class KernelSpliceTest {
    @TempDir
    Path dir;

    static byte[] random(int n, long seed) {
        byte[] b = new byte[n];
        new SplittableRandom(seed).nextBytes(b);
        return b;
    }

    static byte[] readExactly(KernelPipe p, int n) throws IOException {
        byte[] out = new byte[n];
        for (int got = 0; got < n; ) {
            int r = p.reader().read(out, got, n - got);
            assertThat(r).isPositive();
            got += r;
        }
        return out;
    }

    @Test
    void fileToPipeToFileMovesEveryByteInOrder() throws Exception {
        byte[] data = random(1_000_003, 1);
        Path src = Files.write(dir.resolve("src"), data);
        Path dst = dir.resolve("dst");
        KernelPipe p = KernelPipe.open();
        try (KernelFile in = KernelFile.open(src);
                KernelFile out = KernelFile.open(dst, WRITE, CREATE, TRUNCATE_EXISTING)) {
            long moved = 0;
            while (true) {
                long n = KernelSplice.splice(in, p.writer(), 1 << 16, EnumSet.of(KernelSplice.Flag.MOVE));
                if (n == -1) {
                    break;
                }
                // Drain what the pipe holds into the file before the next pipe-full.
                for (long left = n; left > 0; ) {
                    left -= KernelSplice.splice(p.reader(), out, left, EnumSet.of(KernelSplice.Flag.MORE));
                }
                moved += n;
            }
            assertThat(moved).isEqualTo(data.length);
        }
        assertThat(Files.readAllBytes(dst)).isEqualTo(data);
        p.reader().close();
        p.writer().close();
    }

    @Test
    void offsetsReadAndWriteAtAPlaceWithoutMovingThePosition() throws Exception {
        byte[] data = random(10_000, 2);
        Path src = Files.write(dir.resolve("src"), data);
        KernelPipe p = KernelPipe.open();
        try (KernelFile in = KernelFile.open(src)) {
            assertThat(KernelSplice.splice(in, 5000, p.writer(), 100, Set.of())).isEqualTo(100);
            assertThat(readExactly(p, 100)).isEqualTo(java.util.Arrays.copyOfRange(data, 5000, 5100));
            assertThat(KernelSplice.splice(in, p.writer(), 10, Set.of())).as("the position is still 0").isEqualTo(10);
            assertThat(readExactly(p, 10)).isEqualTo(java.util.Arrays.copyOfRange(data, 0, 10));
            assertThat(KernelSplice.splice(in, 10_000, p.writer(), 10, Set.of())).as("at end of file").isEqualTo(-1);
        }
        Path dst = Files.write(dir.resolve("dst"), new byte[20]);
        try (KernelFile out = KernelFile.open(dst, WRITE)) {
            p.writer().write(new byte[] {1, 2, 3});
            assertThat(KernelSplice.splice(p.reader(), out, 7, 3, Set.of())).isEqualTo(3);
        }
        byte[] expected = new byte[20];
        expected[7] = 1;
        expected[8] = 2;
        expected[9] = 3;
        assertThat(Files.readAllBytes(dst)).isEqualTo(expected);
    }

    @Test
    void drainMovesAProducersStreamIntoAFileUntilEndOfStream() throws Exception {
        byte[] data = random(3_000_000, 3);
        KernelPipe p = KernelPipe.open();
        Thread producer = Thread.ofVirtual().start(() -> {
            try (var w = p.writer()) {
                for (int off = 0; off < data.length; off += 70_000) {
                    w.write(data, off, Math.min(70_000, data.length - off));
                }
            } catch (IOException e) {
                throw new java.io.UncheckedIOException(e);
            }
        });
        Path dst = dir.resolve("dst");
        try (KernelFile out = KernelFile.open(dst, WRITE, CREATE)) {
            assertThat(KernelSplice.drain(p.reader(), out)).isEqualTo(data.length);
        }
        producer.join();
        assertThat(Files.readAllBytes(dst)).isEqualTo(data);
    }

    @Test
    void pipeToPipeSpliceMovesAndTeeCopies() throws Exception {
        KernelPipe a = KernelPipe.open();
        KernelPipe b = KernelPipe.open();
        KernelPipe c = KernelPipe.open();
        byte[] data = random(50_000, 4);
        a.writer().write(data);
        assertThat(KernelSplice.tee(a.reader(), c.writer(), 1 << 20, Set.of())).isEqualTo(data.length);
        assertThat(a.reader().available()).as("tee leaves the source as it was").isEqualTo(data.length);
        assertThat(KernelSplice.splice(a.reader(), b.writer(), 1 << 20, Set.of())).isEqualTo(data.length);
        assertThat(a.reader().available()).isZero();
        assertThat(readExactly(b, data.length)).isEqualTo(data);
        assertThat(readExactly(c, data.length)).isEqualTo(data);
        a.writer().close();
        assertThat(KernelSplice.splice(a.reader(), b.writer(), 10, Set.of())).as("end-of-stream").isEqualTo(-1);
        assertThat(KernelSplice.tee(a.reader(), c.writer(), 10, Set.of())).as("end-of-stream").isEqualTo(-1);
    }

    @Test
    void aBlockedSpliceWakesWhenDataArrivesAndNonblockingReturnsZero() throws Exception {
        KernelPipe a = KernelPipe.open();
        KernelPipe b = KernelPipe.open();
        assertThat(KernelSplice.splice(a.reader(), b.writer(), 10, EnumSet.of(KernelSplice.Flag.NONBLOCK))).isZero();
        var result = new java.util.concurrent.CompletableFuture<Long>();
        Thread t = Thread.ofVirtual().start(() -> {
            try {
                result.complete(KernelSplice.splice(a.reader(), b.writer(), 10, Set.of()));
            } catch (Throwable e) {
                result.completeExceptionally(e);
            }
        });
        awaitParked(t);
        a.writer().write(new byte[] {7, 8});
        assertThat(result.get()).isEqualTo(2);
        assertThat(readExactly(b, 2)).containsExactly(7, 8);
    }

    static void awaitParked(Thread t) {
        long deadline = System.nanoTime() + 10_000_000_000L;
        while (t.getState() != Thread.State.WAITING && t.getState() != Thread.State.TIMED_WAITING) {
            assertThat(System.nanoTime() - deadline).as("thread did not block").isNegative();
            Thread.onSpinWait();
        }
    }

    @Test
    void vmspliceMapsNativeMemoryAndTheReaderSeesLaterChangesUntilItReads() throws Exception {
        KernelPipe p = KernelPipe.open();
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment page = arena.allocate(8192, 4096);
            page.fill((byte) 'A');
            assertThat(KernelSplice.vmsplice(page, p.writer(), Set.of())).isEqualTo(8192);
            // The page-gift rule: the pipe references these pages; a change before the read is what is read.
            page.set(ValueLayout.JAVA_BYTE, 0, (byte) 'B');
            byte[] got = readExactly(p, 8192);
            assertThat(got[0]).isEqualTo((byte) 'B');
            assertThat(got[1]).isEqualTo((byte) 'A');
            assertThat(got[8191]).isEqualTo((byte) 'A');
        }
        assertThatThrownBy(() -> KernelSplice.vmsplice(MemorySegment.ofArray(new byte[10]), p.writer(), Set.of()))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("native");
    }

    @Test
    void aPipeSplicesIntoASocketAndBackOut() throws Exception {
        KernelFile[] s = KernelFile.socketPair();
        KernelPipe in = KernelPipe.open();
        KernelPipe out = KernelPipe.open();
        byte[] data = random(300_000, 5);
        Thread producer = Thread.ofPlatform().start(() -> {
            try (var w = in.writer()) {
                w.write(data);
            } catch (IOException e) {
                throw new java.io.UncheckedIOException(e);
            }
        });
        Thread pump = Thread.ofVirtual().start(() -> {
            try {
                KernelSplice.drain(in.reader(), s[0]);
                s[0].close(); // EOF for the other socket
            } catch (IOException e) {
                throw new java.io.UncheckedIOException(e);
            }
        });
        Thread back = Thread.ofVirtual().start(() -> {
            try (var w = out.writer()) {
                while (KernelSplice.splice(s[1], w, 1 << 16, Set.of()) != -1) {
                    // keep moving
                }
            } catch (IOException e) {
                throw new java.io.UncheckedIOException(e);
            }
        });
        java.io.ByteArrayOutputStream all = new java.io.ByteArrayOutputStream();
        byte[] buf = new byte[65536];
        for (int n; (n = out.reader().read(buf)) != -1; ) {
            all.write(buf, 0, n);
        }
        producer.join();
        pump.join();
        back.join();
        assertThat(all.toByteArray()).isEqualTo(data);
        s[1].close();
    }

    @Test
    void badInputIsRefusedClearlyAndLeaksNothing() throws Exception {
        KernelPipe warm = KernelPipe.open();
        warm.reader().close();
        warm.writer().close();
        var fds = Fds.snapshot();
        KernelPipe p = KernelPipe.open();
        KernelPipe q = KernelPipe.open();
        Path file = Files.write(dir.resolve("f"), new byte[] {1, 2, 3});
        try (KernelFile readOnly = KernelFile.open(file, READ)) {
            p.writer().write(new byte[] {9, 9});
            assertThatThrownBy(() -> KernelSplice.splice(p.reader(), readOnly, 2, Set.of()))
                    .as("a read-only file as the target").isInstanceOf(IOException.class).hasMessageContaining("EBADF");
            assertThat(p.reader().available()).as("nothing moved").isEqualTo(2);
            assertThatThrownBy(() -> KernelSplice.splice(p.reader(), p.writer(), 2, Set.of()))
                    .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("itself");
            assertThatThrownBy(() -> KernelSplice.tee(p.reader(), p.writer(), 2, Set.of()))
                    .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("itself");
            assertThatThrownBy(() -> KernelSplice.splice(p.reader(), q.writer(), -1, Set.of()))
                    .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("negative");
            assertThatThrownBy(() -> KernelSplice.splice(readOnly, -5, q.writer(), 1, Set.of()))
                    .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("negative");
            assertThatThrownBy(() -> KernelSplice.splice(p.reader(), q.writer(), 1, null))
                    .isInstanceOf(NullPointerException.class).hasMessageContaining("flags");
            assertThatThrownBy(() -> KernelSplice.splice(Pipe.open().reader(), q.writer(), 1, Set.of()))
                    .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("kernel pipe");
            assertThat(p.reader().available()).as("nothing moved").isEqualTo(2);

            q.writer().close();
            assertThatThrownBy(() -> KernelSplice.splice(p.reader(), q.writer(), 2, Set.of()))
                    .isInstanceOf(ClosedChannelException.class);
            assertThatThrownBy(() -> KernelSplice.splice(readOnly, q.writer(), 2, Set.of()))
                    .isInstanceOf(ClosedChannelException.class);
            q.reader().close();
            KernelPipe r = KernelPipe.open();
            r.reader().close();
            assertThatThrownBy(() -> KernelSplice.splice(p.reader(), r.writer(), 2, Set.of()))
                    .isInstanceOf(BrokenPipeException.class);
            assertThat(p.reader().available()).as("nothing moved").isEqualTo(2);
            r.writer().close();
        }
        p.reader().close();
        p.writer().close();
        assertThat(Fds.newSince(fds)).as("descriptors left behind").isEmpty();
    }
}
