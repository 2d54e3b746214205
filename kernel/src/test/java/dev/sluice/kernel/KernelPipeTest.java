package dev.sluice.kernel;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.sluice.BrokenPipeException;
import dev.sluice.PipeOptions;
import dev.sluice.ReadEnd;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.AsynchronousCloseException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.Test;

/** What is particular to kernel pipes: the JVM and SIGPIPE, options, descriptor reuse, carriers. */
class KernelPipeTest {

    @Test
    void theJvmIgnoresSigpipeSoABrokenPipeIsAnExceptionNotADeath() throws Exception {
        // The JVM catches or ignores SIGPIPE (bit 13 of SigIgn or SigCgt), so EPIPE comes back as an error.
        String status = Files.readString(Path.of("/proc/self/status"));
        long ign = mask(status, "SigIgn:");
        long cgt = mask(status, "SigCgt:");
        assertThat(((ign | cgt) >> (13 - 1)) & 1).as("SIGPIPE ignored or handled by the JVM").isEqualTo(1);
        KernelPipe p = KernelPipe.open();
        p.reader().close();
        assertThatThrownBy(() -> p.writer().write(new byte[10])).isInstanceOf(BrokenPipeException.class);
        assertThat(p.writer().poll().error()).isTrue();
        p.writer().close();
    }

    private static long mask(String status, String key) {
        for (String line : status.split("\n")) {
            if (line.startsWith(key)) {
                return Long.parseUnsignedLong(line.substring(key.length()).trim(), 16);
            }
        }
        throw new AssertionError(key + " not in /proc/self/status");
    }

    @Test
    void noAtimeIsRefusedWithTheReason() {
        assertThatThrownBy(KernelPipe::openNoAtime).isInstanceOf(UnsupportedOperationException.class)
                .hasMessageContaining("EINVAL").hasMessageContaining("6.15");
    }

    @Test
    void optionsOnlyTheInProcessPipeHasAreRefused() {
        assertThatThrownBy(() -> KernelPipe.open(PipeOptions.builder().timestamps(true).build()))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("timestamps");
        assertThatThrownBy(() -> KernelPipe.open(PipeOptions.builder().poolPages(2).build()))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("poolPages");
        assertThatThrownBy(() -> KernelPipe.open(PipeOptions.builder().poolRotation(0).build()))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("poolRotation");
        assertThatThrownBy(() -> KernelPipe.open(null)).isInstanceOf(NullPointerException.class)
                .hasMessageContaining("PipeOptions.defaults()");
    }

    @Test
    void onAnotherPlatformOpeningFailsWithOneClearException() {
        assertThatThrownBy(() -> Platform.checkSupported("Mac OS X", "aarch64"))
                .isInstanceOf(UnsupportedOperationException.class).hasMessageContaining("Linux")
                .hasMessageContaining("Mac OS X");
        Platform.checkSupported("Linux", "amd64");
    }

    @Test
    void capacityPacketModeAndStatComeFromTheKernel() throws Exception {
        KernelPipe p = KernelPipe.open(PipeOptions.builder().capacity(100_000).packetMode(true).build());
        assertThat(p.capacity()).isEqualTo(131_072);
        p.writer().write(new byte[10]);
        p.writer().write(new byte[20]);
        assertThat(p.reader().available()).isEqualTo(30);
        assertThat(p.stat().slotsUsed()).as("not exported by the kernel").isEqualTo(-1);
        assertThat(p.stat().readers()).isEqualTo(1);
        assertThat(p.reader().read(new byte[100])).as("one packet").isEqualTo(10);
        assertThatThrownBy(() -> p.setCapacity(2 << 20)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("EPERM");
        assertThat(p.counters().readerWakeups()).as("only the kernel knows").isEqualTo(-1);
        p.reader().close();
        p.writer().close();
    }

    /**
     * Packet mode is a flag of the open file description. A reopen opens a description of its own, through
     * /proc/self/fd; open(2) refuses O_DIRECT on a pipe, so the flag is set afterwards with F_SETFL (found by
     * the model check against this kernel, when dup made the new description: asking open(2) for it fell back
     * to sharing the description, and turning packet mode off on the original turned it off on the copy).
     */
    @Test
    void packetModeStaysPerDescriptionAcrossReopen() throws Exception {
        KernelPipe p = KernelPipe.open(PipeOptions.builder().packetMode(true).build());
        var copy = p.writer().reopen();
        assertThat(flags(copy) & LibC.O_DIRECT).as("O_DIRECT set on the new description").isNotZero();
        p.writer().setPacketMode(false);
        assertThat(copy.isPacketMode()).isTrue();
        assertThat(flags(copy) & LibC.O_DIRECT).isNotZero();
        assertThat(flags(p.writer()) & LibC.O_DIRECT).isZero();
        copy.write(new byte[10]);
        copy.write(new byte[20]);
        p.writer().write(new byte[5]);
        p.writer().write(new byte[6]);
        byte[] b = new byte[100];
        assertThat(p.reader().read(b)).as("a packet of the copy").isEqualTo(10);
        assertThat(p.reader().read(b)).as("the next packet").isEqualTo(20);
        assertThat(p.reader().read(b)).as("the original's normal writes merged").isEqualTo(11);
        copy.close();
        p.reader().close();
        p.writer().close();
    }

    /**
     * dup is F_DUPFD_CLOEXEC: the kernel's description is shared, so O_DIRECT set through either descriptor
     * is the other's too, and the Java side agrees with the kernel on both handles. It failed before, when dup
     * opened a new description.
     */
    @Test
    void dupSharesTheKernelsDescriptionAndTheJavaSideFollows() throws Exception {
        KernelPipe p = KernelPipe.open();
        var copy = p.writer().dup();
        var readCopy = p.reader().dup();
        assertThat(flags(copy) & LibC.O_DIRECT).isZero();
        copy.setPacketMode(true);
        assertThat(flags(p.writer()) & LibC.O_DIRECT).as("the kernel's flag, through the original").isNotZero();
        assertThat(p.writer().isPacketMode()).isTrue();
        p.writer().setPacketMode(false);
        assertThat(flags(copy) & LibC.O_DIRECT).isZero();
        assertThat(copy.isPacketMode()).isFalse();
        assertThat(flags(copy) & LibC.O_NONBLOCK).as("every descriptor of the module is O_NONBLOCK").isNotZero();
        assertThat(flags(readCopy) & LibC.O_NONBLOCK).isNotZero();
        copy.close();
        readCopy.close();
        copy.setPacketMode(true);
        assertThat(p.writer().isPacketMode()).as("a closed handle changes nothing (EBADF)").isFalse();
        assertThat(flags(p.writer()) & LibC.O_DIRECT).isZero();
        p.reader().close();
        p.writer().close();
    }

    private static int flags(dev.sluice.PipeEnd e) {
        int fl = LibC.fcntl(((KernelEnd) e).fd(), LibC.F_GETFL, 0);
        assertThat(fl).as("F_GETFL").isNotNegative();
        return fl;
    }

    @Test
    void heapDirectAndMixedScatterGatherMoveTheSameBytes() throws Exception {
        KernelPipe p = KernelPipe.open();
        ByteBuffer[] out = {ByteBuffer.wrap(new byte[] {1, 2}),
            ByteBuffer.allocateDirect(3).put(new byte[] {3, 4, 5}).flip()};
        assertThat(p.writer().write(out)).isEqualTo(5);
        ByteBuffer[] direct = {ByteBuffer.allocateDirect(1), ByteBuffer.allocateDirect(10)};
        assertThat(p.reader().read(direct)).isEqualTo(5);
        assertThat(direct[0].flip().get()).isEqualTo((byte) 1);
        byte[] rest = new byte[4];
        direct[1].flip().get(rest);
        assertThat(rest).containsExactly(2, 3, 4, 5);
        p.reader().close();
        p.writer().close();
    }

    /**
     * A descriptor number freed by one pipe is soon reused by the next; handles of the closed pipe must
     * never touch it. Readers blocked on closed handles wake with AsynchronousCloseException while new
     * pipes, which likely got the same numbers, keep their data.
     */
    @ParameterizedTest
    @ValueSource(strings = {"platform", "virtual"})
    void aClosedDescriptorNumberIsNeverUsedByItsOldHandle(String kind) throws Exception {
        for (int round = 0; round < 50; round++) {
            List<KernelPipe> old = new ArrayList<>();
            List<CompletableFuture<Throwable>> outcomes = new ArrayList<>();
            for (int i = 0; i < 8; i++) {
                KernelPipe p = KernelPipe.open();
                old.add(p);
                CompletableFuture<Throwable> f = new CompletableFuture<>();
                outcomes.add(f);
                ReadEnd r = p.reader();
                Runnable body = () -> {
                    try {
                        r.read(new byte[1]);
                        f.complete(null);
                    } catch (Throwable t) {
                        f.complete(t);
                    }
                };
                Thread t = kind.equals("virtual") ? Thread.ofVirtual().start(body) : Thread.ofPlatform().start(body);
                if (i == 0) {
                    KernelSpliceTest.awaitParked(t);
                }
            }
            // Close the read handles under the (possibly) blocked readers, then reuse the numbers at once.
            for (KernelPipe p : old) {
                p.reader().close();
            }
            List<KernelPipe> fresh = new ArrayList<>();
            for (int i = 0; i < 8; i++) {
                KernelPipe q = KernelPipe.open();
                q.writer().write(new byte[] {(byte) i});
                fresh.add(q);
            }
            for (CompletableFuture<Throwable> f : outcomes) {
                Throwable t = f.get(10, TimeUnit.SECONDS);
                assertThat(t).isInstanceOfAny(AsynchronousCloseException.class,
                        java.nio.channels.ClosedChannelException.class);
            }
            for (int i = 0; i < 8; i++) {
                KernelPipe q = fresh.get(i);
                assertThat(q.reader().available()).as("the new pipe's byte is untouched").isEqualTo(1);
                byte[] b = new byte[2];
                assertThat(q.reader().read(b)).isEqualTo(1);
                assertThat(b[0]).isEqualTo((byte) i);
                q.reader().close();
                q.writer().close();
                old.get(i).writer().close();
            }
        }
    }

    /** Virtual threads waiting on kernel pipes unmount: many more waiters than carriers all get through. */
    @Test
    void manyVirtualThreadsBlockedOnKernelPipesDoNotHoldCarriers() throws Exception {
        int n = 500;
        List<KernelPipe> pipes = new ArrayList<>();
        List<Thread> readers = new ArrayList<>();
        int[] got = new int[n];
        for (int i = 0; i < n; i++) {
            KernelPipe p = KernelPipe.open();
            pipes.add(p);
            int id = i;
            readers.add(Thread.ofVirtual().start(() -> {
                try {
                    got[id] = p.reader().read(new byte[4]);
                } catch (IOException e) {
                    throw new java.io.UncheckedIOException(e);
                }
            }));
        }
        for (Thread t : readers) {
            KernelSpliceTest.awaitParked(t); // all parked at once: impossible if each pinned one of the few carriers
        }
        for (KernelPipe p : pipes) {
            p.writer().write(new byte[] {1, 2});
        }
        for (Thread t : readers) {
            t.join();
        }
        for (int i = 0; i < n; i++) {
            assertThat(got[i]).isEqualTo(2);
            pipes.get(i).reader().close();
            pipes.get(i).writer().close();
        }
    }
}
