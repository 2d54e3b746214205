package dev.sluice.bench;

import dev.sluice.Pipe;
import dev.sluice.PipeCounters;
import dev.sluice.PipeOptions;

/**
 * Not a benchmark: streams {@code bytes} through one pipe in writes of {@code writeSize} (one writer, one
 * reader with a 64 KiB buffer, both on {@code threads}), three times, and prints the rate with the pipe's
 * counters for the last two rounds. The rate is only a hint (use JMH for speed); the counters tell why a
 * configuration is fast or slow: read calls per write, waits, spins that succeeded, lock contention.
 *
 * <pre>{@code
 * java -cp bench/target/benchmarks.jar dev.sluice.bench.CounterProbe 100 20 platform 400000000
 * java -cp bench/target/benchmarks.jar dev.sluice.bench.CounterProbe 100 a20 platform 400000000
 * }</pre>
 *
 * Arguments: writeSize, spinMicros (as the benchmarks take it: {@code 0}, {@code 20}, {@code a20}), threads
 * ({@code platform} or {@code virtual}), bytes per round, and optionally the busy threads beside it (as the
 * benchmarks' {@code busy}). The wake policy is full-and-freed, the lock a mutex.
 */
public final class CounterProbe {
    private CounterProbe() {
    }

    /**
     * Runs the three rounds and prints a line for each of the last two.
     *
     * @param args writeSize, spinMicros, threads and bytes per round, as above
     * @throws Exception if a write fails, or the wait for the reader is interrupted
     */
    public static void main(String[] args) throws Exception {
        int writeSize = Integer.parseInt(args[0]);
        PipeOptions options = SluiceConfig.options("full-and-freed", "mutex", args[1]);
        String threads = args[2];
        long total = Long.parseLong(args[3]);
        Busy busy = Busy.start(args.length > 4 ? Integer.parseInt(args[4]) : 0);
        Pipe p = Pipe.open(options);
        byte[] data = new byte[writeSize];
        Threads.Side side = Threads.side(threads);
        for (int round = 0; round < 3; round++) {
            p.resetCounters();
            Thread reader = Threads.start(threads, () -> {
                byte[] buf = new byte[65536];
                long n = 0;
                try {
                    while (n < total) {
                        n += p.reader().read(buf, 0, buf.length);
                    }
                } catch (Exception e) {
                    throw new IllegalStateException(e);
                }
            });
            long t0 = System.nanoTime();
            side.run(() -> {
                for (long left = total; left > 0; ) {
                    int n = (int) Math.min(left, writeSize);
                    p.writer().write(data, 0, n);
                    left -= n;
                }
            });
            reader.join();
            long t = System.nanoTime() - t0;
            PipeCounters c = p.counters();
            if (round > 0) {
                System.out.printf("%s B %s spin %s: %.3f GB/s  reads %,d  reader waits %,d  writer waits %,d"
                                + "  spun %,d  lock contended %,d%n", writeSize, threads, args[1], total / (double) t,
                        c.readCalls(), c.readerWaits(), c.writerWaits(), c.spunWaits(), c.lockContended());
            }
        }
        side.close();
        busy.stop();
        p.writer().close();
        p.reader().close();
    }
}
