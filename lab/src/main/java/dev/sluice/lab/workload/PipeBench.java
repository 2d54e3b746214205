package dev.sluice.lab.workload;

import dev.sluice.lab.targets.PipeHandle;
import dev.sluice.lab.targets.Family;
import dev.sluice.lab.targets.Open;
import dev.sluice.lab.targets.Target;
import dev.sluice.lab.targets.Traffic;
import org.HdrHistogram.Histogram;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Bulk transfer: David Howells' pipe-bench (one writer, one reader; bytes, time, context switches) and, with
 * {@code --writers 1,2,5 --readers 1,5,10}, Breno Leitao's 2026 {@code pipe_bench} matrix (64 KiB writes
 * into a 1 MiB pipe, throughput and write-latency percentiles). Howells' program sampled bytes per second
 * for two minutes; its source was not available, so this moves a fixed number of bytes instead.
 *
 * <p>Check: with one writer and one reader every byte is compared with the position-dependent pattern; with
 * more, writes over 4096 bytes may interleave (as in Linux), so each writer sends its own byte value and
 * the readers' totals of bytes and of byte values must match what was written.
 */
final class PipeBench implements Workload {
    @Override
    public String name() {
        return "pipebench";
    }

    @Override
    public String description() {
        return "Howells' pipe-bench / Leitao's pipe_bench: writers x readers bulk transfer of write-size writes into a "
                + "pipe-size pipe; MB/s, higher is better (matrix: --writers 1,2,5 --readers 1,5,10)";
    }

    @Override
    public List<Param> params() {
        return List.of(
                Param.count("writers", "writer threads (pipe_bench sweeps 1,2,5)", 1, 1, 1, 64),
                Param.count("readers", "reader threads (pipe_bench sweeps 1,5,10)", 1, 1, 1, 64),
                Param.size("write-size", "bytes per write (pipe_bench: 64 KiB)", 65_536, 65_536, 1, Patterns.MAX_CHUNK),
                Param.size("pipe-size", "pipe capacity in bytes (pipe_bench: 1 MiB; at most fs.pipe-max-size's "
                        + "default)",
                        1 << 20, 1 << 20, 1, 1 << 20),
                Param.size("bytes", "total bytes to move", 1L << 30, 256L << 20, 1, Workloads.MAX_BYTES));
    }

    @Override
    public Metric primary() {
        return new Metric("MB/s", "MB/s", false);
    }

    @Override
    public Optional<String> invalid(Map<String, Long> p) {
        if (p.get("bytes") < p.get("write-size") * p.get("writers")) {
            return Optional.of("--bytes must be at least --write-size times --writers (" + p.get("write-size") + " x "
                    + p.get("writers") + "), got " + p.get("bytes"));
        }
        return Optional.empty();
    }

    @Override
    public Optional<String> unsupported(Target target, Map<String, Long> p, ThreadKind threads) {
        boolean shared = p.get("writers") > 1 || p.get("readers") > 1;
        if (shared && target.family() == Family.JDK_PIPED) {
            return Optional.of("PipedInputStream ties each side to the last thread that used it and fails with "
                    + "'Write end dead'/'Pipe broken' when that thread exits while others go on");
        }
        if (shared && target.family() == Family.OKIO) {
            return Optional.of("okio's buffered sink and source serve one thread each (each end is typically used "
                    + "by its own thread)");
        }
        return Optional.empty();
    }

    @Override
    public Outcome run(Target target, Map<String, Long> p, ThreadKind threads) throws Exception {
        int writers = Workloads.intParam(p, "writers");
        int readers = Workloads.intParam(p, "readers");
        int size = Workloads.intParam(p, "write-size");
        int capacity = Workloads.intParam(p, "pipe-size");
        long total = p.get("bytes");
        long perWriter = total / writers / size * size;
        boolean exact = writers == 1 && readers == 1;
        PipeHandle pipe = target.open(new Open(target.caps().sizable() ? capacity : 0, false, Traffic.STREAM));
        String note = target.caps().sizable() ? null
                : "capacity fixed at the target's default (64 KiB), not " + capacity;
        Histogram latency = new Histogram(100_000_000_000L, 3);
        AtomicLong bytesRead = new AtomicLong();
        AtomicLong valueSum = new AtomicLong();
        AtomicLong writersLeft = new AtomicLong(writers);
        try {
            Crew crew = new Crew(threads, List.of(pipe));
            List<Histogram> perWriterLatency = new ArrayList<>();
            for (int w = 0; w < writers; w++) {
                byte value = (byte) (w + 1);
                Histogram h = new Histogram(100_000_000_000L, 3);
                perWriterLatency.add(h);
                crew.add(() -> {
                    byte[] own = new byte[size];
                    java.util.Arrays.fill(own, value);
                    for (long pos = 0; pos < perWriter; pos += size) {
                        long t0 = System.nanoTime();
                        if (exact) {
                            pipe.writeFully(Patterns.BYTES, Patterns.offset(pos), size);
                        } else {
                            pipe.writeFully(own, 0, size);
                        }
                        h.recordValue(Math.max(1, System.nanoTime() - t0));
                    }
                    if (writersLeft.decrementAndGet() == 0) {
                        pipe.closeWriter(); // the last writer's close is every reader's end-of-stream
                    }
                });
            }
            for (int r = 0; r < readers; r++) {
                crew.add(() -> {
                    byte[] buf = new byte[Math.max(size, 4096)];
                    long got = 0;
                    long sum = 0;
                    for (int n; (n = pipe.read(buf, 0, buf.length)) > 0; ) {
                        if (exact) {
                            Patterns.check("pipebench", got, buf, 0, n);
                        } else {
                            int s = 0;
                            for (int i = 0; i < n; i++) {
                                s += buf[i] & 0xff;
                            }
                            sum += s;
                        }
                        got += n;
                    }
                    bytesRead.addAndGet(got);
                    valueSum.addAndGet(sum);
                });
            }
            long nanos = crew.run();
            long written = perWriter * writers;
            if (bytesRead.get() != written) {
                throw new CheckFailure("pipebench: wrote " + written + " bytes, readers got " + bytesRead.get());
            }
            if (!exact) {
                long expected = 0;
                for (int w = 0; w < writers; w++) {
                    expected += (long) (w + 1) * perWriter;
                }
                if (valueSum.get() != expected) {
                    throw new CheckFailure("pipebench: readers' byte values sum to " + valueSum.get()
                            + ", writers sent "
                            + expected + " (corrupted data)");
                }
            }
            perWriterLatency.forEach(latency::add);
            Map<String, Double> m = new LinkedHashMap<>();
            m.put("seconds", Workloads.seconds(nanos));
            m.put("MB/s", Workloads.mbPerSecond(written, nanos));
            m.put("write p50 us", latency.getValueAtPercentile(50) / 1e3);
            m.put("write p99 us", latency.getValueAtPercentile(99) / 1e3);
            m.put("write p99.9 us", latency.getValueAtPercentile(99.9) / 1e3);
            return new Outcome(nanos, written, written / size, m, pipe.counters(), note);
        } finally {
            pipe.close();
        }
    }
}
