package dev.sluice.kernel;

import static dev.sluice.kernel.KernelSpliceTest.random;
import static dev.sluice.kernel.KernelSpliceTest.readExactly;
import static java.nio.file.StandardOpenOption.CREATE;
import static java.nio.file.StandardOpenOption.TRUNCATE_EXISTING;
import static java.nio.file.StandardOpenOption.WRITE;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.sluice.BrokenPipeException;
import dev.sluice.PartialTransferException;
import dev.sluice.PipeInterruptedException;
import dev.sluice.PipeTimeoutException;
import java.io.IOException;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.IllegalBlockingModeException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code drain} and {@code fill} stopped part way: the exception reports every byte the loop moved, which is
 * exactly what arrived at the destination. Before, each lost the count of its earlier rounds (the exception
 * said 0, or carried no count at all).
 */
class KernelSpliceLoopsTest {
    private static final Duration SHORT = Duration.ofMillis(50);

    @TempDir
    Path dir;

    @Test
    void aTimedOutDrainIntoAFileReportsTheBytesInTheFile() throws Exception {
        KernelPipe p = KernelPipe.open();
        byte[] data = random(10_000, 11);
        p.writer().write(data);
        p.reader().setTimeout(SHORT); // the writer stays open: after the 10 000 bytes the drain waits
        Path file = dir.resolve("out");
        try (KernelFile f = KernelFile.open(file, WRITE, CREATE, TRUNCATE_EXISTING)) {
            assertThatThrownBy(() -> KernelSplice.drain(p.reader(), f))
                    .isInstanceOfSatisfying(PipeTimeoutException.class, e -> {
                        assertThat(e.bytesTransferred()).isEqualTo(data.length);
                        assertThat(e.bytesTransferred).isEqualTo(data.length);
                        assertThat(e.getMessage()).contains("drain", Integer.toString(data.length));
                    });
        }
        assertThat(Files.readAllBytes(file)).isEqualTo(data);
        KernelDefectsTest.close(p);
    }

    @Test
    void anInterruptedDrainIntoAPipeReportsTheBytesInTheDestination() throws Exception {
        KernelPipe p = KernelPipe.open();
        KernelPipe q = KernelPipe.open();
        byte[] data = random(10_000, 12);
        p.writer().write(data);
        // Set before the call: rounds that find data do not wait, so the loop moves all 10 000 bytes and
        // the interrupt ends the wait that follows.
        Thread.currentThread().interrupt();
        try {
            assertThatThrownBy(() -> KernelSplice.drain(p.reader(), q.writer()))
                    .isInstanceOfSatisfying(PipeInterruptedException.class,
                            e -> assertThat(e.bytesTransferred()).isEqualTo(data.length));
            assertThat(Thread.currentThread().isInterrupted()).as("the interrupt status stays set").isTrue();
        } finally {
            Thread.interrupted();
        }
        assertThat(q.reader().available()).isEqualTo(data.length);
        assertThat(readExactly(q, data.length)).isEqualTo(data);
        KernelDefectsTest.close(p);
        KernelDefectsTest.close(q);
    }

    @Test
    void aTimedOutFillReportsTheBytesInThePipe() throws Exception {
        KernelPipe p = KernelPipe.open();
        byte[] data = random(4 * p.capacity(), 13);
        Path src = Files.write(dir.resolve("src"), data);
        p.writer().setTimeout(SHORT); // nobody reads: the fill stops when the pipe is full
        try (KernelFile f = KernelFile.open(src)) {
            assertThatThrownBy(() -> KernelSplice.fill(f, p.writer(), data.length))
                    .isInstanceOfSatisfying(PipeTimeoutException.class,
                            e -> assertThat(e.bytesTransferred()).isEqualTo(p.capacity()));
        }
        assertThat(p.reader().available()).isEqualTo(p.capacity());
        assertThat(readExactly(p, p.capacity())).isEqualTo(Arrays.copyOf(data, p.capacity()));
        KernelDefectsTest.close(p);
    }

    @Test
    void aFillWhoseReaderClosesReportsTheBytesItHadStored() throws Exception {
        KernelPipe p = KernelPipe.open();
        byte[] data = random(4 * p.capacity(), 14);
        Path src = Files.write(dir.resolve("src"), data);
        try (KernelFile f = KernelFile.open(src)) {
            CompletableFuture<Long> fill = inThread(() -> KernelSplice.fill(f, p.writer(), data.length));
            // A full pipe: nothing more can move until a read, so the count is the pipe's capacity.
            awaitTrue(() -> p.reader().available() == p.capacity(), "the pipe filled");
            p.reader().close();
            assertThat(failure(fill)).isInstanceOfSatisfying(BrokenPipeException.class,
                    e -> assertThat(e.bytesTransferred()).isEqualTo(p.capacity()));
        }
        p.writer().close();
    }

    @Test
    void aDrainWhoseHandleIsClosedByAnotherThreadReportsTheBytesInTheFile() throws Exception {
        KernelPipe p = KernelPipe.open();
        byte[] data = random(10_000, 15);
        p.writer().write(data);
        Path file = dir.resolve("out");
        try (KernelFile f = KernelFile.open(file, WRITE, CREATE, TRUNCATE_EXISTING)) {
            CompletableFuture<Long> drain = inThread(() -> KernelSplice.drain(p.reader(), f));
            // Once the bytes are in the file, a close before, during or after the next wait ends the loop alike.
            awaitTrue(() -> size(file) == data.length, "the bytes reached the file");
            p.reader().close();
            assertThat(failure(drain)).isInstanceOfSatisfying(PartialTransferException.class, e -> {
                assertThat(e.bytesTransferred()).isEqualTo(data.length);
                assertThat(e.getCause()).isInstanceOf(ClosedChannelException.class);
            });
        }
        assertThat(Files.readAllBytes(file)).isEqualTo(data);
        p.writer().close();
    }

    @Test
    void aDrainWhoseHandleIsSetNonblockingMeanwhileReportsTheBytesInTheFile() throws Exception {
        KernelPipe p = KernelPipe.open();
        byte[] data = random(10_000, 16);
        p.writer().write(data);
        Path file = dir.resolve("out");
        try (KernelFile f = KernelFile.open(file, WRITE, CREATE, TRUNCATE_EXISTING)) {
            CompletableFuture<Long> drain = inThread(() -> KernelSplice.drain(p.reader(), f));
            awaitTrue(() -> size(file) == data.length, "the bytes reached the file");
            p.reader().setNonBlocking(true);
            // Wakes a drain that is waiting; whether it moves this byte before it sees the flag is a race,
            // so the count is checked against the file, where every byte the loop moved is.
            p.writer().write(new byte[] {42});
            assertThat(failure(drain)).isInstanceOfSatisfying(PartialTransferException.class, e -> {
                assertThat(e.bytesTransferred()).isEqualTo(size(file)).isGreaterThanOrEqualTo(data.length);
                assertThat(e.getCause()).isInstanceOf(IllegalBlockingModeException.class);
            });
            assertThat(size(file) + p.reader().available()).as("every byte in the file or the pipe")
                    .isEqualTo(data.length + 1);
        }
        KernelDefectsTest.close(p);
    }

    private interface Condition {
        boolean getAsBoolean() throws IOException;
    }

    private interface Loop {
        long run() throws IOException;
    }

    private static CompletableFuture<Long> inThread(Loop loop) {
        CompletableFuture<Long> result = new CompletableFuture<>();
        Thread.ofPlatform().start(() -> {
            try {
                result.complete(loop.run());
            } catch (Throwable e) {
                result.completeExceptionally(e);
            }
        });
        return result;
    }

    private static Throwable failure(CompletableFuture<Long> f) throws Exception {
        try {
            return new AssertionError("the loop returned " + f.get(10, TimeUnit.SECONDS) + " instead of throwing");
        } catch (ExecutionException e) {
            return e.getCause();
        }
    }

    private static long size(Path file) {
        try {
            return Files.size(file);
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    /** Waits, without sleeping, for a state another thread reaches; fails after 10 s. */
    private static void awaitTrue(Condition condition, String what) throws IOException {
        long deadline = System.nanoTime() + 10_000_000_000L;
        while (!condition.getAsBoolean()) {
            assertThat(System.nanoTime() - deadline).as(what).isNegative();
            Thread.onSpinWait();
        }
    }
}
