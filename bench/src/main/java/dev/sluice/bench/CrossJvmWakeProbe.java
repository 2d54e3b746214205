package dev.sluice.bench;

import dev.sluice.crossjvm.Peer;
import dev.sluice.crossjvm.Role;
import dev.sluice.crossjvm.Transport;
import java.util.Arrays;
import java.util.concurrent.locks.LockSupport;

/**
 * Not a benchmark: where a wake-up between two JVMs costs. Bounces a 1-byte token off an echoing child JVM
 * after a 100 µs pause each time (so the child's read has gone to sleep), 20 000 times, and prints the median
 * and 90th percentile of the last 15 000 round trips; with {@code split}, first pins this JVM to CPU 0 and the
 * child to CPU 1 ({@code taskset -a -p}), so that every wake-up must reach the other CPU.
 *
 * <pre>{@code
 * java -cp bench/target/benchmarks.jar dev.sluice.bench.CrossJvmWakeProbe kernel          # free
 * java -cp bench/target/benchmarks.jar dev.sluice.bench.CrossJvmWakeProbe kernel split    # pinned apart
 * }</pre>
 */
public final class CrossJvmWakeProbe {
    private CrossJvmWakeProbe() {
    }

    /**
     * Runs the probe.
     *
     * @param args the transport ({@code shm}, {@code kernel}, {@code uds}, {@code agrona}), and optionally
     *             {@code split}
     * @throws Exception if the child cannot be started or the exchange fails
     */
    public static void main(String[] args) throws Exception {
        Transport t = Transport.parse(args[0]);
        boolean split = args.length > 1 && args[1].equals("split");
        try (Peer p = Peer.start(t, Role.ECHO)) {
            if (split) {
                pin(0, ProcessHandle.current().pid());
                pin(1, p.pid());
            }
            byte[] b = new byte[1];
            long[] d = new long[20_000];
            for (int i = 0; i < d.length; i++) {
                LockSupport.parkNanos(100_000);
                long t0 = System.nanoTime();
                p.write(b, 0, 1);
                if (!p.readFully(b, 0, 1)) {
                    throw new IllegalStateException("the echo ended");
                }
                d[i] = System.nanoTime() - t0;
            }
            long[] m = Arrays.copyOfRange(d, 5_000, d.length);
            Arrays.sort(m);
            System.out.printf("%s %s: median %.1f us, p90 %.1f us%n", t.id(), split ? "pinned apart" : "free",
                    m[m.length / 2] / 1e3, m[m.length * 9 / 10] / 1e3);
        }
    }

    private static void pin(int cpu, long pid) throws Exception {
        int status = new ProcessBuilder("taskset", "-a", "-p", "-c", Integer.toString(cpu), Long.toString(pid))
                .redirectOutput(ProcessBuilder.Redirect.DISCARD).start().waitFor();
        if (status != 0) {
            throw new IllegalStateException("taskset failed (" + status + ") for pid " + pid);
        }
    }
}
