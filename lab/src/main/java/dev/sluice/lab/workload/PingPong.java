package dev.sluice.lab.workload;

import dev.sluice.crossjvm.Role;
import dev.sluice.lab.targets.CrossJvmTarget;
import dev.sluice.lab.targets.PipeHandle;
import dev.sluice.lab.targets.Open;
import dev.sluice.lab.targets.Target;
import dev.sluice.lab.targets.Traffic;
import org.HdrHistogram.Histogram;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * {@code perf bench sched pipe} / lmbench {@code lat_pipe}: two threads, two pipes, one message bouncing
 * between them {@code loops} times. Every round trip is timed on its own, so the report has percentiles,
 * not only perf's mean {@code usecs/op}.
 *
 * <p>Check: each round trip sends bytes that depend on its number and the echo must be exactly those bytes.
 * On a {@link CrossJvmTarget} the echo runs in a child JVM (the {@code crossjvm} module's peer).
 */
final class PingPong implements Workload {
    @Override
    public String name() {
        return "pingpong";
    }

    @Override
    public String description() {
        return "perf bench sched pipe / lmbench lat_pipe: one size-byte message bouncing between two threads over two "
                + "pipes; µs per round trip (mean and percentiles), lower is better";
    }

    @Override
    public List<Param> params() {
        // Quick preset: an idle 2-core VM takes ~60 µs a round trip (two wake-ups from idle), and the quick
        // comparison runs it six times on six targets; 20 000 keeps ./sluice under three minutes.
        return List.of(
                Param.count("loops", "round trips (perf bench sched pipe -l, default 1000000)", 1_000_000, 20_000, 1,
                        Integer.MAX_VALUE),
                Param.size("size", "bytes per message (lat_pipe: 1; perf: a 4-byte int)", 1, 1, 1,
                        Patterns.MAX_CHUNK));
    }

    @Override
    public Metric primary() {
        return new Metric("us/op", "µs", true);
    }

    @Override
    public Traffic traffic() {
        return Traffic.MESSAGES;
    }

    @Override
    public Optional<Reference> reference() {
        return Optional.of(new Reference() {
            @Override
            public String id() {
                return "perf";
            }

            @Override
            public String how() {
                return "perf bench sched pipe -T: 4-byte ints, mean only";
            }

            @Override
            public Optional<String> unsupported(Map<String, Long> p, ThreadKind threads) {
                if (threads != ThreadKind.PLATFORM) {
                    return Optional.of("perf runs pthreads only");
                }
                if (p.get("size") > 4) {
                    return Optional.of("perf bench sched pipe sends a 4-byte int");
                }
                return Perf.unavailable();
            }

            @Override
            public Outcome run(Map<String, Long> p) throws Exception {
                int loops = Workloads.intParam(p, "loops");
                long nanos = Perf.pipe(loops);
                Map<String, Double> m = new LinkedHashMap<>();
                m.put("seconds", Workloads.seconds(nanos));
                m.put("us/op", nanos / 1e3 / loops);
                m.put("ops/s", loops / Workloads.seconds(nanos));
                return new Outcome(nanos, 8L * loops, loops, m, Map.of(), how());
            }
        });
    }

    @Override
    public boolean crossJvm() {
        return true;
    }

    /**
     * Runs the workload; on a {@link CrossJvmTarget} the echo is a child JVM, and one handle carries both ways.
     */
    @Override
    public Outcome run(Target target, Map<String, Long> p, ThreadKind threads) throws Exception {
        int loops = Workloads.intParam(p, "loops");
        int size = Workloads.intParam(p, "size");
        PipeHandle ping;
        PipeHandle pong;
        if (target instanceof CrossJvmTarget remote) {
            ping = remote.start(Role.ECHO);
            pong = ping;
        } else {
            ping = target.open(Open.blocking(traffic()));
            pong = target.open(Open.blocking(traffic()));
        }
        List<PipeHandle> pipes = ping == pong ? List.of(ping) : List.of(ping, pong);
        // 1 ns .. 100 s, 3 significant digits
        Histogram h = new Histogram(100_000_000_000L, 3);
        try {
            Crew crew = new Crew(threads, pipes);
            crew.add(() -> {
                byte[] got = new byte[size];
                for (int i = 0; i < loops; i++) {
                    int off = Patterns.offset(i);
                    long t0 = System.nanoTime();
                    ping.writeFully(Patterns.BYTES, off, size);
                    if (!pong.readFully(got, 0, size)) {
                        throw new CheckFailure("pingpong: end-of-stream at round trip " + i);
                    }
                    h.recordValue(Math.max(1, System.nanoTime() - t0));
                    Patterns.check("pingpong round trip " + i, i, got, 0, size);
                }
                ping.closeWriter();
            });
            if (ping != pong) {
                crew.add(() -> echo(ping, pong, size, loops));
            }
            long nanos = crew.run();
            Map<String, Double> m = new LinkedHashMap<>();
            m.put("seconds", Workloads.seconds(nanos));
            m.put("us/op", nanos / 1e3 / loops);
            m.put("ops/s", loops / Workloads.seconds(nanos));
            for (double q : new double[] {50, 90, 99, 99.9}) {
                m.put("p" + (q == Math.floor(q) ? Long.toString((long) q) : Double.toString(q)) + " us",
                        h.getValueAtPercentile(q) / 1e3);
            }
            m.put("max us", h.getMaxValue() / 1e3);
            return new Outcome(nanos, 2L * size * loops, loops, m, Workloads.sumCounters(pipes), null);
        } finally {
            pipes.forEach(PipeHandle::close);
        }
    }

    /** The other thread of an in-process run: sends every message back, and counts them. */
    private static void echo(PipeHandle ping, PipeHandle pong, int size, int loops) throws Exception {
        byte[] buf = new byte[size];
        int n = 0;
        while (ping.readFully(buf, 0, size)) {
            pong.writeFully(buf, 0, size);
            n++;
        }
        if (n != loops) {
            throw new CheckFailure("pingpong: echoed " + n + " messages, expected " + loops);
        }
    }
}
