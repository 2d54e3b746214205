package dev.sluice.bench;

import java.util.Arrays;
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
 * <p>The reader runs for the whole trial and checks every byte it gets against the stream the writer
 * writes (a vectorised compare, so it costs every pipe the same little); at tear-down its count must equal
 * what was written, or the benchmark fails. {@code busy} threads keep the machine's cores busy beside the two
 * sides ({@link Busy}): every table exists for an idle and a busy machine.
 *
 * <p>Subclasses choose the pipe: {@link SluiceDefault} ({@code Pipe.open()}), {@link Sluice} over every wake
 * policy, lock strategy and spin; the other Java pipes as their users run them ({@link JdkPiped},
 * {@link Okio}, {@link Agrona}, see {@link Peers}); the kernel pipe through {@link Nio} and {@link Kernel}.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 1, jvmArgsPrepend = {"-Xmx2g"})
public abstract class ThroughputBenchmark {
    /** Bytes per invocation. */
    static final int BATCH = 4 << 20;

    /** Bytes per write call. */
    @Param({"100", "4096", "65536"})
    public int writeSize;

    /** Which threads the two sides run on: {@code platform}, or {@code virtual} (one each for the whole trial). */
    @Param({"platform", "virtual"})
    public String threads;

    /** Busy threads beside the benchmark: 0 for an idle machine, 2 for a busy one (two cores here). */
    @Param({"0", "2"})
    public int busy;

    private Transport transport;
    private Thread reader;
    private Busy busyThreads;
    private Threads.Side side;
    private final AtomicLong readBytes = new AtomicLong();
    private volatile Throwable readerFailure;
    private long written;
    /** The stream is {@code (byte) (offset % writeSize)}; this holds two periods, so any write is a slice. */
    private byte[] data;
    /** Where the next write starts in {@link #data}: the stream's offset modulo {@code writeSize}. */
    private int phase;

    /** For the subclasses, one per kind of pipe. */
    protected ThroughputBenchmark() {
    }

    abstract Transport open() throws Exception;

    /** @return whether the measured side must be one thread for the whole trial ({@link Threads#side}) */
    boolean persistentSide() {
        return false;
    }

    /**
     * Opens the pipe, starts the reader (which drains and checks it until the writer closes at tear-down), the
     * writing side and the busy threads.
     *
     * @throws Exception if the pipe cannot be opened
     */
    @Setup(Level.Trial)
    public void setUp() throws Exception {
        transport = open();
        data = pattern(2 * writeSize);
        byte[] expected = pattern(65536 + writeSize);
        reader = Threads.start(threads, () -> {
            byte[] buf = new byte[65536];
            long n = 0;
            try {
                for (int r; (r = transport.read(buf, 0, buf.length)) >= 0; ) {
                    int from = (int) (n % writeSize);
                    if (!Arrays.equals(buf, 0, r, expected, from, from + r)) {
                        throw new IllegalStateException("wrong bytes at stream offset " + n);
                    }
                    n += r;
                }
            } catch (Throwable t) {
                readerFailure = t;
            } finally {
                readBytes.set(n);
            }
        });
        side = Threads.side(threads, persistentSide());
        busyThreads = Busy.start(busy);
    }

    private byte[] pattern(int n) {
        byte[] b = new byte[n];
        for (int i = 0; i < n; i++) {
            b[i] = (byte) (i % writeSize);
        }
        return b;
    }

    /**
     * Writes {@link #BATCH} bytes in writes of {@code writeSize}, from the benchmark thread or a virtual one.
     *
     * @throws Exception if a write fails
     */
    @Benchmark
    @OperationsPerInvocation(BATCH)
    public void stream() throws Exception {
        side.run(() -> {
            int left = BATCH;
            while (left > 0) {
                int n = Math.min(left, writeSize);
                transport.write(data, phase, n);
                phase = (phase + n) % writeSize;
                left -= n;
            }
        });
        written += BATCH;
    }

    /**
     * Stops the busy threads and the writing side, closes the write side, waits for the reader to see
     * end-of-stream, and checks its count.
     *
     * @throws Exception if closing fails
     * @throws IllegalStateException if the reader failed (wrong bytes included), or read other than what was
     *         written
     */
    @TearDown(Level.Trial)
    public void tearDown() throws Exception {
        busyThreads.stop();
        side.close();
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

    /** Sluice's in-process pipe as {@code Pipe.open()} makes it: the defaults, which the peers are measured against. */
    public static class SluiceDefault extends ThroughputBenchmark {
        /** Run by JMH. */
        public SluiceDefault() {
        }

        @Override
        Transport open() {
            return Transport.sluice(dev.sluice.PipeOptions.defaults());
        }
    }

    /** {@code PipedInputStream}/{@code PipedOutputStream}, 64 KiB, streaming without a flush per write. */
    public static class JdkPiped extends ThroughputBenchmark {
        /** Run by JMH. */
        public JdkPiped() {
        }

        @Override
        boolean persistentSide() {
            return true; // PipedInputStream ties its ends to threads
        }

        @Override
        Transport open() throws Exception {
            return Peers.jdkPiped(false);
        }
    }

    /** Okio's {@code Pipe}, 64 KiB, through buffered ends, streaming without a flush per write. */
    public static class Okio extends ThroughputBenchmark {
        /** Run by JMH. */
        public Okio() {
        }

        @Override
        Transport open() {
            return Peers.okio(false);
        }
    }

    /** A Sluice pipe through {@code sluice-okio}, with Okio's buffered ends as {@link Okio} has them. */
    public static class SluiceOkio extends ThroughputBenchmark {
        /** Run by JMH. */
        public SluiceOkio() {
        }

        @Override
        Transport open() {
            return Peers.sluiceOkio(false);
        }
    }

    /** Agrona's {@code OneToOneRingBuffer}, 1 MiB, a message per write: polls, cannot block. */
    @Fork(value = 1, jvmArgsPrepend = {"-Xmx2g", "--add-exports=java.base/jdk.internal.misc=ALL-UNNAMED"})
    public static class Agrona extends ThroughputBenchmark {
        /** Run by JMH. */
        public Agrona() {
        }

        @Override
        Transport open() {
            return Peers.agrona();
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
    @Fork(value = 1, jvmArgsPrepend = {"-Xmx1g", "--enable-native-access=ALL-UNNAMED"})
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
