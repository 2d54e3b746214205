package dev.sluice.lab.workload;

import dev.sluice.lab.targets.PipeHandle;
import dev.sluice.lab.targets.Open;
import dev.sluice.lab.targets.Target;
import dev.sluice.lab.targets.Traffic;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * hackbench / {@code perf bench sched messaging} in pipe mode: {@code groups} groups of {@code fds} receivers
 * and {@code fds} senders. Each receiver has its own pipe; each sender writes {@code loops} rounds of one
 * {@code datasize}-byte message to every receiver of its group, so every pipe has one reader and {@code fds}
 * writers. Timed from the start barrier until every receiver has its {@code fds × loops} messages.
 *
 * <p>Check: every message starts with its sender's number and that sender's sequence number for this
 * receiver, so a receiver knows it got every message of every sender of its group, once, in order, intact.
 */
final class Hackbench implements Workload {
    @Override
    public String name() {
        return "hackbench";
    }

    @Override
    public String description() {
        return "hackbench / perf bench sched messaging (pipes, threads): groups of fds senders each writing loops "
                + "messages of datasize bytes to every one of fds receivers; time, lower is better";
    }

    @Override
    public List<Param> params() {
        return List.of(
                Param.count("groups", "groups of senders and receivers (hackbench -g, default 10)", 10, 1, 1, 100),
                Param.count("fds", "receivers = senders per group (hackbench -f, default 20)", 20, 20, 1, 100),
                Param.count("loops", "messages from each sender to each receiver (hackbench -l, default 100)", 100,
                        500, 1, 100_000_000),
                Param.size("datasize", "bytes per message (hackbench -s, default 100)", 100, 100, 1,
                        Patterns.MAX_CHUNK));
    }

    @Override
    public Metric primary() {
        return new Metric("seconds", "s", true);
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
                return "perf bench sched messaging -p -t: C threads on kernel pipes";
            }

            @Override
            public Optional<String> unsupported(Map<String, Long> p, ThreadKind threads) {
                if (threads != ThreadKind.PLATFORM) {
                    return Optional.of("perf runs pthreads only");
                }
                if (p.get("fds") != 20 || p.get("datasize") != 100) {
                    return Optional.of("perf bench sched messaging has fds=20 and datasize=100 built in");
                }
                return Perf.unavailable();
            }

            @Override
            public Outcome run(Map<String, Long> p) throws Exception {
                int groups = Workloads.intParam(p, "groups");
                int loops = Workloads.intParam(p, "loops");
                long nanos = Perf.messaging(groups, loops);
                return outcome(nanos, (long) groups * 20 * 20 * loops, 100, Map.of(), how());
            }
        });
    }

    @Override
    public Traffic traffic() {
        return Traffic.MESSAGES;
    }

    @Override
    public Optional<String> unsupported(Target target, Map<String, Long> p, ThreadKind threads) {
        if (!target.caps().atomicWrites()) {
            return Optional.of("fds writers share each pipe; " + target.caps().whyNotAtomic());
        }
        return Optional.empty();
    }

    @Override
    public Outcome run(Target target, Map<String, Long> p, ThreadKind threads) throws Exception {
        int groups = Workloads.intParam(p, "groups");
        int fds = Workloads.intParam(p, "fds");
        int loops = Workloads.intParam(p, "loops");
        int size = Workloads.intParam(p, "datasize");
        long messages = (long) groups * fds * fds * loops;
        // The sender/sequence header needs 8 bytes; smaller messages are checked by count only.
        boolean tagged = size >= 8;
        List<PipeHandle> pipes = new ArrayList<>();
        try {
            for (int i = 0; i < groups * fds; i++) {
                pipes.add(target.open(Open.blocking(traffic())));
            }
            Crew crew = new Crew(threads, pipes);
            for (int g = 0; g < groups; g++) {
                List<PipeHandle> group = pipes.subList(g * fds, (g + 1) * fds);
                int firstSender = g * fds;
                for (int r = 0; r < fds; r++) {
                    PipeHandle in = group.get(r);
                    int receiver = firstSender + r;
                    crew.add(() -> receive(in, receiver, firstSender, fds, loops, size, tagged));
                }
                for (int s = 0; s < fds; s++) {
                    int sender = firstSender + s;
                    crew.add(() -> send(group, sender, loops, size, tagged));
                }
            }
            long nanos = crew.run();
            return outcome(nanos, messages, size, Workloads.sumCounters(pipes), null);
        } finally {
            pipes.forEach(PipeHandle::close);
        }
    }

    private static Outcome outcome(long nanos, long messages, int size, Map<String, Long> counters, String note) {
        Map<String, Double> m = new LinkedHashMap<>();
        m.put("seconds", Workloads.seconds(nanos));
        m.put("messages/s", messages / Workloads.seconds(nanos));
        m.put("MB/s", Workloads.mbPerSecond(messages * size, nanos));
        return new Outcome(nanos, messages * size, messages, m, counters, note);
    }

    private static void send(List<PipeHandle> outs, int sender, int loops, int size, boolean tagged)
            throws Exception {
        byte[] msg = new byte[size];
        java.util.Arrays.fill(msg, (byte) 'S'); // perf memsets its sender buffer to 'S'
        ByteBuffer hdr = ByteBuffer.wrap(msg);
        for (int i = 0; i < loops; i++) {
            if (tagged) {
                hdr.putInt(0, sender).putInt(4, i);
            }
            for (PipeHandle out : outs) {
                out.writeFully(msg, 0, size);
            }
        }
    }

    private static void receive(PipeHandle in, int receiver, int firstSender, int fds, int loops, int size,
                                boolean tagged) throws Exception {
        byte[] msg = new byte[size];
        ByteBuffer hdr = ByteBuffer.wrap(msg);
        int[] next = new int[fds];
        long total = (long) fds * loops;
        for (long n = 0; n < total; n++) {
            if (!in.readFully(msg, 0, size)) {
                throw new CheckFailure("hackbench receiver " + receiver + ": end-of-stream after " + n + " of "
                        + total + " messages");
            }
            if (tagged) {
                int s = hdr.getInt(0) - firstSender;
                int seq = hdr.getInt(4);
                if (s < 0 || s >= fds) {
                    throw new CheckFailure("hackbench receiver " + receiver + ": message " + n
                            + " names sender " + hdr.getInt(0) + ", not one of its group (torn or corrupted message)");
                }
                if (seq != next[s]) {
                    throw new CheckFailure("hackbench receiver " + receiver + ": from sender " + hdr.getInt(0)
                            + " got message " + seq + ", expected " + next[s]);
                }
                next[s]++;
                for (int i = 8; i < size; i++) {
                    if (msg[i] != 'S') {
                        throw new CheckFailure("hackbench receiver " + receiver + ": corrupted byte " + i
                                + " in message " + seq + " of sender " + hdr.getInt(0));
                    }
                }
            }
        }
    }
}
