package dev.sluice.lab.command;

import dev.sluice.lab.workload.Param;
import dev.sluice.lab.workload.Workload;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The workload parameters given on the command line as {@code --name value} or {@code --name=v1,v2}: each
 * workload has its own, so picocli leaves them unmatched and this reads them, checking every value against
 * its parameter's range before anything runs.
 */
public final class WorkloadArgs {
    private WorkloadArgs() {
    }

    /**
     * Reads the workload parameters given on the command line ({@code --writers 1,2,5}), which picocli leaves
     * unmatched because every workload has its own.
     *
     * @param ws    the workloads of the session
     * @param quick take the quick presets where a parameter is not given
     * @param args  the unmatched arguments
     * @return one map of parameter values per workload; an option goes to every workload that has a
     *         parameter of that name, and must belong to at least one of them
     * @throws IllegalArgumentException naming the option and the accepted range
     */
    public static List<Map<String, List<Long>>> parse(List<Workload> ws, boolean quick, List<String> args) {
        Map<String, List<Long>> given = new LinkedHashMap<>();
        for (int i = 0; i < args.size(); i++) {
            String a = args.get(i);
            if (!a.startsWith("--")) {
                throw new IllegalArgumentException("unexpected argument '" + a + "'");
            }
            String name = a.substring(2);
            String value;
            int eq = name.indexOf('=');
            if (eq >= 0) {
                value = name.substring(eq + 1);
                name = name.substring(0, eq);
            } else if (i + 1 < args.size()) {
                value = args.get(++i);
            } else {
                throw new IllegalArgumentException("--" + name + ": needs a value");
            }
            Param p = find(ws, name);
            List<Long> vs = new ArrayList<>();
            for (String s : CommaList.split("--" + name, value)) {
                long v = Sizes.parse("--" + name, s);
                p.check(v);
                vs.add(v);
            }
            if (vs.isEmpty()) {
                throw new IllegalArgumentException("--" + name + ": needs a value in " + p.range());
            }
            given.put(name, vs);
        }
        List<Map<String, List<Long>>> out = new ArrayList<>();
        for (Workload w : ws) {
            Map<String, List<Long>> values = new LinkedHashMap<>();
            for (Param p : w.params()) {
                values.put(p.name(), given.getOrDefault(p.name(), quick ? p.quick() : p.defaults()));
            }
            out.add(values);
        }
        return out;
    }

    /** The parameter of that name (all workloads with it share its range: the tightest is checked). */
    private static Param find(List<Workload> ws, String name) {
        Param found = null;
        for (Workload w : ws) {
            for (Param p : w.params()) {
                if (p.name().equals(name) && (found == null || p.max() - p.min() < found.max() - found.min())) {
                    found = p;
                }
            }
        }
        if (found == null) {
            throw new IllegalArgumentException("unknown option --" + name + " for "
                    + String.join(", ", ws.stream().map(Workload::name).toList())
                    + (ws.size() == 1 ? "; its parameters are " : "; their parameters are ")
                    + String.join(", ", ws.stream().flatMap(w -> w.params().stream()).map(p -> "--" + p.name())
                    .distinct().toList()));
        }
        return found;
    }
}
