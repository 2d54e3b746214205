package dev.sluice.lab;

import dev.sluice.PipeOptions;
import dev.sluice.lab.measure.Rusage;
import dev.sluice.lab.report.Html;
import dev.sluice.lab.report.Results;
import dev.sluice.lab.report.Results.Run;
import dev.sluice.lab.report.Tables;
import dev.sluice.lab.targets.SluiceTarget;
import dev.sluice.lab.targets.Target;
import dev.sluice.lab.targets.Targets;
import dev.sluice.lab.workload.Param;
import dev.sluice.lab.workload.ThreadKind;
import dev.sluice.lab.workload.Workload;
import dev.sluice.lab.workload.Workloads;
import dev.sluice.policy.LockStrategy;
import dev.sluice.policy.WaitDiscipline;
import dev.sluice.policy.WakePolicy;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;

/** The lab's command line: {@code list}, {@code run}, {@code compare}, {@code report}. */
// INHERIT hands -h/--help and -V/--version to every subcommand, so a new subcommand cannot forget them.
@Command(name = "lab", scope = CommandLine.ScopeType.INHERIT, mixinStandardHelpOptions = true,
        version = "sluice lab, results schema v" + Results.VERSION,
        description = "Runs the kernel list's pipe workloads on Sluice, kernel, JDK and Okio pipes and prints the "
                + "comparison the way the kernel list does.",
        subcommands = {Lab.ListCmd.class, Lab.RunCmd.class, Lab.CompareCmd.class, Lab.ReportCmd.class})
public final class Lab implements Callable<Integer> {
    /** Exit code for bad arguments. */
    static final int USAGE = 2;
    /** Exit code when a run failed its self-check. */
    static final int FAILED = 1;

    @Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() {
        spec.commandLine().usage(spec.commandLine().getOut());
        return 0;
    }

    public static void main(String[] args) {
        System.exit(execute(args, new PrintWriter(System.out, true), new PrintWriter(System.err, true)));
    }

    /** Runs the command line with the given output streams; returns the exit code (for tests). */
    public static int execute(String[] args, PrintWriter out, PrintWriter err) {
        CommandLine cl = new CommandLine(new Lab());
        cl.setOut(out);
        cl.setErr(err);
        cl.setCaseInsensitiveEnumValuesAllowed(true);
        cl.getSubcommands().get("run").getCommandSpec().usageMessage().footer(RunCmd.footer());
        // Bad values found after parsing (unknown workload, policy, target ...) read like parse errors: the
        // message and a pointer to --help, never a stack trace.
        cl.setParameterExceptionHandler((ex, a) -> {
            ex.getCommandLine().getErr().println("lab: " + ex.getMessage());
            ex.getCommandLine().getErr().println("try: " + ex.getCommandLine().getCommandSpec().qualifiedName() + " --help");
            return USAGE;
        });
        cl.setExecutionExceptionHandler((ex, c, parsed) -> {
            if (ex instanceof IllegalArgumentException || ex instanceof IOException) {
                c.getErr().println("lab: " + ex.getMessage());
                return ex instanceof IllegalArgumentException ? USAGE : FAILED;
            }
            c.getErr().println("lab: " + ex);
            return FAILED;
        });
        return cl.execute(args);
    }

    static List<String> split(List<String> values) {
        List<String> out = new ArrayList<>();
        for (String v : values) {
            for (String s : v.split(",")) {
                if (!s.isBlank()) {
                    out.add(s.trim());
                }
            }
        }
        return out;
    }

    /** Options shared by run and compare. */
    static class Common {
        @Option(names = "--target", paramLabel = "T", split = ",",
                description = "targets: sluice, kernel, nio, jdk-piped, okio, perf (repeatable or comma-separated)")
        List<String> targets;
        @Option(names = "--policy", paramLabel = "P", split = ",",
                description = "Sluice wake policies: always, half-empty, full-at-start, full-and-freed, adaptive, or all "
                        + "(default: full-and-freed)")
        List<String> policies = List.of(PipeOptions.DEFAULT_WAKE_POLICY.alias());
        @Option(names = "--wait", paramLabel = "W", split = ",", completionCandidates = WaitNames.class,
                description = "Sluice wait disciplines: ${COMPLETION-CANDIDATES}, or all (default: the library's, "
                        + "coalescing)")
        List<String> waits = List.of(PipeOptions.DEFAULT_WAIT_DISCIPLINE.alias());
        @Option(names = "--lock", paramLabel = "L", split = ",",
                description = "Sluice lock strategies: mutex, spin (default mutex)")
        List<String> locks = List.of(PipeOptions.DEFAULT_LOCK_STRATEGY.alias());
        @Option(names = "--timestamps", paramLabel = "on|off", split = ",",
                description = "Sluice keeps a/m times on every call (default off, as anonymous pipes since Linux 6.15)")
        List<String> timestamps = List.of("off");
        @Option(names = "--spin", paramLabel = "S", split = ",",
                description = "Sluice spin before parking: 0 (park at once), 20us (spin 20 µs every wait), a20 "
                        + "(adaptive, at most 20 µs) (default: the library's)")
        List<String> spins = List.of(dev.sluice.lab.targets.Spin.DEFAULT.alias());
        @Option(names = "--threads", paramLabel = "K", split = ",",
                description = "platform, virtual or both (default platform)")
        List<String> threads = List.of("platform");
        @Option(names = "--reps", description = "measured repetitions per case (default ${DEFAULT-VALUE})")
        int reps = 5;
        @Option(names = "--warmup", description = "unmeasured runs per case first (default ${DEFAULT-VALUE})")
        int warmup = 1;
        @Option(names = "--quick", description = "small sizes (each workload's quick preset)")
        boolean quick;
        @Option(names = "--json", paramLabel = "FILE", description = "write the results as JSON (schema v1)")
        Path json;
        @Option(names = "--html", paramLabel = "FILE", description = "write a self-contained HTML report")
        Path html;
        @Option(names = "--baseline", paramLabel = "TARGET",
                description = "target id the tables are normalised to (default: kernel if available, else nio)")
        String baseline;
        @Option(names = "--quiet", description = "no progress lines on stderr")
        boolean quiet;

        /** Read before the runs, so the load average is other work's, not the lab's own. */
        Map<String, String> machine = dev.sluice.lab.measure.Machine.facts();

        List<Target> resolveTargets(List<String> dflt) {
            List<String> pol = split(policies);
            if (pol.size() == 1 && pol.get(0).equalsIgnoreCase("all")) {
                pol = Arrays.stream(WakePolicy.values()).map(WakePolicy::alias).toList();
            }
            List<String> w = split(waits);
            if (w.size() == 1 && w.get(0).equalsIgnoreCase("all")) {
                w = Arrays.stream(WaitDiscipline.values()).map(WaitDiscipline::alias).toList();
            }
            List<String> l = split(locks);
            if (l.size() == 1 && l.get(0).equalsIgnoreCase("all")) {
                l = Arrays.stream(LockStrategy.values()).map(LockStrategy::alias).toList();
            }
            return Targets.resolve(targets == null ? dflt : split(targets), pol, w, l, split(timestamps), split(spins));
        }

        List<ThreadKind> threadKinds() {
            List<String> t = split(threads);
            if (t.size() == 1 && t.get(0).equalsIgnoreCase("both")) {
                return List.of(ThreadKind.PLATFORM, ThreadKind.VIRTUAL);
            }
            return t.stream().map(ThreadKind::parse).toList();
        }

        String baseline(List<Target> targets) {
            if (baseline != null) {
                if (targets.stream().noneMatch(t -> t.id().equals(baseline))) {
                    throw new IllegalArgumentException("baseline '" + baseline + "' is not one of the targets: "
                            + String.join(", ", targets.stream().map(Target::id).toList()));
                }
                return baseline;
            }
            for (String pref : List.of("kernel", "nio")) {
                for (Target t : targets) {
                    if (t.id().equals(pref) && t.unavailable().isEmpty()) {
                        return pref;
                    }
                }
            }
            return targets.get(0).id();
        }

        int finish(PrintWriter out, PrintWriter err, List<String> command, List<Target> targets, List<Run> runs)
                throws IOException {
            String base = baseline(targets);
            Results r = Runner.results(command, machine, warmup, reps, base, runs);
            out.println(Tables.machine(r));
            double busy = dev.sluice.lab.measure.Machine.loadPerCore(r.machine());
            if (busy > 0.75) {
                out.printf("warning: the machine was busy before the lab started (load average %s on %s cores); "
                                + "expect noisy figures%n",
                        r.machine().get("loadavg"), r.machine().get("cores"));
            }
            Rusage.available().ifPresent(why -> out.println("context switches and CPU: n/a (" + why + ")"));
            if (base.equals("nio")) {
                out.println("baseline nio: java.nio.channels.Pipe, a kernel pipe behind the JDK's channels"
                        + targets.stream().filter(t -> t.family().equals("kernel")).findFirst()
                        .flatMap(Target::unavailable).map(w -> "; kernel (FFM) n/a: " + w).orElse(""));
            }
            out.print(Tables.compare(r));
            out.flush();
            if (json != null) {
                r.write(json);
                err.println("lab: wrote " + json);
            }
            if (html != null) {
                Html.write(r, html);
                err.println("lab: wrote " + html);
            }
            long failed = runs.stream().filter(x -> x.status().equals("failed")).count();
            if (failed > 0) {
                err.println("lab: " + failed + " case(s) FAILED their self-check; their figures are not reported");
                return FAILED;
            }
            return 0;
        }

        java.util.function.Consumer<String> progress(PrintWriter err) {
            return quiet ? s -> { } : s -> err.println("lab: " + s);
        }
    }

    /** The wait disciplines core has, for --wait's help: read from the enum so a new one shows up by itself. */
    static final class WaitNames implements Iterable<String> {
        @Override
        public java.util.Iterator<String> iterator() {
            return Arrays.stream(WaitDiscipline.values()).map(WaitDiscipline::alias).iterator();
        }
    }

    /** The workload names, for run's help. */
    static final class WorkloadNames implements Iterable<String> {
        @Override
        public java.util.Iterator<String> iterator() {
            return Workloads.all().stream().map(Workload::name).iterator();
        }
    }

    @Command(name = "list", description = "Lists workloads with their parameters and defaults, and the targets.")
    static final class ListCmd implements Callable<Integer> {
        @Spec
        CommandLine.Model.CommandSpec spec;

        @Override
        public Integer call() {
            PrintWriter out = spec.commandLine().getOut();
            out.println("Workloads (parameters: default; --quick preset):");
            for (Workload w : Workloads.all()) {
                out.printf("  %-10s %s%n", w.name(), w.description());
                for (Param p : w.params()) {
                    out.printf("      --%-11s %s; %s  %s%n", p.name(), join(p.defaults()), join(p.quick()), p.description());
                }
            }
            out.println("Targets (--target):");
            for (String f : Targets.FAMILIES) {
                Target t = Targets.resolve(List.of(f), List.of(PipeOptions.DEFAULT_WAKE_POLICY.alias()),
                        List.of(PipeOptions.DEFAULT_WAIT_DISCIPLINE.alias()), List.of(PipeOptions.DEFAULT_LOCK_STRATEGY.alias()),
                        List.of("off")).get(0);
                out.printf("  %-10s %s%s%n", f, Targets.describe(f), t.unavailable().map(w -> " [n/a: " + w + "]").orElse(""));
            }
            out.println("Sluice settings: --policy " + String.join(",", Arrays.stream(WakePolicy.values()).map(WakePolicy::alias).toList())
                    + " | --wait " + String.join(",", new WaitNames()) + " | --lock mutex,spin | --timestamps on,off | --spin 0,20us,a20");
            out.println("Threads: --threads platform,virtual");
            return 0;
        }

        private static String join(List<Long> v) {
            return String.join(",", v.stream().map(String::valueOf).toList());
        }
    }

    @Command(name = "run", description = "Runs workloads on the chosen targets. Workload parameters are options: "
            + "lab run hackbench --groups 2 --loops 1000 (comma-separated values run every combination). Several "
            + "workloads (lab run pipen,tee) run their repetitions interleaved, one table each, like compare.")
    static final class RunCmd implements Callable<Integer> {
        @Spec
        CommandLine.Model.CommandSpec spec;
        @Parameters(index = "0", paramLabel = "WORKLOAD[,WORKLOAD...]", completionCandidates = WorkloadNames.class,
                description = "${COMPLETION-CANDIDATES}")
        String workload;
        @CommandLine.Mixin
        Common c = new Common();
        @CommandLine.Unmatched
        List<String> rest = new ArrayList<>();

        @Override
        public Integer call() throws IOException {
            List<Workload> ws = split(List.of(workload)).stream().map(n -> n.toLowerCase(java.util.Locale.ROOT))
                    .distinct().map(Workloads::byName).toList();
            if (ws.isEmpty()) {
                throw new IllegalArgumentException("no workload named; choose from " + String.join(", ", new WorkloadNames()));
            }
            List<Map<String, List<Long>>> values = params(ws, c.quick, rest);
            List<Target> targets = c.resolveTargets(List.of("sluice"));
            c.baseline(targets); // a bad --baseline fails now, not after the runs
            List<Runner.Plan> plans = new ArrayList<>();
            for (int i = 0; i < ws.size(); i++) {
                plans.addAll(Runner.plan(ws.get(i), values.get(i), targets, c.threadKinds()));
            }
            // One Runner for all of them, so the repetitions interleave across workloads as in compare.
            List<Run> runs = new Runner(c.warmup, c.reps, c.progress(spec.commandLine().getErr())).run(plans);
            return c.finish(spec.commandLine().getOut(), spec.commandLine().getErr(), command("run", workload), targets, runs);
        }

        /**
         * The workload parameters, for the help: they are not picocli options (each workload has its own), so
         * picocli cannot list them by itself.
         */
        static String footer() {
            StringBuilder sb = new StringBuilder("%nWorkload parameters (lab list gives the defaults and the --quick preset):%n");
            for (Workload w : Workloads.all()) {
                sb.append(String.format("  %-10s %s%%n", w.name(),
                        String.join(" ", w.params().stream().map(p -> "--" + p.name()).toList())));
            }
            return sb.toString();
        }
    }

    @Command(name = "compare", description = "Runs every workload on the baseline and the candidates and prints the "
            + "kernel-list comparison table and a context-switch table.")
    static final class CompareCmd implements Callable<Integer> {
        @Spec
        CommandLine.Model.CommandSpec spec;
        @CommandLine.Mixin
        Common c = new Common();
        @Option(names = "--workload", split = ",", paramLabel = "NAME", description = "only these workloads")
        List<String> workloads;

        @Override
        public Integer call() throws IOException {
            List<String> defaultTargets = List.of("sluice", "kernel", "nio", "jdk-piped", "okio", "perf");
            List<Target> targets = c.resolveTargets(defaultTargets);
            c.baseline(targets);
            List<Workload> ws = workloads == null ? Workloads.all()
                    : split(workloads).stream().map(Workloads::byName).toList();
            List<Runner.Plan> plans = new ArrayList<>();
            for (Workload w : ws) {
                List<Target> ts = new ArrayList<>(targets);
                // Oleg's test is about the per-call clock: show Sluice with timestamps on beside the default.
                if (w.name().equals("nonblock") && c.targets == null) {
                    ts.add(1, SluiceTarget.of(PipeOptions.DEFAULT_WAKE_POLICY, PipeOptions.DEFAULT_WAIT_DISCIPLINE, PipeOptions.DEFAULT_LOCK_STRATEGY, true));
                }
                plans.addAll(Runner.plan(w, params(w, c.quick, List.of()), ts, c.threadKinds()));
            }
            List<Run> runs = new Runner(c.warmup, c.reps, c.progress(spec.commandLine().getErr())).run(plans);
            List<Target> all = new ArrayList<>(targets);
            return c.finish(spec.commandLine().getOut(), spec.commandLine().getErr(),
                    command("compare", c.quick ? "--quick" : ""), all, runs);
        }

        private boolean isSet(String name) {
            return spec.commandLine().getParseResult().hasMatchedOption(name);
        }
    }

    @Command(name = "report", description = "Reads results JSON, prints the tables and writes an HTML report.")
    static final class ReportCmd implements Callable<Integer> {
        @Spec
        CommandLine.Model.CommandSpec spec;
        @Parameters(index = "0", paramLabel = "RESULTS.json")
        Path input;
        @Option(names = "--html", paramLabel = "FILE", description = "write a self-contained HTML report")
        Path html;

        @Override
        public Integer call() throws IOException {
            Results r = Results.read(input);
            PrintWriter out = spec.commandLine().getOut();
            out.println(Tables.machine(r));
            out.print(Tables.compare(r));
            out.flush();
            if (html != null) {
                Html.write(r, html);
                spec.commandLine().getErr().println("lab: wrote " + html);
            }
            return 0;
        }
    }

    static List<String> command(String... parts) {
        List<String> c = new ArrayList<>();
        c.add("lab");
        for (String p : parts) {
            if (!p.isEmpty()) {
                c.add(p);
            }
        }
        return c;
    }

    /**
     * Workload parameter values: the quick preset or the defaults, overridden by {@code --name value} or
     * {@code --name=v1,v2} options the common options did not claim.
     */
    static Map<String, List<Long>> params(Workload w, boolean quick, List<String> args) {
        return params(List.of(w), quick, args).get(0);
    }

    /**
     * The same for several workloads, one map each: an option goes to every workload that has a parameter of
     * that name, and must belong to at least one of them.
     */
    static List<Map<String, List<Long>>> params(List<Workload> ws, boolean quick, List<String> args) {
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
                throw new IllegalArgumentException("option --" + name + " needs a value");
            }
            String n = name;
            if (ws.stream().noneMatch(w -> w.params().stream().anyMatch(p -> p.name().equals(n)))) {
                throw new IllegalArgumentException("unknown option --" + name + " for "
                        + String.join(", ", ws.stream().map(Workload::name).toList())
                        + (ws.size() == 1 ? "; its parameters are " : "; their parameters are ")
                        + String.join(", ", ws.stream().flatMap(w -> w.params().stream()).map(p -> "--" + p.name())
                        .distinct().toList()));
            }
            List<Long> vs = new ArrayList<>();
            for (String s : value.split(",")) {
                vs.add(parseSize(name, s.trim()));
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

    /** A number, optionally with k, m or g (binary: 64k = 65536). */
    static long parseSize(String name, String s) {
        long mul = 1;
        String t = s.toLowerCase(java.util.Locale.ROOT);
        if (t.endsWith("k")) {
            mul = 1L << 10;
        } else if (t.endsWith("m")) {
            mul = 1L << 20;
        } else if (t.endsWith("g")) {
            mul = 1L << 30;
        }
        if (mul > 1) {
            t = t.substring(0, t.length() - 1);
        }
        try {
            long v = Long.parseLong(t.replace("_", "")) * mul;
            if (v < 0) {
                throw new NumberFormatException();
            }
            return v;
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("--" + name + " needs a non-negative number (k/m/g allowed), got '" + s + "'");
        }
    }
}
