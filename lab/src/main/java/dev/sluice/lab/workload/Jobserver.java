package dev.sluice.lab.workload;

import dev.sluice.lab.targets.PipeHandle;
import dev.sluice.lab.targets.Open;
import dev.sluice.lab.targets.Target;
import dev.sluice.lab.targets.Traffic;

import java.nio.ByteBuffer;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicIntegerArray;
import java.util.concurrent.atomic.LongAdder;

/**
 * Linus Torvalds' token test from commit 0ddad21d3e99 ("pipe: use exclusive waits when reading or
 * writing"), the GNU make jobserver pattern: one pipe primed with the tokens {0, -1}; {@code workers}
 * threads (64 = six forks) each loop reading one int: a negative token is dropped; token i is passed on as
 * i+1, and on odd i a new -1 token is written with it, in the same write, to exercise the hand-over from one
 * woken reader to the next. A worker stops once the value it last passed on reached {@code tokens}.
 *
 * <p>Check: exactly one real token circulates, so the values 1 .. tokens+workers-1 must each be written
 * exactly once; at the end the pipe must hold precisely the last value and the -1 tokens nobody read.
 */
final class Jobserver implements Workload {
    @Override
    public String name() {
        return "jobserver";
    }

    @Override
    public String description() {
        return "Linus' jobserver token test (0ddad21d3e99): workers share one pipe, each reads an int and writes "
                + "back one or two, until the counter reaches tokens; time, lower is better";
    }

    @Override
    public List<Param> params() {
        return List.of(
                Param.count("workers", "threads sharing the pipe (the test forks six times: 64)", 64, 64, 1, 4096),
                Param.count("tokens", "counter value to reach (the test: 1000000)", 1_000_000, 200_000, 1,
                        100_000_000));
    }

    @Override
    public Metric primary() {
        return new Metric("seconds", "s", true);
    }

    @Override
    public Traffic traffic() {
        return Traffic.MESSAGES;
    }

    @Override
    public Optional<String> unsupported(Target target, Map<String, Long> p, ThreadKind threads) {
        if (!target.caps().atomicWrites()) {
            return Optional.of("every worker writes the pipe; " + target.caps().whyNotAtomic());
        }
        return Optional.empty();
    }

    @Override
    public Outcome run(Target target, Map<String, Long> p, ThreadKind threads) throws Exception {
        int workers = Workloads.intParam(p, "workers");
        int tokens = Workloads.intParam(p, "tokens");
        int last = tokens + workers - 1;
        AtomicIntegerArray written = new AtomicIntegerArray(last + 1);
        LongAdder injected = new LongAdder();
        LongAdder dropped = new LongAdder();
        PipeHandle pipe = target.open(Open.blocking(traffic()));
        try {
            byte[] prime = ByteBuffer.allocate(8).putInt(0).putInt(-1).array();
            pipe.writeFully(prime, 0, 8);
            injected.increment();
            Crew crew = new Crew(threads, List.of(pipe));
            for (int w = 0; w < workers; w++) {
                int worker = w;
                crew.add(() -> {
                    byte[] in = new byte[4];
                    ByteBuffer out = ByteBuffer.allocate(8).putInt(4, -1);
                    int counter = 0;
                    while (counter < tokens) {
                        int n = pipe.read(in, 0, 4);
                        if (n != 4) {
                            throw new CheckFailure("jobserver worker " + worker + ": read of a 4-byte token returned "
                                    + n + (n < 0 ? " (end-of-stream)" : " (a torn token)"));
                        }
                        int i = ByteBuffer.wrap(in).getInt();
                        if (i < 0) {
                            if (i != -1) {
                                throw new CheckFailure("jobserver: corrupted token " + i);
                            }
                            dropped.increment();
                            continue;
                        }
                        if (i >= last) {
                            throw new CheckFailure("jobserver: token " + i + " beyond the last possible " + (last - 1));
                        }
                        counter = i + 1;
                        if (written.incrementAndGet(counter) != 1) {
                            throw new CheckFailure("jobserver: token value " + counter + " passed on twice");
                        }
                        int len = (i & 1) == 1 ? 8 : 4;
                        if (len == 8) {
                            injected.increment();
                        }
                        pipe.writeFully(out.putInt(0, counter).array(), 0, len);
                    }
                });
            }
            long nanos = crew.run();
            check(pipe, written, last, injected.sum() - dropped.sum());
            Map<String, Double> m = new LinkedHashMap<>();
            m.put("seconds", Workloads.seconds(nanos));
            m.put("tokens/s", last / Workloads.seconds(nanos));
            return new Outcome(nanos, 4L * last + 4L * injected.sum(), last, m, pipe.counters(), null);
        } finally {
            pipe.close();
        }
    }

    private static void check(PipeHandle pipe, AtomicIntegerArray written, int last, long minusOnesLeft)
            throws Exception {
        for (int v = 1; v <= last; v++) {
            if (written.get(v) != 1) {
                throw new CheckFailure("jobserver: token value " + v + " was passed on " + written.get(v) + " times");
            }
        }
        pipe.closeWriter();
        byte[] rest = new byte[8192];
        java.io.ByteArrayOutputStream left = new java.io.ByteArrayOutputStream();
        for (int n; (n = pipe.read(rest, 0, rest.length)) > 0; ) {
            left.write(rest, 0, n);
        }
        ByteBuffer b = ByteBuffer.wrap(left.toByteArray());
        if (b.remaining() % 4 != 0) {
            throw new CheckFailure("jobserver: " + b.remaining() + " bytes left in the pipe, not whole tokens");
        }
        long minusOnes = 0;
        int reals = 0;
        int value = -1;
        while (b.hasRemaining()) {
            int t = b.getInt();
            if (t == -1) {
                minusOnes++;
            } else {
                reals++;
                value = t;
            }
        }
        if (reals != 1 || value != last || minusOnes != minusOnesLeft) {
            throw new CheckFailure("jobserver: pipe left with " + reals + " real tokens (last " + value
                    + ", expected one, "
                    + last + ") and " + minusOnes + " -1 tokens (expected " + minusOnesLeft + ")");
        }
    }
}
