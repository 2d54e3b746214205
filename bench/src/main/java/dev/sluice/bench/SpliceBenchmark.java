package dev.sluice.bench;

import dev.sluice.Pipe;
import dev.sluice.PipeOptions;
import dev.sluice.Splice;
import java.io.IOException;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Moving a chunk from one Sluice pipe to another: {@link Splice#splice} and {@link Splice#tee} against the
 * same thing done with a read into a heap buffer and a write of it. One thread, no waiting, so the score is
 * the cost of the mechanism and nothing else.
 *
 * <p>Every operation writes {@code chunk} bytes into pipe A and ends with the reader(s) holding them, so the
 * write into A and the final reads are common to each pair being compared:
 * <ul>
 *   <li>{@code copy}: write A; read A into a buffer; write the buffer to B; read B. (4 copies)</li>
 *   <li>{@code splice}: write A; splice A → B; read B. (2 copies; the pages move)</li>
 *   <li>{@code teeCopy}: two consumers get the chunk: write A; read A into a buffer (consumer 1); write it
 *       to B; read B (consumer 2). (4 copies)</li>
 *   <li>{@code tee}: write A; tee A → B; read A (consumer 1); read B (consumer 2). (3 copies; the pages are
 *       shared)</li>
 * </ul>
 * Each result is checked: the bytes read must equal the chunk's length, or the benchmark fails.
 *
 * <p>Run: {@code java -jar bench/target/benchmarks.jar SpliceBenchmark -f 1 -wi 2 -i 3 -r 2s}
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 1, jvmArgsPrepend = {"-Xmx1g"})
public class SpliceBenchmark {
    /** Bytes each operation moves from pipe A to its reader(s). */
    @Param({"4096", "65536"})
    public int chunk;

    private Pipe a;
    private Pipe b;
    private byte[] data;
    private byte[] buffer;
    private byte[] sink;

    /** Run by JMH. */
    public SpliceBenchmark() {
    }

    /** Opens pipes A and B (128 KiB each) and fills the chunk with a pattern. */
    @Setup(Level.Trial)
    public void setUp() {
        PipeOptions options = PipeOptions.builder().capacity(128 * 1024).build();
        a = Pipe.open(options);
        b = Pipe.open(options);
        data = new byte[chunk];
        for (int i = 0; i < chunk; i++) {
            data[i] = (byte) (i * 31);
        }
        buffer = new byte[chunk];
        sink = new byte[chunk];
    }

    /** Closes both pipes. */
    @TearDown(Level.Trial)
    public void tearDown() {
        a.writer().close();
        a.reader().close();
        b.writer().close();
        b.reader().close();
    }

    /**
     * The chunk from A to B through a buffer: write A, read A, write B, read B.
     *
     * @return the bytes read from B
     * @throws IOException if a pipe fails
     */
    @Benchmark
    public int copy() throws IOException {
        a.writer().write(data);
        int n = readAll(a, buffer);
        b.writer().write(buffer, 0, n);
        return readAll(b, sink);
    }

    /**
     * The chunk from A to B by moving its pages: write A, splice A into B, read B.
     *
     * @return the bytes read from B
     * @throws IOException if a pipe fails
     * @throws IllegalStateException if the splice moved less than the chunk
     */
    @Benchmark
    public int splice() throws IOException {
        a.writer().write(data);
        check(Splice.splice(a.reader(), b.writer(), chunk));
        return readAll(b, sink);
    }

    /**
     * Two consumers of the chunk by copying: write A, read A (the first), write that to B, read B (the second).
     *
     * @return the bytes both consumers read
     * @throws IOException if a pipe fails
     */
    @Benchmark
    public int teeCopy() throws IOException {
        a.writer().write(data);
        int n = readAll(a, buffer);
        b.writer().write(buffer, 0, n);
        return n + readAll(b, sink);
    }

    /**
     * Two consumers of the chunk by sharing its pages: write A, tee A into B, read A and read B.
     *
     * @return the bytes both consumers read
     * @throws IOException if a pipe fails
     * @throws IllegalStateException if the tee duplicated less than the chunk
     */
    @Benchmark
    public int tee() throws IOException {
        a.writer().write(data);
        check(Splice.tee(a.reader(), b.writer(), chunk));
        return readAll(a, buffer) + readAll(b, sink);
    }

    private void check(long moved) {
        if (moved != chunk) {
            throw new IllegalStateException("moved " + moved + " of " + chunk);
        }
    }

    /** Reads exactly {@code into.length} bytes (they are all queued). */
    private static int readAll(Pipe p, byte[] into) throws IOException {
        int got = 0;
        while (got < into.length) {
            int r = p.reader().read(into, got, into.length - got);
            if (r <= 0) {
                throw new IllegalStateException("read returned " + r + " after " + got + " of " + into.length);
            }
            got += r;
        }
        return got;
    }
}
