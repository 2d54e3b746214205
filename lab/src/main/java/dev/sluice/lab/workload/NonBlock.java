package dev.sluice.lab.workload;

import dev.sluice.lab.targets.PipeHandle;
import dev.sluice.lab.targets.Open;
import dev.sluice.lab.targets.Target;
import dev.sluice.lab.targets.Traffic;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Oleg Nesterov's nonblocking test (Feb 2025): one nonblocking pipe and one thread; each loop writes
 * {@code size}-byte chunks until the pipe is full (write returns "would block"), then reads {@code size}-byte
 * chunks until it is empty, timing the two phases apart. No thread ever waits, so this is the cost of one
 * call: locking, copying and, with timestamps on (Sluice's {@code timestamps}: the "without no-atime" run),
 * the clock.
 *
 * <p>Check: every loop reads back as many bytes as it wrote, and they are the bytes written, in order.
 */
final class NonBlock implements Workload {
    /** The test's buffer: {@code static char buf[17 * 4096]}. */
    static final int BUFFER = 17 * 4096;

    @Override
    public String name() {
        return "nonblock";
    }

    @Override
    public String description() {
        return "Oleg Nesterov's nonblocking test: fill a nonblocking pipe with size-byte writes, drain it with "
                + "size-byte reads, loops times; write and read time, lower is better (sluice: --timestamps on = "
                + "without no-atime)";
    }

    @Override
    public List<Param> params() {
        return List.of(
                Param.count("loops", "fill/drain rounds (Oleg's runs: 10000)", 10_000, 2_000, 1, 100_000_000),
                Param.size("size", "bytes per write and read (Oleg's runs: 100; the test's buffer: 17 pages)", 100,
                        100, 1, BUFFER));
    }

    @Override
    public Metric primary() {
        return new Metric("seconds", "s", true);
    }

    @Override
    public Optional<String> unsupported(Target target, Map<String, Long> p, ThreadKind threads) {
        if (!target.caps().nonBlocking()) {
            return Optional.of(target.caps().whyNotNonBlocking());
        }
        return Optional.empty();
    }

    @Override
    public Outcome run(Target target, Map<String, Long> p, ThreadKind threads) throws Exception {
        int loops = Workloads.intParam(p, "loops");
        int size = Workloads.intParam(p, "size");
        PipeHandle pipe = target.open(new Open(0, true, Traffic.STREAM));
        long[] phases = new long[2];
        long[] moved = new long[1];
        long[] calls = new long[1];
        try {
            Crew crew = new Crew(threads, List.of(pipe));
            crew.add(() -> {
                byte[] buf = new byte[BUFFER];
                long wpos = 0;
                long rpos = 0;
                for (int l = 0; l < loops; l++) {
                    long t0 = System.nanoTime();
                    long tw = 0;
                    for (int n; (n = pipe.write(Patterns.BYTES, Patterns.offset(wpos), size)) > 0; ) {
                        tw += n;
                        wpos += n;
                        calls[0]++;
                    }
                    long t1 = System.nanoTime();
                    long tr = 0;
                    for (int n; (n = pipe.read(buf, 0, size)) > 0; ) {
                        Patterns.check("nonblock loop " + l, rpos, buf, 0, n);
                        tr += n;
                        rpos += n;
                        calls[0]++;
                    }
                    long t2 = System.nanoTime();
                    phases[0] += t1 - t0;
                    phases[1] += t2 - t1;
                    if (tw != tr || tw == 0) {
                        throw new CheckFailure("nonblock loop " + l + ": wrote " + tw + " bytes, read " + tr);
                    }
                    moved[0] += tw;
                }
            });
            long nanos = crew.run();
            Map<String, Double> m = new LinkedHashMap<>();
            m.put("seconds", Workloads.seconds(nanos));
            m.put("write s", Workloads.seconds(phases[0]));
            m.put("read s", Workloads.seconds(phases[1]));
            m.put("ns/call", (double) nanos / calls[0]);
            return new Outcome(nanos, moved[0], calls[0], m, pipe.counters(), null);
        } finally {
            pipe.close();
        }
    }
}
