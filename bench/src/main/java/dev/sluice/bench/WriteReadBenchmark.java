package dev.sluice.bench;

import dev.sluice.PageMemory;
import dev.sluice.Pipe;
import dev.sluice.PipeOptions;
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
 * The normal write and read path with no thread hand-off: one thread writes {@code size} bytes and reads them
 * back. No waiting and no wake-ups, so it measures the copy, the ring and the page pool alone, and is far
 * steadier than {@link ThroughputBenchmark} on a shared machine. Used to check that changes to the ring (such
 * as reference-counted pages for splice and tee) do not slow the common path, and what direct pages
 * ({@code pages=direct}, {@link PageMemory#DIRECT}) cost it: a {@code byte[]} copied to and from direct memory
 * instead of another array.
 *
 * <p>Run: {@code java -jar bench/target/benchmarks.jar WriteReadBenchmark -f 1 -wi 2 -i 3 -r 2s}
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 1, jvmArgsPrepend = {"-Xmx1g"})
public class WriteReadBenchmark {
    /** Bytes written and read back per operation. */
    @Param({"100", "4096", "65536"})
    public int size;

    /** Where the pipe's pages live: {@code heap} or {@code direct} ({@link PageMemory}). */
    @Param({"heap", "direct"})
    public String pages;

    private Pipe pipe;
    private byte[] data;
    private byte[] into;

    /** Run by JMH. */
    public WriteReadBenchmark() {
    }

    /** Opens a 128 KiB pipe with pages of the chosen memory. */
    @Setup(Level.Trial)
    public void setUp() {
        PageMemory memory = PageMemory.valueOf(pages.toUpperCase(java.util.Locale.ROOT));
        pipe = Pipe.open(PipeOptions.builder().capacity(128 * 1024).pageMemory(memory).build());
        data = new byte[size];
        into = new byte[size];
    }

    /** Closes both ends. */
    @TearDown(Level.Trial)
    public void tearDown() {
        pipe.writer().close();
        pipe.reader().close();
    }

    /**
     * Writes {@code size} bytes and reads them back.
     *
     * @return the bytes read
     * @throws IOException if the pipe fails
     * @throws IllegalStateException if a read returns nothing while bytes are queued
     */
    @Benchmark
    public int writeRead() throws IOException {
        pipe.writer().write(data);
        int got = 0;
        while (got < size) {
            int r = pipe.reader().read(into, got, size - got);
            if (r <= 0) {
                throw new IllegalStateException("read returned " + r);
            }
            got += r;
        }
        return got;
    }
}
