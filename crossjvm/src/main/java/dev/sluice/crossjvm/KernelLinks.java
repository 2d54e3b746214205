package dev.sluice.crossjvm;

import dev.sluice.kernel.KernelPipe;
import dev.sluice.kernel.KernelProcessBuilder;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;

/**
 * {@link Transport#KERNEL}: two kernel pipes, one each way. The parent uses {@link KernelPipe} (its blocking
 * calls park in Java); the child gets its ends as descriptors {@value #CHILD_IN} and {@value #CHILD_OUT} and
 * reads and writes them through {@link FileChannel}s opened on {@code /proc/self/fd} (new blocking open file
 * descriptions of the same pipes; the inherited descriptors stay open until the child exits).
 */
final class KernelLinks {
    static final int CHILD_IN = 4;
    static final int CHILD_OUT = 5;

    private KernelLinks() {
    }

    static Wiring wiring(int capacity) throws IOException {
        KernelPipe there = KernelPipe.open(Peer.pipeOptions(capacity));
        KernelPipe back;
        try {
            back = KernelPipe.open(Peer.pipeOptions(capacity));
        } catch (IOException | RuntimeException e) {
            there.reader().close();
            there.writer().close();
            throw e;
        }
        return new Wiring() {
            @Override
            List<String> args() {
                return List.of();
            }

            @Override
            void prepare(KernelProcessBuilder b) {
                b.fd(CHILD_IN, there.reader()).fd(CHILD_OUT, back.writer()); // handed over: closed here at start
            }

            @Override
            Link connect(Process child) {
                return new PipeLink(back.reader(), there.writer());
            }

            @Override
            void discard() {
                there.reader().close();
                there.writer().close();
                back.reader().close();
                back.writer().close();
            }
        };
    }

    static Link join(List<String> args) throws IOException {
        FileChannel in = FileChannel.open(Path.of("/proc/self/fd/" + CHILD_IN), StandardOpenOption.READ);
        try {
            FileChannel out = FileChannel.open(Path.of("/proc/self/fd/" + CHILD_OUT), StandardOpenOption.WRITE);
            return new ChannelLink(in, out, out::close);
        } catch (IOException | RuntimeException e) {
            in.close();
            throw e;
        }
    }
}
