package dev.sluice.lab.workload;

import dev.sluice.crossjvm.Role;
import dev.sluice.lab.targets.CrossJvmTarget;
import dev.sluice.lab.targets.PeerHandle;
import dev.sluice.lab.targets.PipeHandle;
import dev.sluice.lab.targets.Open;
import dev.sluice.lab.targets.Target;
import dev.sluice.lab.targets.Traffic;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Mateusz Guzik's {@code pipen} as the issue describes it (its source was not available): a writer and a
 * reader on separate threads streaming through a default-sized pipe with writes of 4096, 32768 and 65536
 * bytes; MB/s. The reader reads with a buffer of the write size. (The issue lists "32678"; taken as the
 * power of two 32768.)
 *
 * <p>Check: every byte is compared with the position-dependent pattern the writer sends. On a
 * {@link CrossJvmTarget} the reader is a child JVM (the {@code crossjvm} module's peer, reading 64 KiB at a time),
 * which checks every byte the same way.
 */
final class Pipen implements Workload {
    @Override
    public String name() {
        return "pipen";
    }

    @Override
    public String description() {
        return "Guzik's pipen: one writer and one reader thread streaming size-byte writes through a default pipe; "
                + "MB/s, higher is better";
    }

    @Override
    public List<Param> params() {
        return List.of(
                new Param("size", "bytes per write and per read (pipen: 4096, 32768, 65536)",
                        List.of(4096L, 32768L, 65536L), List.of(4096L, 65536L), 1, Patterns.MAX_CHUNK, true),
                Param.size("bytes", "total bytes to move", 1L << 30, 128L << 20, 1, Workloads.MAX_BYTES));
    }

    @Override
    public Metric primary() {
        return new Metric("MB/s", "MB/s", false);
    }

    @Override
    public Optional<String> invalid(Map<String, Long> p) {
        if (p.get("bytes") < p.get("size")) {
            return Optional.of("--bytes must be at least --size (" + p.get("size") + "), got " + p.get("bytes"));
        }
        return Optional.empty();
    }

    @Override
    public boolean crossJvm() {
        return true;
    }

    /** Runs the workload; on a {@link CrossJvmTarget} the reader is a child JVM, which checks every byte. */
    @Override
    public Outcome run(Target target, Map<String, Long> p, ThreadKind threads) throws Exception {
        int size = Workloads.intParam(p, "size");
        long total = p.get("bytes") / size * size;
        if (target instanceof CrossJvmTarget remote) {
            return runToPeer(remote, size, total, threads);
        }
        PipeHandle pipe = target.open(Open.blocking(Traffic.STREAM));
        long[] got = new long[1];
        try {
            Crew crew = new Crew(threads, List.of(pipe));
            crew.add(() -> {
                for (long pos = 0; pos < total; pos += size) {
                    pipe.writeFully(Patterns.BYTES, Patterns.offset(pos), size);
                }
                pipe.closeWriter();
            });
            crew.add(() -> {
                byte[] buf = new byte[size];
                long pos = 0;
                for (int n; (n = pipe.read(buf, 0, size)) > 0; ) {
                    Patterns.check("pipen", pos, buf, 0, n);
                    pos += n;
                }
                got[0] = pos;
            });
            return outcome(crew.run(), total, size, got[0], pipe);
        } finally {
            pipe.close();
        }
    }

    /**
     * The writer here, the reader in a child JVM: the timed section ends when the child has read and checked the
     * last byte and said so ({@link PeerHandle#finish()}).
     */
    private Outcome runToPeer(CrossJvmTarget remote, int size, long total, ThreadKind threads) throws Exception {
        PeerHandle peer = remote.start(Role.SINK);
        long warm = peer.sent(); // the stream goes on from where the warm-up left it
        long[] got = new long[1];
        try {
            Crew crew = new Crew(threads, List.of(peer));
            crew.add(() -> {
                for (long pos = warm; pos < warm + total; pos += size) {
                    peer.writeFully(Patterns.BYTES, Patterns.offset(pos), size);
                }
                got[0] = peer.finish() - warm; // the child read every byte sent, each as the pattern says
            });
            return outcome(crew.run(), total, size, got[0], peer);
        } finally {
            peer.close();
        }
    }

    private static Outcome outcome(long nanos, long total, int size, long got, PipeHandle pipe) {
        if (got != total) {
            throw new CheckFailure("pipen: wrote " + total + " bytes, read " + got);
        }
        Map<String, Double> m = new LinkedHashMap<>();
        m.put("seconds", Workloads.seconds(nanos));
        m.put("MB/s", Workloads.mbPerSecond(total, nanos));
        return new Outcome(nanos, total, total / size, m, pipe.counters(), null);
    }
}
