package dev.sluice.crossjvm;

import java.io.IOException;
import java.nio.MappedByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import org.agrona.concurrent.UnsafeBuffer;
import org.agrona.concurrent.ringbuffer.OneToOneRingBuffer;
import org.agrona.concurrent.ringbuffer.RingBufferDescriptor;

/**
 * {@link Transport#AGRONA}: two {@link OneToOneRingBuffer}s of {@value #RING} bytes, one each way, in one file
 * under {@code /dev/shm} (mode 0600) that both JVMs map; the parent deletes it once the child has it mapped.
 */
final class AgronaLinks {
    /** Each ring's capacity: its largest message is an eighth of it, 128 KiB (as the in-JVM benchmarks use). */
    static final int RING = 1 << 20;
    private static final int STRIDE = RING + RingBufferDescriptor.TRAILER_LENGTH;

    private AgronaLinks() {
    }

    static Wiring wiring() throws IOException {
        Path shm = Path.of("/dev/shm");
        Path file = Files.isDirectory(shm) ? Files.createTempFile(shm, "sluice-crossjvm-", ".rings")
                : Files.createTempFile("sluice-crossjvm-", ".rings");
        MappedByteBuffer map;
        try {
            map = map(file);
        } catch (IOException | RuntimeException e) {
            Files.deleteIfExists(file);
            throw e;
        }
        AtomicBoolean gone = new AtomicBoolean();
        return new Wiring() {
            @Override
            List<String> args() {
                return List.of(file.toString());
            }

            @Override
            Link connect(Process child) {
                return new AgronaChannel(ring(map, 1), ring(map, 0), gone::get);
            }

            @Override
            void joined() {
                discard();
            }

            @Override
            void childGone() {
                gone.set(true);
            }

            @Override
            void discard() {
                try {
                    Files.deleteIfExists(file);
                } catch (IOException ignored) {
                    // a file left in /dev/shm
                }
            }
        };
    }

    static Link join(List<String> args) throws IOException {
        MappedByteBuffer map = map(Path.of(args.get(0)));
        return new AgronaChannel(ring(map, 0), ring(map, 1), () -> false); // the lifeline ends this JVM
    }

    private static MappedByteBuffer map(Path file) throws IOException {
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.READ, StandardOpenOption.WRITE)) {
            return ch.map(FileChannel.MapMode.READ_WRITE, 0, 2L * STRIDE); // grows the new, empty file
        }
    }

    /** Ring 0 carries parent to child, ring 1 child to parent. */
    private static OneToOneRingBuffer ring(MappedByteBuffer map, int which) {
        return new OneToOneRingBuffer(new UnsafeBuffer(map, which * STRIDE, STRIDE));
    }
}
