package dev.sluice.bench;

import dev.sluice.crossjvm.Pattern;
import dev.sluice.crossjvm.Role;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Warmup;

/**
 * A stream from this JVM to a child JVM ({@link CrossJvmBase}) in writes of {@code writeSize} bytes; the child
 * reads with a 64 KiB buffer and checks every byte against {@link Pattern}, and at tear-down its count must equal
 * what was written. Each invocation writes {@link #BATCH} bytes; the score is bytes per microsecond, that is MB/s.
 */
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 1, jvmArgsPrepend = {"-Xmx1g", "--enable-native-access=ALL-UNNAMED",
    "--add-exports=java.base/jdk.internal.misc=ALL-UNNAMED", "--sun-misc-unsafe-memory-access=allow"})
public class CrossJvmStream extends CrossJvmBase {
    /** Bytes per invocation. */
    static final int BATCH = 4 << 20;

    /** Bytes per write call. */
    @Param({"4096", "65536"})
    public int writeSize;

    /** Run by JMH. */
    public CrossJvmStream() {
    }

    @Override
    Role role() {
        return Role.SINK;
    }

    /**
     * Writes {@link #BATCH} bytes of the pattern in writes of {@code writeSize}.
     *
     * @throws Exception if a write fails
     */
    @Benchmark
    @OperationsPerInvocation(BATCH)
    public void stream() throws Exception {
        byte[] data = Pattern.bytes();
        for (int left = BATCH; left > 0; ) {
            int n = Math.min(left, writeSize);
            peer.write(data, Pattern.offset(peer.sent()), n);
            left -= n;
        }
    }

    @Override
    void finish() throws Exception {
        peer.finish(); // the child's count must be what was sent, every byte as the pattern says
    }
}
