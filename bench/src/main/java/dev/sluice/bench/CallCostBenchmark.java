package dev.sluice.bench;

import dev.sluice.Pipe;
import dev.sluice.PipeOptions;
import dev.sluice.ReadEnd;
import dev.sluice.WriteEnd;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
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
 * The raw cost of one uncontended write and one read on the same thread: no wake-up, no waiting, no other
 * core. It bounds what small-write streaming can reach (a 100-byte write costing {@code t} ns caps the
 * stream at {@code 100 / t} GB/s) and shows what the fast path itself costs, apart from the hand-over between
 * threads the other benchmarks measure. Score: nanoseconds per write-then-read pair.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 1, jvmArgsAppend = {"-Xmx1g"})
public class CallCostBenchmark {
    @Param({"100", "4096"})
    public int writeSize;

    private Pipe pipe;
    private WriteEnd out;
    private ReadEnd in;
    private byte[] data;
    private byte[] buf;

    @Setup
    public void setUp() {
        pipe = Pipe.open(PipeOptions.defaults());
        out = pipe.writer();
        in = pipe.reader();
        data = new byte[writeSize];
        buf = new byte[65536];
    }

    @Benchmark
    public int writeThenRead() throws Exception {
        out.write(data, 0, data.length);
        return in.read(buf, 0, buf.length);
    }

    @TearDown
    public void tearDown() {
        out.close();
        in.close();
    }
}
