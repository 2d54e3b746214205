package dev.sluice.lab.workload;

import dev.sluice.lab.targets.PipeHandle;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** The workloads in the order the lab lists and runs them, and helpers they share. */
public final class Workloads {
    private Workloads() {
    }

    /** The most bytes a workload may be asked to move: 1 TiB. */
    public static final long MAX_BYTES = 1L << 40;

    /** {@return every workload, in the order the lab lists and runs them} */
    public static List<Workload> all() {
        return List.of(new Hackbench(), new PingPong(), new Jobserver(), new NonBlock(), new PipeBench(),
                new Pipen(), new Tee());
    }

    /**
     * Finds a workload by its name on the command line.
     *
     * @param name a workload's name, case-insensitive
     * @return the workload
     * @throws IllegalArgumentException naming the choices
     */
    public static Workload byName(String name) {
        for (Workload w : all()) {
            if (w.name().equalsIgnoreCase(name)) {
                return w;
            }
        }
        throw new IllegalArgumentException("unknown workload '" + name + "'; choose from "
                + String.join(", ", all().stream().map(Workload::name).toList()));
    }

    /**
     * Expands a workload's parameter lists into the cases it runs ({@code --writers 1,2 --readers 1,5} is four).
     *
     * @param params the parameters
     * @param values each parameter's values (a missing one takes its defaults)
     * @return every combination of the parameter lists, in order, as one map per case
     */
    public static List<Map<String, Long>> cases(List<Param> params, Map<String, List<Long>> values) {
        List<Map<String, Long>> out = new ArrayList<>();
        out.add(new LinkedHashMap<>());
        for (Param p : params) {
            List<Long> vs = values.getOrDefault(p.name(), p.defaults());
            List<Map<String, Long>> next = new ArrayList<>();
            for (Map<String, Long> m : out) {
                for (Long v : vs) {
                    Map<String, Long> c = new LinkedHashMap<>(m);
                    c.put(p.name(), v);
                    next.add(c);
                }
            }
            out = next;
        }
        return out;
    }

    static Map<String, Long> sumCounters(List<PipeHandle> pipes) {
        Map<String, Long> sum = new LinkedHashMap<>();
        for (PipeHandle p : pipes) {
            p.counters().forEach((k, v) -> sum.merge(k, v, Long::sum));
        }
        return sum;
    }

    static double seconds(long nanos) {
        return nanos / 1e9;
    }

    static double mbPerSecond(long bytes, long nanos) {
        return bytes / 1e6 / (nanos / 1e9);
    }

    static int intParam(Map<String, Long> p, String name) {
        long v = p.get(name);
        if (v < 0 || v > Integer.MAX_VALUE) {
            throw new IllegalArgumentException(name + " out of range: " + v);
        }
        return (int) v;
    }
}
