package dev.sluice.bench;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * One writer, one reader, a stream of writes of {@code writeSize} bytes: the lmbench {@code bw_pipe}
 * shape. The reader always reads with a 64 KiB buffer. Each invocation moves exactly {@link #BATCH} bytes,
 * and the score is in bytes per microsecond, that is MB/s (divide by 1000 for GB/s).
 *
 * <p>The reader runs for the whole trial and counts what it gets; at tear-down the count must equal what
 * was written, or the benchmark fails. Subclasses choose the pipe: {@link Sluice} over every wake policy,
 * lock strategy and spin, {@link Nio} for the kernel pipe in the same run.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 1, jvmArgsAppend = {"-Xmx2g"})
public abstract class ThroughputBenchmark {
    /** Bytes per invocation. */
    static final int BATCH = 4 << 20;

    /** Bytes per write call. */
    @Param({"100", "4096", "65536"})
    public int writeSize;

    /** Which threads the two sides run on: {@code platform}, or {@code virtual} (see {@link Threads#run}). */
    @Param({"platform", "virtual"})
    public String threads;

    private Transport transport;
    private Thread reader;
    private final AtomicLong readBytes = new AtomicLong();
    private volatile Throwable readerFailure;
    private long written;
    private byte[] data;

    /** For the subclasses, one per kind of pipe. */
    protected ThroughputBenchmark() {
    }

    abstract Transport open() throws Exception;

    /**
     * Opens the pipe and starts the reader, which drains it until the writer closes at tear-down.
     *
     * @throws Exception if the pipe cannot be opened
     */
    @Setup(Level.Trial)
    public void setUp() throws Exception {
        transport = open();
        data = new byte[writeSize];
        for (int i = 0; i < data.length; i++) {
            data[i] = (byte) i;
        }
        reader = Threads.start(threads, () -> {
            byte[] buf = new byte[65536];
            long n = 0;
            try {
                for (int r; (r = transport.read(buf, 0, buf.length)) >= 0; ) {
                    n += r;
                }
            } catch (Throwable t) {
                readerFailure = t;
            } finally {
                readBytes.set(n);
            }
        });
    }

    /**
     * Writes {@link #BATCH} bytes in writes of {@code writeSize}, from the benchmark thread or a virtual one.
     *
     * @throws Exception if a write fails
     */
    @Benchmark
    @OperationsPerInvocation(BATCH)
    public void stream() throws Exception {
        Threads.run(threads, () -> {
            int left = BATCH;
            while (left > 0) {
                int n = Math.min(left, writeSize);
                transport.write(data, 0, n);
                left -= n;
            }
        });
        written += BATCH;
    }

    /**
     * Closes the write side, waits for the reader to see end-of-stream, and checks its count.
     *
     * @throws Exception if closing fails
     * @throws IllegalStateException if the reader failed, or read other than what was written
     */
    @TearDown(Level.Trial)
    public void tearDown() throws Exception {
        transport.closeWriter();
        reader.join();
        transport.close();
        if (readerFailure != null) {
            throw new IllegalStateException("reader failed", readerFailure);
        }
        if (readBytes.get() != written) {
            throw new IllegalStateException("bytes lost or duplicated: wrote " + written + ", read " + readBytes.get());
        }
    }

    /** Sluice's in-process pipe, over every wake policy, lock strategy and spin before parking. */
    public static class Sluice extends ThroughputBenchmark {
        /** The wake policy: when a read wakes a writer blocked on a full pipe. */
        @Param({"always", "half-empty", "full-at-start", "full-and-freed", "adaptive"})
        public String policy;

        /** The lock strategy: {@code mutex} or {@code spin}. */
        @Param({"mutex", "spin"})
        public String lock;

        /** Microseconds a waiting thread spins before it parks; "a20": the adaptive spin policy, at most 20 µs. */
        @Param({"0", "20", "a20"})
        public String spinMicros;

        /** Run by JMH. */
        public Sluice() {
        }

        @Override
        Transport open() {
            return Transport.sluice(SluiceConfig.options(policy, lock, spinMicros));
        }
    }

    /**
     * The kernel pipe through Sluice's kernel module: {@code KernelPipe} (FFM, O_NONBLOCK descriptors and
     * the poller thread), heap arrays passed to read/write without a copy.
     */
    @Fork(value = 1, jvmArgsAppend = {"-Xmx1g", "--enable-native-access=ALL-UNNAMED"})
    public static class Kernel extends ThroughputBenchmark {
        /** Run by JMH. */
        public Kernel() {
        }

        @Override
        Transport open() throws Exception {
            return Transport.kernel();
        }
    }

    /** The kernel pipe, through {@code java.nio.channels.Pipe}. */
    public static class Nio extends ThroughputBenchmark {
        /** Run by JMH. */
        public Nio() {
        }

        @Override
        Transport open() throws Exception {
            return Transport.nio();
        }
    }
}
