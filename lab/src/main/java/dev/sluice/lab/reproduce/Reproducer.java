package dev.sluice.lab.reproduce;

import dev.sluice.lab.measure.Machine;
import dev.sluice.lab.report.Bootstrap;
import dev.sluice.lab.report.Results.Rep;
import dev.sluice.lab.report.Results.Run;
import dev.sluice.lab.report.Tables;
import dev.sluice.lab.run.Contender;
import dev.sluice.lab.run.Runner;
import dev.sluice.lab.targets.SluiceTarget;
import dev.sluice.lab.workload.Param;
import dev.sluice.lab.workload.ThreadKind;
import dev.sluice.lab.workload.Workload;
import dev.sluice.lab.workload.Workloads;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;

/** Plans the experiments' runs and turns their results into findings. */
public final class Reproducer {
    private Reproducer() {
    }

    /**
     * Every experiment's cases, before and after, on platform threads; each case labelled with its
     * experiment's number so two experiments on one workload stay apart in the tables.
     *
     * @param experiments the experiments
     * @param quick       the quick sizes
     * @return the plans, experiment by experiment
     */
    public static List<Runner.Plan> plan(List<Experiment> experiments, boolean quick) {
        List<Runner.Plan> plans = new ArrayList<>();
        for (Experiment e : experiments) {
            Workload w = Workloads.byName(e.workload());
            Map<String, List<Long>> values = new LinkedHashMap<>();
            for (Param p : w.params()) {
                values.put(p.name(), p.defaults());
            }
            values.putAll(quick ? e.quick() : e.full());
            List<Contender> both = List.of(new Contender.OnTarget(SluiceTarget.of(e.before())),
                    new Contender.OnTarget(SluiceTarget.of(e.after())));
            for (Runner.Plan p : Runner.plan(w, values, both, List.of(ThreadKind.PLATFORM))) {
                String label = "exp " + e.number() + (p.caseLabel().equals("-") ? "" : " " + p.caseLabel());
                plans.add(new Runner.Plan(p.workload(), p.params(), label, p.contender(), p.threads()));
            }
        }
        return plans;
    }

    /**
     * Compares what the experiments measured here with what their sources claimed.
     *
     * @param experiments the experiments, as planned
     * @param runs        the runs of {@link #plan}'s plans, in the same order
     * @param machine     the machine facts, for the sentence on why figures may differ
     * @return one finding per experiment
     */
    public static List<Finding> findings(List<Experiment> experiments, List<Run> runs, Map<String, String> machine) {
        List<Finding> out = new ArrayList<>();
        for (Experiment e : experiments) {
            String prefix = "exp " + e.number();
            List<Run> mine = runs.stream().filter(r -> r.caseLabel().equals(prefix)
                    || r.caseLabel().startsWith(prefix + " ")).toList();
            out.add(finding(e, mine, machine));
        }
        return out;
    }

    private static Finding finding(Experiment e, List<Run> runs, Map<String, String> machine) {
        String before = e.before().id();
        String after = e.after().id();
        List<String> labels = runs.stream().map(Run::caseLabel).distinct().toList();
        List<double[]> bs = new ArrayList<>();
        List<double[]> as = new ArrayList<>();
        List<String> details = new ArrayList<>();
        String kernel = e.kernel().get();
        for (String label : labels) {
            Run b = pick(runs, label, before);
            Run a = pick(runs, label, after);
            if (b == null || a == null || !b.ok() || !a.ok()) {
                Run bad = b == null || !b.ok() ? b : a;
                String why = bad == null ? "not run" : bad.status() + ": " + bad.reason();
                return new Finding(e.number(), e.title(), e.claim(), e.source(), e.original(), e.knob(), kernel,
                        e.workload(), e.metric(), e.unit(), before, after, "n/a (" + why + ")", Double.NaN,
                        Double.NaN, Double.NaN, e.expected(), Verdict.NONE.words(), why, List.of());
            }
            bs.add(values(b, e.metric()));
            as.add(values(a, e.metric()));
            String where = labels.size() > 1 ? label.substring(label.indexOf(' ', 4) + 1) + ": " : "";
            if (labels.size() > 1) {
                details.add(where + change(e.metric(), e.unit(), values(b, e.metric()), values(a, e.metric()),
                        e.lowerIsBetter()));
            }
            for (String d : e.details()) {
                double[] vb = values(b, d);
                double[] va = values(a, d);
                if (vb.length > 0 && va.length > 0) {
                    details.add(where + change(d, unitOf(d, b), vb, va, lowerIsBetter(d, b)));
                }
            }
        }
        Bootstrap.Ratio r = bs.size() == 1 ? Bootstrap.betterBy(bs.get(0), as.get(0), e.lowerIsBetter())
                : Bootstrap.pooled(bs, as, e.lowerIsBetter());
        String ours = bs.size() == 1 ? change(e.metric(), e.unit(), bs.get(0), as.get(0), e.lowerIsBetter())
                : String.format(Locale.ROOT, "%s over %d sizes (geometric mean): ×%.3f [%.3f, %.3f]", e.metric(),
                bs.size(), r.ratio(), r.lo(), r.hi());
        ours += String.format(Locale.ROOT, "; the original: ×%.3f", e.expected());
        Verdict v = Verdict.of(e.expected(), r.ratio(), r.lo(), r.hi());
        return new Finding(e.number(), e.title(), e.claim(), e.source(), e.original(), e.knob(), kernel, e.workload(),
                e.metric(), e.unit(), before, after, ours, r.ratio(), r.lo(), r.hi(), e.expected(), v.words(),
                why(e, v, machine), details);
    }

    /** The runs' values of one figure: a metric, the context switches, or a counter. */
    static double[] values(Run run, String key) {
        List<Double> v = new ArrayList<>();
        for (Rep rep : run.reps()) {
            Double x;
            if (key.equals(Experiment.CONTEXT_SWITCHES)) {
                x = rep.voluntaryCs() == null || rep.involuntaryCs() == null ? null
                        : (double) (rep.voluntaryCs() + rep.involuntaryCs());
            } else if (key.startsWith("counter.")) {
                Long c = rep.counters().get(key.substring("counter.".length()));
                x = c == null ? null : c.doubleValue();
            } else {
                x = rep.metrics().get(key);
            }
            if (x != null) {
                v.add(x);
            }
        }
        return v.stream().mapToDouble(Double::doubleValue).toArray();
    }

    private static String unitOf(String key, Run run) {
        if (key.equals(Experiment.CONTEXT_SWITCHES) || key.startsWith("counter.")) {
            return "/run";
        }
        return key.equals(run.metric()) ? run.unit() : key.endsWith(" s") || key.equals("seconds") ? "s"
                : key.equals("MB/s") ? "MB/s" : "";
    }

    private static boolean lowerIsBetter(String key, Run run) {
        return !key.equals("MB/s") && !key.endsWith("/s");
    }

    /** {@code MB/s 2650 → 2711 (×1.023 [0.951, 1.102])}: medians before and after, better-by with its interval. */
    static String change(String what, String unit, double[] before, double[] after, boolean lowerIsBetter) {
        Bootstrap.Ratio r = Bootstrap.betterBy(before, after, lowerIsBetter);
        boolean count = unit.equals("/run");
        String u = count ? " per run" : unit.isEmpty() ? "" : " " + unit;
        String name = what.startsWith("counter.") ? what.substring("counter.".length()) : what;
        double b = Bootstrap.median(before);
        double a = Bootstrap.median(after);
        String ratio;
        if (!r.defined()) {
            ratio = "";
        } else if (Double.isNaN(r.lo()) || Double.isNaN(r.hi())) {
            ratio = String.format(Locale.ROOT, " (×%.3f)", r.ratio());
        } else {
            ratio = String.format(Locale.ROOT, " (×%.3f [%.3f, %.3f])", r.ratio(), r.lo(), r.hi());
        }
        return name + " " + (count ? Tables.count(b) : Tables.num(b)) + " → " + (count ? Tables.count(a)
                : Tables.num(a)) + u + ratio;
    }

    private static Run pick(List<Run> runs, String label, String target) {
        return runs.stream().filter(r -> r.caseLabel().equals(label) && r.target().equals(target)).findFirst()
                .orElse(null);
    }

    /** The experiment's own reason, and what about this machine differs from the thread's. */
    static String why(Experiment e, Verdict v, Map<String, String> machine) {
        List<String> here = new ArrayList<>();
        here.add("threads in one JVM instead of processes");
        here.add(machine.getOrDefault("cores", "?") + " cores");
        String vm = machine.getOrDefault("virtualization", "n/a");
        String idle = machine.getOrDefault("cpuidle", "n/a");
        if (!Objects.equals(vm, "n/a") && vm.matches("(?i).*(qemu|kvm|vmware|xen|microsoft|amazon|google).*")
                || idle.equals("haltpoll")) {
            here.add("a VM");
        }
        double load = Machine.loadPerCore(machine);
        if (load > 0.75) {
            here.add(String.format(Locale.ROOT, "load %.1f per core before the run", load));
        }
        String lead = switch (v) {
            case REPRODUCED -> "Same direction, resolvably; the size may differ because ";
            case SAME_DIRECTION -> "The interval includes no change, perhaps because ";
            case NOT_REPRODUCED -> "No effect resolved, perhaps because ";
            case OPPOSITE -> "The other way round, perhaps because ";
            case NONE -> "";
        };
        return lead + e.why() + "; here: " + String.join(", ", here) + ".";
    }
}
