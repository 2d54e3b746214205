package dev.sluice.bench;

import dev.sluice.crossjvm.Role;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
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
import org.openjdk.jmh.annotations.Warmup;

/**
 * A 1-byte token bounced between this JVM and an echoing child JVM ({@link CrossJvmBase}); every reply is
 * checked. {@link #roundTrip} bounces it back to back; {@link #sparse} pauses (untimed) before each round trip so
 * that the child's blocked read has gone to sleep, and times the wake-up with the trip; {@link #idle} leaves the
 * child waiting for a second at a time, for the CPU it uses while it waits ({@code -prof
 * dev.sluice.bench.CrossJvmCpu}).
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 1, jvmArgsPrepend = {"-Xmx1g", "--enable-native-access=ALL-UNNAMED",
    "--add-exports=java.base/jdk.internal.misc=ALL-UNNAMED", "--sun-misc-unsafe-memory-access=allow"})
public class CrossJvmPingPong extends CrossJvmBase {
    static final int ROUNDS = 1000;
    private final byte[] token = new byte[1];

    /** Run by JMH. */
    public CrossJvmPingPong() {
    }

    @Override
    Role role() {
        return Role.ECHO;
    }

    /**
     * Bounces the token {@link #ROUNDS} times.
     *
     * @throws Exception if a read or write fails, or a reply is not the token
     */
    @Benchmark
    @OperationsPerInvocation(ROUNDS)
    public void roundTrip() throws Exception {
        for (int i = 0; i < ROUNDS; i++) {
            bounce();
        }
    }

    /**
     * One round trip after a pause of {@link Gap#gapMicros} in which neither side sends: the child's read has
     * stopped spinning and sleeps, so the trip includes its wake-up.
     *
     * @param gap the pause, taken before each call and not timed
     * @throws Exception if a read or write fails, or the reply is not the token
     */
    @Benchmark
    public void sparse(Gap gap) throws Exception {
        bounce();
    }

    /**
     * Sleeps a second while the child waits in a read: the score is the second; what matters is the CPU the
     * profiler reports.
     *
     * @throws InterruptedException if interrupted
     */
    @Benchmark
    public void idle() throws InterruptedException {
        Thread.sleep(1000);
    }

    private void bounce() throws Exception {
        byte sent = ++token[0];
        peer.write(token, 0, 1);
        if (!peer.readFully(token, 0, 1) || token[0] != sent) {
            throw new IllegalStateException("the echo returned another byte, or ended");
        }
    }

    /** The untimed pause before each {@link #sparse} round trip. */
    @State(Scope.Thread)
    public static class Gap {
        /** Microseconds asked of {@code parkNanos} (a 2-core VM sleeps about twice that). */
        @Param({"100"})
        public int gapMicros;

        /** Run by JMH. */
        public Gap() {
        }

        /** Pauses before the call; JMH times each call apart from this. */
        @Setup(Level.Invocation)
        public void pause() {
            LockSupport.parkNanos(gapMicros * 1000L);
        }
    }
}
