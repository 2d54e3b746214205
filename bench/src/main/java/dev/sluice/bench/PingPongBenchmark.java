package dev.sluice.bench;

import java.util.concurrent.TimeUnit;
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
 * A 1-byte token bounced between two threads through two pipes: lmbench {@code lat_pipe}, perf bench sched
 * pipe. The score is the time of one round trip (two wake-ups unless a spin catches the token). Each byte is
 * checked on its way back. {@code busy} threads keep the cores busy beside the two sides ({@link Busy}).
 * The peers flush after every write, as a user who cares about latency does ({@link Peers}).
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 1, jvmArgsPrepend = {"-Xmx1g"})
public abstract class PingPongBenchmark {
    static final int ROUNDS = 1000;

    /** Which threads the two sides run on: {@code platform}, or {@code virtual} (one each for the whole trial). */
    @Param({"platform", "virtual"})
    public String threads;

    /** Busy threads beside the benchmark: 0 for an idle machine, 2 for a busy one (two cores here). */
    @Param({"0", "2"})
    public int busy;

    private Busy busyThreads;
    private Threads.Side side;
    private Transport there;
    private Transport back;
    private Thread echo;
    private volatile Throwable echoFailure;
    private final byte[] token = new byte[1];

    /** For the subclasses, one per kind of pipe. */
    protected PingPongBenchmark() {
    }

    abstract Transport open() throws Exception;

    /** @return whether the measured side must be one thread for the whole trial ({@link Threads#side}) */
    boolean persistentSide() {
        return false;
    }

    /**
     * Opens the two pipes, starts the echo thread (which sends every byte back one higher), the measured side
     * and the busy threads.
     *
     * @throws Exception if a pipe cannot be opened
     */
    @Setup(Level.Trial)
    public void setUp() throws Exception {
        there = open();
        back = open();
        echo = Threads.start(threads, () -> {
            byte[] b = new byte[1];
            try {
                while (there.read(b, 0, 1) > 0) {
                    b[0]++;
                    back.write(b, 0, 1);
                }
            } catch (Throwable t) {
                echoFailure = t;
            }
        });
        side = Threads.side(threads, persistentSide());
        busyThreads = Busy.start(busy);
    }

    /**
     * Bounces the token {@link #ROUNDS} times, checking each reply.
     *
     * @throws Exception if a read or write fails
     * @throws IllegalStateException if the echo sent back anything but the token plus one
     */
    @Benchmark
    @OperationsPerInvocation(ROUNDS)
    public void roundTrip() throws Exception {
        side.run(() -> {
            for (int i = 0; i < ROUNDS; i++) {
                byte sent = token[0];
                there.write(token, 0, 1);
                if (back.read(token, 0, 1) != 1 || token[0] != (byte) (sent + 1)) {
                    throw new IllegalStateException("echo returned the wrong byte");
                }
            }
        });
    }

    /**
     * Stops the busy threads and the measured side, closes the pipes, which ends the echo thread, and reports
     * its failure if it had one.
     *
     * @throws Exception if closing fails
     * @throws IllegalStateException if the echo thread failed
     */
    @TearDown(Level.Trial)
    public void tearDown() throws Exception {
        busyThreads.stop();
        side.close();
        there.closeWriter();
        echo.join();
        there.close();
        back.close();
        if (echoFailure != null) {
            throw new IllegalStateException("echo thread failed", echoFailure);
        }
    }

    /** Sluice's in-process pipe as {@code Pipe.open()} makes it, which the peers are measured against. */
    public static class SluiceDefault extends PingPongBenchmark {
        /** Run by JMH. */
        public SluiceDefault() {
        }

        @Override
        Transport open() {
            return Transport.sluice(dev.sluice.PipeOptions.defaults());
        }
    }

    /** {@code PipedInputStream}/{@code PipedOutputStream}, 64 KiB, a flush after every write. */
    public static class JdkPiped extends PingPongBenchmark {
        /** Run by JMH. */
        public JdkPiped() {
        }

        @Override
        boolean persistentSide() {
            return true; // PipedInputStream ties its ends to threads
        }

        @Override
        Transport open() throws Exception {
            return Peers.jdkPiped(true);
        }
    }

    /** Okio's {@code Pipe} through buffered ends, a flush after every write. */
    public static class Okio extends PingPongBenchmark {
        /** Run by JMH. */
        public Okio() {
        }

        @Override
        Transport open() {
            return Peers.okio(true);
        }
    }

    /** A Sluice pipe through {@code sluice-okio}, Okio's buffered ends, a flush after every write. */
    public static class SluiceOkio extends PingPongBenchmark {
        /** Run by JMH. */
        public SluiceOkio() {
        }

        @Override
        Transport open() {
            return Peers.sluiceOkio(true);
        }
    }

    /**
     * Not a pipe: the floor under every blocking pipe's round trip on these threads, a bare park and unpark per
     * direction ({@link Handoff}).
     */
    public static class Floor extends PingPongBenchmark {
        /** Run by JMH. */
        public Floor() {
        }

        @Override
        Transport open() {
            return new Handoff();
        }
    }

    /** Agrona's {@code OneToOneRingBuffer}: polls, cannot block. */
    @Fork(value = 1, jvmArgsPrepend = {"-Xmx1g", "--add-exports=java.base/jdk.internal.misc=ALL-UNNAMED"})
    public static class Agrona extends PingPongBenchmark {
        /** Run by JMH. */
        public Agrona() {
        }

        @Override
        Transport open() {
            return Peers.agrona();
        }
    }

    /** Sluice's in-process pipe; the wake policy does not matter for one byte, the lock and the spin do. */
    public static class Sluice extends PingPongBenchmark {
        /** The lock strategy: {@code mutex} or {@code spin}. */
        @Param({"mutex", "spin"})
        public String lock;

        /** Microseconds a waiting thread spins before it parks; "a20": the adaptive spin policy, at most 20 µs. */
        @Param({"0", "5", "20", "50", "a20"})
        public String spinMicros;

        /** Run by JMH. */
        public Sluice() {
        }

        @Override
        Transport open() {
            return Transport.sluice(SluiceConfig.options("full-and-freed", lock, spinMicros));
        }
    }

    /**
     * The kernel pipe through Sluice's kernel module: {@code KernelPipe} (FFM, O_NONBLOCK descriptors and
     * the poller thread), heap arrays passed to read/write without a copy.
     */
    @Fork(value = 1, jvmArgsPrepend = {"-Xmx1g", "--enable-native-access=ALL-UNNAMED"})
    public static class Kernel extends PingPongBenchmark {
        /** Run by JMH. */
        public Kernel() {
        }

        @Override
        Transport open() throws Exception {
            return Transport.kernel();
        }
    }

    /** The kernel pipe, through {@code java.nio.channels.Pipe}. */
    public static class Nio extends PingPongBenchmark {
        /** Run by JMH. */
        public Nio() {
        }

        @Override
        Transport open() throws Exception {
            return Transport.nio();
        }
    }
}
