package dev.sluice.bench;

import dev.sluice.kernel.KernelFile;
import dev.sluice.kernel.KernelPipe;
import dev.sluice.kernel.KernelSplice;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Arrays;
import java.util.EnumSet;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * File → pipe → file, one thread, {@link #SIZE} bytes per invocation (the source stays in the page cache):
 * <ul>
 *   <li>{@code splice}: {@code splice(2)} file → kernel pipe → file, the bytes never enter Java;</li>
 *   <li>{@code pipeCopyLoop}: the same route through a 64 KiB heap array: read the file, write the pipe,
 *       read the pipe, write the file;</li>
 *   <li>{@code copyLoop}: no pipe at all, a plain read/write loop through a 64 KiB heap buffer, for
 *       scale.</li>
 * </ul>
 * Score in bytes/µs (MB/s). The copy is checked byte for byte once, at tear-down.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 1, jvmArgsPrepend = {"-Xmx1g", "--enable-native-access=ALL-UNNAMED"})
public class FileCopyBenchmark {
    static final int SIZE = 16 << 20;
    static final int CHUNK = 64 << 10;

    private Path dir;
    private Path src;
    private Path dst;
    private KernelPipe pipe;
    private KernelFile in;
    private KernelFile out;
    private FileChannel inCh;
    private FileChannel outCh;
    private final byte[] buf = new byte[CHUNK];

    /** Run by JMH. */
    public FileCopyBenchmark() {
    }

    /**
     * Writes a {@link #SIZE}-byte random source file and opens it, the destination and a kernel pipe.
     *
     * @throws IOException if a file or the pipe cannot be made
     */
    @Setup(Level.Trial)
    public void setUp() throws IOException {
        dir = Files.createTempDirectory("sluice-bench");
        src = dir.resolve("src");
        dst = dir.resolve("dst");
        byte[] data = new byte[SIZE];
        new SplittableRandom(42).nextBytes(data);
        Files.write(src, data);
        pipe = KernelPipe.open();
        in = KernelFile.open(src, StandardOpenOption.READ);
        out = KernelFile.open(dst, StandardOpenOption.WRITE, StandardOpenOption.CREATE);
        inCh = FileChannel.open(src, StandardOpenOption.READ);
        outCh = FileChannel.open(dst, StandardOpenOption.WRITE);
    }

    /**
     * Copies the file with {@code splice(2)}: file into the pipe, pipe into the file, page references only.
     *
     * @return the bytes copied
     * @throws IOException if a splice fails
     */
    @Benchmark
    @OperationsPerInvocation(SIZE)
    public long splice() throws IOException {
        long done = 0;
        while (done < SIZE) {
            long n = KernelSplice.splice(in, done, pipe.writer(), SIZE - done, EnumSet.of(KernelSplice.Flag.MOVE));
            for (long left = n; left > 0; ) {
                left -= KernelSplice.splice(pipe.reader(), out, done + (n - left), left,
                        EnumSet.of(KernelSplice.Flag.MOVE));
            }
            done += n;
        }
        return done;
    }

    /**
     * Copies the file through the kernel pipe with a heap array: read the file, write the pipe, read the
     * pipe, write the file.
     *
     * @return the bytes copied
     * @throws IOException if a read or write fails
     */
    @Benchmark
    @OperationsPerInvocation(SIZE)
    public long pipeCopyLoop() throws IOException {
        long done = 0;
        ByteBuffer b = ByteBuffer.wrap(buf);
        while (done < SIZE) {
            b.clear();
            int n = inCh.read(b, done);
            pipe.writer().write(buf, 0, n);
            for (int got = 0; got < n; ) {
                got += pipe.reader().read(buf, got, n - got);
            }
            b.flip();
            while (b.hasRemaining()) {
                outCh.write(b, done + b.position());
            }
            done += n;
        }
        return done;
    }

    /**
     * Copies the file with a plain read/write loop, no pipe: the scale the two others are read against.
     *
     * @return the bytes copied
     * @throws IOException if a read or write fails
     */
    @Benchmark
    @OperationsPerInvocation(SIZE)
    public long copyLoop() throws IOException {
        long done = 0;
        ByteBuffer b = ByteBuffer.wrap(buf);
        while (done < SIZE) {
            b.clear();
            int n = inCh.read(b, done);
            b.flip();
            while (b.hasRemaining()) {
                outCh.write(b, done + b.position());
            }
            done += n;
        }
        return done;
    }

    /**
     * Closes everything, checks the copy against the source byte for byte, and deletes the files.
     *
     * @throws IOException if closing, reading or deleting fails
     * @throws IllegalStateException if the copy differs from the source
     */
    @TearDown(Level.Trial)
    public void tearDown() throws IOException {
        in.close();
        out.close();
        inCh.close();
        outCh.close();
        pipe.reader().close();
        pipe.writer().close();
        if (!Arrays.equals(Files.readAllBytes(src), Files.readAllBytes(dst))) {
            throw new IllegalStateException("the copy differs from the source");
        }
        Files.delete(src);
        Files.delete(dst);
        Files.delete(dir);
    }
}
