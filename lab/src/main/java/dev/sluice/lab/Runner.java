package dev.sluice.lab;

import dev.sluice.lab.measure.Allocations;
import dev.sluice.lab.measure.Rusage;
import dev.sluice.lab.report.Results;
import dev.sluice.lab.report.Results.Rep;
import dev.sluice.lab.report.Results.Run;
import dev.sluice.lab.report.Results.Summary;
import dev.sluice.lab.targets.PerfTarget;
import dev.sluice.lab.targets.Target;
import dev.sluice.lab.workload.Outcome;
import dev.sluice.lab.workload.ThreadKind;
import dev.sluice.lab.workload.Workload;
import dev.sluice.lab.workload.Workloads;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.function.Consumer;

/**
 * Runs cases: warm-up first, then the repetitions with the cases interleaved (rep 1 of every case, then rep
 * 2 of every case, ..., each round starting one case later than the previous) so a machine that drifts (frequency, neighbours, a noisy VM host) moves every
 * target alike instead of favouring whichever ran first. A case whose self-check fails stops at once and
 * reports the failure, never a figure.
 */
public final class Runner {

    /** One case to run: a workload with fixed parameters on one target and thread kind. */
    public record Plan(Workload workload, Map<String, Long> params, String caseLabel, Target target,
                       ThreadKind threads) {
    }

    private final int warmup;
    private final int reps;
    private final Consumer<String> progress;

    public Runner(int warmup, int reps, Consumer<String> progress) {
        if (warmup < 0 || reps < 1) {
            throw new IllegalArgumentException("reps must be at least 1 and warmup at least 0");
        }
        this.warmup = warmup;
        this.reps = reps;
        this.progress = progress;
    }

    /** The label of a case: the parameters that take more than one value in this session. */
    public static String caseLabel(Map<String, Long> params, Map<String, List<Long>> varying) {
        List<String> parts = new ArrayList<>();
        params.forEach((k, v) -> {
            if (varying.getOrDefault(k, List.of()).size() > 1) {
                parts.add(k + "=" + v);
            }
        });
        return parts.isEmpty() ? "-" : String.join(" ", parts);
    }

    /** Plans every case of a workload on every target and thread kind. */
    public static List<Plan> plan(Workload w, Map<String, List<Long>> values, List<Target> targets,
                                  List<ThreadKind> threads) {
        Map<String, List<Long>> all = new LinkedHashMap<>();
        w.params().forEach(p -> all.put(p.name(), values.getOrDefault(p.name(), p.defaults())));
        List<Plan> plans = new ArrayList<>();
        for (Map<String, Long> c : Workloads.cases(w.params(), all)) {
            for (ThreadKind k : threads) {
                for (Target t : targets) {
                    plans.add(new Plan(w, c, caseLabel(c, all), t, k));
                }
            }
        }
        return plans;
    }

    public List<Run> run(List<Plan> plans) {
        int n = plans.size();
        String[] status = new String[n];
        String[] reason = new String[n];
        String[] note = new String[n];
        List<List<Rep>> measured = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            measured.add(new ArrayList<>());
            Plan p = plans.get(i);
            Optional<String> na = p.target().unavailable()
                    .or(() -> p.target() instanceof PerfTarget && !p.workload().hasPerfEquivalent()
                            ? Optional.of("perf bench has no " + p.workload().name()) : Optional.empty())
                    .or(() -> p.workload().unsupported(p.target(), p.params(), p.threads()));
            if (na.isPresent()) {
                status[i] = "n/a";
                reason[i] = na.get();
            } else {
                status[i] = "ok";
            }
        }
        int total = warmup + reps;
        for (int round = 0; round < total; round++) {
            boolean warm = round < warmup;
            for (int j = 0; j < n; j++) {
                // Each round starts one case later, so no case always runs first (after the GC and JIT of the
                // previous round) or always right after the same neighbour.
                int i = (j + round) % n;
                if (!"ok".equals(status[i])) {
                    continue;
                }
                Plan p = plans.get(i);
                String what = (warm ? "warm-up " + (round + 1) + "/" + warmup : "rep " + (round - warmup + 1) + "/" + reps)
                        + "  " + p.workload().name() + " " + p.caseLabel() + " on " + p.target().id() + " (" + p.threads() + ")";
                try {
                    Measured m = once(p);
                    Rep rep = m.rep();
                    if (!warm) {
                        measured.get(i).add(rep);
                    }
                    progress.accept(what + ": " + String.format("%.4g %s", rep.metrics().get(p.workload().primary().key()),
                            p.workload().primary().unit()));
                    if (note[i] == null) {
                        note[i] = m.note();
                    }
                } catch (Exception | AssertionError e) {
                    status[i] = "failed";
                    reason[i] = e.getMessage() == null ? e.toString() : e.getMessage();
                    progress.accept(what + ": FAILED: " + reason[i]);
                }
            }
        }
        List<Run> runs = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            Plan p = plans.get(i);
            List<Rep> r = "ok".equals(status[i]) ? measured.get(i) : List.of();
            runs.add(new Run(p.workload().name(), p.caseLabel(), p.params(), p.target().id(), p.target().family(),
                    p.target().settings(), p.threads().alias(), status[i], reason[i], p.workload().primary().key(),
                    p.workload().primary().unit(), p.workload().primary().lowerIsBetter(), note[i], r, summarize(r)));
        }
        return runs;
    }

    /** A repetition and the workload's note about it. */
    private record Measured(Rep rep, String note) {
    }

    private static Measured once(Plan p) throws Exception {
        // Collect the previous run's garbage now rather than in the middle of this one.
        System.gc();
        Optional<Rusage.Sample> self0 = Rusage.read(Rusage.RUSAGE_SELF);
        Optional<Rusage.Sample> kids0 = Rusage.read(Rusage.RUSAGE_CHILDREN);
        long alloc0 = Allocations.total();
        Outcome o = p.workload().run(p.target(), p.params(), p.threads());
        long alloc1 = Allocations.total();
        Optional<Rusage.Sample> self1 = Rusage.read(Rusage.RUSAGE_SELF);
        Optional<Rusage.Sample> kids1 = Rusage.read(Rusage.RUSAGE_CHILDREN);
        Rusage.Sample d = null;
        if (self0.isPresent() && self1.isPresent() && kids0.isPresent() && kids1.isPresent()) {
            Rusage.Sample s = self1.get().minus(self0.get());
            Rusage.Sample k = kids1.get().minus(kids0.get());
            d = new Rusage.Sample(s.userNanos() + k.userNanos(), s.sysNanos() + k.sysNanos(),
                    s.voluntary() + k.voluntary(), s.involuntary() + k.involuntary());
        }
        return new Measured(new Rep(o.nanos() / 1e9, o.bytes(), o.messages(),
                d == null ? null : d.userNanos() / 1e9, d == null ? null : d.sysNanos() / 1e9,
                d == null ? null : d.voluntary(), d == null ? null : d.involuntary(),
                alloc0 < 0 || alloc1 < 0 ? null : alloc1 - alloc0, o.metrics(), o.counters()), o.note());
    }

    /** Mean, median and CV of every metric, the rusage figures and the counters over the repetitions. */
    public static Map<String, Summary> summarize(List<Rep> reps) {
        Map<String, List<Double>> values = new TreeMap<>();
        for (Rep r : reps) {
            r.metrics().forEach((k, v) -> values.computeIfAbsent(k, x -> new ArrayList<>()).add(v));
            put(values, "voluntaryCs", r.voluntaryCs());
            put(values, "involuntaryCs", r.involuntaryCs());
            put(values, "userCpuSeconds", r.userCpuSeconds());
            put(values, "sysCpuSeconds", r.sysCpuSeconds());
            put(values, "allocatedBytes", r.allocatedBytes());
            r.counters().forEach((k, v) -> values.computeIfAbsent("counter." + k, x -> new ArrayList<>()).add(v.doubleValue()));
        }
        Map<String, Summary> out = new LinkedHashMap<>();
        values.forEach((k, v) -> out.put(k, Summary.of(v)));
        return out;
    }

    private static void put(Map<String, List<Double>> values, String key, Number v) {
        if (v != null) {
            values.computeIfAbsent(key, x -> new ArrayList<>()).add(v.doubleValue());
        }
    }

    /** Convenience for a whole session. */
    public static Results results(List<String> command, Map<String, String> machine, int warmup, int reps,
                                  String baseline, List<Run> runs) {
        return new Results(Results.SCHEMA, Results.VERSION, java.time.Instant.now().toString(), command,
                machine, warmup, reps, baseline, runs);
    }
}
