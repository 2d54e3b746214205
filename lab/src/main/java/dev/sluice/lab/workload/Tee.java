package dev.sluice.lab.workload;

import dev.sluice.lab.targets.PipeHandle;
import dev.sluice.lab.targets.Open;
import dev.sluice.lab.targets.Target;
import dev.sluice.lab.targets.Traffic;
import dev.sluice.lab.targets.ZeroCopy;

import java.nio.ByteBuffer;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The stress-ng {@code tee} stressor: a writer sends 16-byte records {length = 16, counter} into pipe_in; the
 * middle thread duplicates what pipe_in holds into pipe_out (a blocking tee, which waits while pipe_out is
 * full) and then discards it from pipe_in (stress-ng splices it to /dev/null); a reader takes 16-byte
 * records from pipe_out and checks them. This is the workload where Linux's full-and-freed rule gained
 * +500 %: the reader frees a page only every 256 reads, and the tee side waits for that.
 *
 * <p>Where the target has zero-copy calls ({@link PipeHandle#zeroCopy()}: Sluice's {@code Splice}, the kernel's
 * {@code tee(2)}/{@code splice(2)}), the middle thread makes exactly stress-ng's calls. Elsewhere it does the
 * same with plain copies: it reads what pipe_in holds (up to its capacity) and writes it to pipe_out. Every
 * run's note says which.
 *
 * <p>Check: every record has length 16 and the next counter value; the reader gets exactly all of them.
 */
final class Tee implements Workload {
    static final String FALLBACK = "plain-copy fallback: this target has no tee/splice";

    @Override
    public String name() {
        return "tee";
    }

    @Override
    public String description() {
        return "stress-ng tee: writer of 16-byte records -> pipe_in -> tee into pipe_out + discard -> verifying reader "
                + "of 16-byte records; MB/s, higher is better (plain copies where a target has no tee)";
    }

    @Override
    public List<Param> params() {
        return List.of(Param.count("records", "16-byte records to send (stress-ng runs for a time instead)",
                4L << 20, 1L << 20, 1, Workloads.MAX_BYTES / 16));
    }

    @Override
    public Metric primary() {
        return new Metric("MB/s", "MB/s", false);
    }

    @Override
    public Outcome run(Target target, Map<String, Long> p, ThreadKind threads) throws Exception {
        long records = p.get("records");
        PipeHandle in = target.open(Open.blocking(Traffic.STREAM));
        PipeHandle out = target.open(Open.blocking(Traffic.STREAM));
        List<PipeHandle> pipes = List.of(in, out);
        long[] got = new long[1];
        Optional<ZeroCopy> zc = in.zeroCopy();
        try {
            Crew crew = new Crew(threads, pipes);
            crew.add(() -> {
                byte[] rec = new byte[16];
                ByteBuffer b = ByteBuffer.wrap(rec).putLong(0, 16);
                for (long c = 0; c < records; c++) {
                    b.putLong(8, c);
                    in.writeFully(rec, 0, 16);
                }
                in.closeWriter();
            });
            crew.add(() -> {
                if (zc.isPresent()) {
                    // stress-ng: len = tee(pipe_in, pipe_out, INT_MAX); then splice len bytes of pipe_in to
                    // /dev/null, so pipe_in loses exactly what pipe_out gained.
                    ZeroCopy z = zc.get();
                    for (long n; (n = z.tee(out, Integer.MAX_VALUE)) >= 0; ) {
                        for (long left = n; left > 0; ) {
                            long d = z.discard(left);
                            if (d <= 0) {
                                throw new CheckFailure("tee: pipe_in ended " + left + " bytes short of what was teed");
                            }
                            left -= d;
                        }
                    }
                } else {
                    // What one tee() can carry: everything queued in pipe_in, at most a default pipe's worth.
                    byte[] chunk = new byte[64 * 1024];
                    for (int n; (n = in.read(chunk, 0, chunk.length)) > 0; ) {
                        out.writeFully(chunk, 0, n);
                    }
                }
                out.closeWriter();
            });
            crew.add(() -> {
                byte[] rec = new byte[16];
                ByteBuffer b = ByteBuffer.wrap(rec);
                long c = 0;
                while (out.readFully(rec, 0, 16)) {
                    if (b.getLong(0) != 16 || b.getLong(8) != c) {
                        throw new CheckFailure("tee: record " + c + " reads {length=" + b.getLong(0) + ", counter="
                                + b.getLong(8) + "}, expected {16, " + c + "}");
                    }
                    c++;
                }
                got[0] = c;
            });
            long nanos = crew.run();
            if (got[0] != records) {
                throw new CheckFailure("tee: sent " + records + " records, reader got " + got[0]);
            }
            Map<String, Double> m = new LinkedHashMap<>();
            m.put("seconds", Workloads.seconds(nanos));
            m.put("MB/s", Workloads.mbPerSecond(16 * records, nanos));
            m.put("records/s", records / Workloads.seconds(nanos));
            return new Outcome(nanos, 32 * records, records, m, Workloads.sumCounters(pipes),
                    zc.map(ZeroCopy::how).orElse(FALLBACK));
        } finally {
            pipes.forEach(PipeHandle::close);
        }
    }
}
