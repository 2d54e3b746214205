package dev.sluice.lab.run;

import dev.sluice.crossjvm.CpuDistance;
import dev.sluice.lab.measure.Allocations;
import dev.sluice.lab.measure.Rusage;
import dev.sluice.lab.report.Results;
import dev.sluice.lab.report.Results.Rep;
import dev.sluice.lab.report.Results.Run;
import dev.sluice.lab.report.Results.Summary;
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

/**
 * Runs cases: warm-up first, then the repetitions with the cases interleaved (rep 1 of every case, then rep
 * 2 of every case, ..., each round starting one case later than the previous) so a machine that drifts
 * (frequency, neighbours, a noisy VM host) moves every target alike instead of favouring whichever ran
 * first. A case whose self-check fails stops at once and reports the failure, never a figure.
 */
public final class Runner {

    /**
     * One case to run: a workload with fixed parameters on one contender and thread kind.
     *
     * @param workload  the workload
     * @param params    every parameter's value
     * @param caseLabel the parameters that vary in this session, for table rows
     * @param contender the target or reference run
     * @param threads   the thread kind
     */
    public record Plan(Workload workload, Map<String, Long> params, String caseLabel, Contender contender,
                       ThreadKind threads) {
    }

    private final int warmup;
    private final int reps;
    private final Progress progress;

    /**
     * A runner that gives every case {@code warmup} unmeasured runs, then {@code reps} measured ones.
     *
     * @param warmup   unmeasured runs per case, at least 0
     * @param reps     measured runs per case, at least 1
     * @param progress where to show progress
     */
    public Runner(int warmup, int reps, Progress progress) {
        if (warmup < 0 || reps < 1) {
            throw new IllegalArgumentException("--reps must be at least 1 and --warmup at least 0");
        }
        this.warmup = warmup;
        this.reps = reps;
        this.progress = progress;
    }

    /**
     * Names a case for the table rows by what sets it apart from the session's other cases.
     *
     * @param params  a case's parameters
     * @param varying each parameter's values in this session
     * @return the label of a case: the parameters that take more than one value in this session
     */
    public static String caseLabel(Map<String, Long> params, Map<String, List<Long>> varying) {
        List<String> parts = new ArrayList<>();
        params.forEach((k, v) -> {
            if (varying.getOrDefault(k, List.of()).size() > 1) {
                parts.add(k + "=" + v);
            }
        });
        return parts.isEmpty() ? "-" : String.join(" ", parts);
    }

    /**
     * Plans every case of a workload on every contender and thread kind, checking each case's parameters
     * first.
     *
     * @param w          the workload
     * @param values     each parameter's values
     * @param contenders the columns
     * @param threads    the thread kinds
     * @return the plans
     * @throws IllegalArgumentException if a case's parameters do not go together
     */
    public static List<Plan> plan(Workload w, Map<String, List<Long>> values, List<Contender> contenders,
                                  List<ThreadKind> threads) {
        Map<String, List<Long>> all = new LinkedHashMap<>();
        w.params().forEach(p -> all.put(p.name(), values.getOrDefault(p.name(), p.defaults())));
        List<Plan> plans = new ArrayList<>();
        for (Map<String, Long> c : Workloads.cases(w.params(), all)) {
            w.invalid(c).ifPresent(why -> {
                throw new IllegalArgumentException(w.name() + ": " + why);
            });
            for (ThreadKind k : threads) {
                for (Contender t : contenders) {
                    plans.add(new Plan(w, c, caseLabel(c, all), t, k));
                }
            }
        }
        return plans;
    }

    /**
     * Runs every plan.
     *
     * @param plans the cases
     * @return one run per plan, in the same order, with n/a and failed ones
     */
    public List<Run> run(List<Plan> plans) {
        int n = plans.size();
        String[] status = new String[n];
        String[] reason = new String[n];
        String[] note = new String[n];
        List<List<Rep>> measured = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            measured.add(new ArrayList<>());
            Plan p = plans.get(i);
            Optional<String> na = p.contender().cannotRun(p.workload(), p.params(), p.threads());
            status[i] = na.isPresent() ? "n/a" : "ok";
            reason[i] = na.orElse(null);
        }
        Clock clock = new Clock(status, warmup + reps);
        for (int round = 0; round < warmup + reps; round++) {
            boolean warm = round < warmup;
            for (int j = 0; j < n; j++) {
                // Each round starts one case later, so no case always runs first (after the GC and JIT of the
                // previous round) or always right after the same neighbour.
                int i = (j + round) % n;
                if (!"ok".equals(status[i])) {
                    continue;
                }
                Plan p = plans.get(i);
                String what = (warm ? "warm-up " + (round + 1) + "/" + warmup : "rep " + (round - warmup + 1) + "/"
                        + reps) + "  " + p.workload().name() + " " + p.caseLabel() + " on " + p.contender().id()
                        + " (" + p.threads() + ")";
                progress.starting(clock.done(), clock.total(), clock.eta(), what);
                long t0 = System.nanoTime();
                try {
                    Measured m = once(p);
                    if (!warm) {
                        measured.get(i).add(m.rep());
                    }
                    progress.ended(what, String.format("%.4g %s", m.rep().metrics().get(p.workload().primary().key()),
                            p.workload().primary().unit()), false);
                    if (note[i] == null) {
                        note[i] = m.note();
                    }
                } catch (Exception | AssertionError e) {
                    status[i] = "failed";
                    reason[i] = e.getMessage() == null ? e.toString() : e.getMessage();
                    progress.ended(what, "FAILED: " + reason[i], true);
                    clock.stopped(i);
                }
                clock.took(i, System.nanoTime() - t0);
            }
        }
        progress.finish();
        List<Run> runs = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            Plan p = plans.get(i);
            List<Rep> r = "ok".equals(status[i]) ? measured.get(i) : List.of();
            runs.add(new Run(p.workload().name(), p.caseLabel(), p.params(), p.contender().id(),
                    p.contender().family().alias(), p.contender().settings(), p.contender().how(p.workload()),
                    p.threads().alias(), status[i], reason[i], p.workload().primary().key(),
                    p.workload().primary().unit(), p.workload().primary().lowerIsBetter(), note[i], r, summarize(r)));
        }
        return runs;
    }

    /** Counts runs and estimates the time left from what each case has taken so far. */
    private static final class Clock {
        private final long[] spent;
        private final int[] count;
        private final boolean[] active;
        private final int rounds;
        private int total;
        private int done;
        private long allSpent;

        Clock(String[] status, int rounds) {
            int n = status.length;
            this.spent = new long[n];
            this.count = new int[n];
            this.active = new boolean[n];
            this.rounds = rounds;
            for (int i = 0; i < n; i++) {
                active[i] = "ok".equals(status[i]);
                total += active[i] ? rounds : 0;
            }
        }

        int done() {
            return done;
        }

        int total() {
            return total;
        }

        void took(int i, long nanos) {
            spent[i] += nanos;
            count[i]++;
            allSpent += nanos;
            done++;
        }

        /** Case {@code i} failed: its remaining runs will not happen. */
        void stopped(int i) {
            active[i] = false;
            total -= rounds - count[i] - 1;
        }

        /** {@return each active case's remaining runs at its own mean so far (untimed: the overall mean)} */
        long eta() {
            if (done == 0) {
                return -1;
            }
            double overall = (double) allSpent / done;
            double left = 0;
            for (int i = 0; i < spent.length; i++) {
                if (active[i]) {
                    left += (rounds - count[i]) * (count[i] > 0 ? (double) spent[i] / count[i] : overall);
                }
            }
            return Math.round(left);
        }
    }

    /** A repetition and the workload's note about it. */
    private record Measured(Rep rep, String note) {
    }

    private static Measured once(Plan p) throws Exception {
        // Collect the previous run's garbage now rather than in the middle of this one.
        System.gc();
        // Where the two CPUs are decides every figure that moves bytes between them: the tables show it per run.
        double distance = CpuDistance.now(); // a few milliseconds, untimed
        Optional<Rusage.Sample> self0 = Rusage.read(Rusage.RUSAGE_SELF);
        Optional<Rusage.Sample> kids0 = Rusage.read(Rusage.RUSAGE_CHILDREN);
        long alloc0 = Allocations.total();
        Outcome o = p.contender().run(p.workload(), p.params(), p.threads());
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
                alloc0 < 0 || alloc1 < 0 ? null : alloc1 - alloc0, withDistance(o.metrics(), distance),
                o.counters()), o.note());
    }

    private static Map<String, Double> withDistance(Map<String, Double> metrics, double distance) {
        Map<String, Double> m = new LinkedHashMap<>(metrics);
        m.put(Results.CPU_DISTANCE, distance);
        return m;
    }

    /**
     * Sums up the measured repetitions of one case for the results file and the tables.
     *
     * @param reps the repetitions of one case
     * @return mean, median and CV of every metric, the rusage figures and the counters over the repetitions
     */
    public static Map<String, Summary> summarize(List<Rep> reps) {
        Map<String, List<Double>> values = new TreeMap<>();
        for (Rep r : reps) {
            r.metrics().forEach((k, v) -> values.computeIfAbsent(k, x -> new ArrayList<>()).add(v));
            put(values, "voluntaryCs", r.voluntaryCs());
            put(values, "involuntaryCs", r.involuntaryCs());
            put(values, "userCpuSeconds", r.userCpuSeconds());
            put(values, "sysCpuSeconds", r.sysCpuSeconds());
            put(values, "allocatedBytes", r.allocatedBytes());
            r.counters().forEach((k, v) -> values.computeIfAbsent("counter." + k, x -> new ArrayList<>())
                    .add(v.doubleValue()));
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
}
