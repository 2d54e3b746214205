package dev.sluice.lab.command;

import dev.sluice.PageMemory;
import dev.sluice.lab.measure.Machine;
import dev.sluice.lab.run.Contender;
import dev.sluice.lab.run.Progress;
import dev.sluice.lab.targets.Aliases;
import dev.sluice.lab.targets.Family;
import dev.sluice.lab.targets.SluiceVariant;
import dev.sluice.lab.targets.Spin;
import dev.sluice.lab.targets.Target;
import dev.sluice.lab.targets.Targets;
import dev.sluice.lab.workload.ThreadKind;
import dev.sluice.policy.LockStrategy;
import dev.sluice.policy.ReaderWakePolicy;
import dev.sluice.policy.WaitDiscipline;
import dev.sluice.policy.WakePolicy;
import picocli.CommandLine.Option;

import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.function.UnaryOperator;

/**
 * The options {@code run} and {@code compare} share: which targets and Sluice variants, how many
 * repetitions, where the reports go. Every value is checked by {@link #check()} before anything runs.
 */
public class CommonOptions {
    /** Creates the options, at their defaults. */
    public CommonOptions() {
        // nothing to set up
    }

    @Option(names = "--target", paramLabel = "T", split = ",", preprocessor = CommaList.Check.class,
            description = "targets: sluice, kernel, shm, kernel-jvm, nio, jdk-piped, okio, perf (repeatable or "
                    + "comma-separated; shm and kernel-jvm have their peer in a child JVM)")
    List<String> targets;
    @Option(names = "--policy", paramLabel = "P", split = ",", preprocessor = CommaList.Check.class,
            description = "Sluice writer wake policies: always, half-empty, full-at-start, full-and-freed, adaptive, "
                    + "or all (default: full-and-freed)")
    List<String> policies = List.of(SluiceVariant.defaults().wake().alias());
    @Option(names = "--reader-wake", paramLabel = "R", split = ",", preprocessor = CommaList.Check.class,
            description = "Sluice reader wake policies: on-empty, every-write, or all (default: on-empty)")
    List<String> readerWakes = List.of(SluiceVariant.defaults().readerWake().alias());
    @Option(names = "--wait", paramLabel = "W", split = ",", preprocessor = CommaList.Check.class,
            completionCandidates = WaitNames.class,
            description = "Sluice wait disciplines: ${COMPLETION-CANDIDATES}, or all (default: the library's, "
                    + "coalescing)")
    List<String> waits = List.of(SluiceVariant.defaults().waits().alias());
    @Option(names = "--lock", paramLabel = "L", split = ",", preprocessor = CommaList.Check.class,
            description = "Sluice lock strategies: mutex, spin, or all (default mutex)")
    List<String> locks = List.of(SluiceVariant.defaults().lock().alias());
    @Option(names = "--timestamps", paramLabel = "on|off", split = ",", preprocessor = CommaList.Check.class,
            description = "Sluice keeps a/m times on every call (default off, as anonymous pipes since Linux 6.15)")
    List<String> timestamps = List.of("off");
    @Option(names = "--spin", paramLabel = "S", split = ",", preprocessor = CommaList.Check.class,
            description = "Sluice spin before parking: 0 (park at once), 20us (spin 20 µs every wait), a20 "
                    + "(adaptive, at most 20 µs) (default: the library's)")
    List<String> spins = List.of(Spin.DEFAULT.alias());
    @Option(names = "--page-memory", paramLabel = "M", split = ",", preprocessor = CommaList.Check.class,
            description = "Sluice page memory: heap, direct, or all (default heap)")
    List<String> memories = List.of(SluiceVariant.defaults().memory().alias());
    @Option(names = "--pool-pages", paramLabel = "N", split = ",", preprocessor = CommaList.Check.class,
            description = "Sluice spare pages kept for reuse: -1 (the library's default, twice the ring) or 0.."
                    + SluiceVariant.MAX_POOL_PAGES + " (default -1)")
    List<String> pools = List.of("-1");
    @Option(names = "--capacity", paramLabel = "BYTES", split = ",", preprocessor = CommaList.Check.class,
            description = "Sluice pipe size for the workloads' default-sized pipes, e.g. 256k (default: 64k)")
    List<String> capacities = List.of("0");
    @Option(names = "--threads", paramLabel = "K", split = ",", preprocessor = CommaList.Check.class,
            description = "platform, virtual or both (default ${DEFAULT-VALUE})")
    List<String> threads = List.of(LabDefaults.THREADS);
    @Option(names = "--reps", description = "measured repetitions per case, 1.." + LabDefaults.MAX_REPS
            + " (default ${DEFAULT-VALUE}; 5 or more give intervals)")
    int reps = Integer.parseInt(LabDefaults.REPS);
    @Option(names = "--warmup", description = "unmeasured runs per case first, 0.." + LabDefaults.MAX_WARMUP
            + " (default ${DEFAULT-VALUE})")
    int warmup = Integer.parseInt(LabDefaults.WARMUP);
    @Option(names = "--quick", description = "small sizes (each workload's quick preset)")
    boolean quick;
    @Option(names = "--baseline", paramLabel = "TARGET",
            description = "target the tables are normalised to (default: " + LabDefaults.BASELINE + ")")
    String baseline;
    @picocli.CommandLine.Mixin
    ReportOptions reports = new ReportOptions();

    /** Read before the runs, so the load average is other work's, not the lab's own. */
    final Map<String, String> machine = Machine.facts();

    /** @throws IllegalArgumentException naming the option, for the first value out of range */
    void check() {
        if (reps < 1 || reps > LabDefaults.MAX_REPS) {
            throw new IllegalArgumentException("--reps: must be 1.." + LabDefaults.MAX_REPS + ", got " + reps);
        }
        if (warmup < 0 || warmup > LabDefaults.MAX_WARMUP) {
            throw new IllegalArgumentException("--warmup: must be 0.." + LabDefaults.MAX_WARMUP + ", got " + warmup);
        }
        reports.check();
    }

    /** {@return the families named by {@code --target}, or {@code dflt}} */
    List<Family> families(String dflt) {
        List<String> names = targets == null ? List.of(dflt.split(",")) : targets;
        List<Family> out = new ArrayList<>();
        for (String n : names) {
            if (!n.isBlank()) {
                out.add(Family.parse(n));
            }
        }
        if (out.isEmpty()) {
            throw new IllegalArgumentException("--target: needs at least one of " + Family.choices());
        }
        return out.stream().distinct().toList();
    }

    /**
     * @return every combination of the Sluice options given: the defaults, expanded along one option after
     *         another, each value of an option a change to the variant
     */
    List<SluiceVariant> variants() {
        List<List<UnaryOperator<SluiceVariant>>> axes = List.of(
                each(all(policies, WakePolicy.class, Aliases::wakePolicy, "--policy"), p -> v -> v.withWake(p)),
                each(all(readerWakes, ReaderWakePolicy.class, Aliases::readerWakePolicy, "--reader-wake"),
                        p -> v -> v.withReaderWake(p)),
                each(all(waits, WaitDiscipline.class, Aliases::waitDiscipline, "--wait"), w -> v -> v.withWaits(w)),
                each(all(locks, LockStrategy.class, Aliases::lockStrategy, "--lock"), l -> v -> v.withLock(l)),
                each(values(timestamps, "--timestamps"), t -> v -> v.withTimestamps(Aliases.onOff(t, "--timestamps"))),
                each(values(spins, "--spin"), t -> v -> v.withSpin(Spin.parse(t))),
                each(all(memories, PageMemory.class, Aliases::pageMemory, "--page-memory"), m -> v -> v.withMemory(m)),
                each(values(pools, "--pool-pages"), t -> v -> v.withPoolPages(poolPages(t))),
                each(values(capacities, "--capacity"), t -> v -> v.withCapacity(capacity(t))));
        List<SluiceVariant> out = List.of(SluiceVariant.defaults());
        for (List<UnaryOperator<SluiceVariant>> axis : axes) {
            out = out.stream().flatMap(v -> axis.stream().map(f -> f.apply(v))).toList();
        }
        return out.stream().distinct().toList();
    }

    private static <T> List<UnaryOperator<SluiceVariant>> each(List<T> values,
                                                               Function<T, UnaryOperator<SluiceVariant>> change) {
        return values.stream().map(change).toList();
    }

    private static int poolPages(String s) {
        try {
            return Integer.parseInt(s.trim());
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("--pool-pages: must be -1 (the library's default) or 0.."
                    + SluiceVariant.MAX_POOL_PAGES + ", got '" + s + "'");
        }
    }

    private static int capacity(String s) {
        long v = Sizes.parse("--capacity", s);
        if (v > dev.sluice.PipeOptions.ABSOLUTE_MAX_CAPACITY) {
            throw new IllegalArgumentException("--capacity: must be 0 (the default, 64k) or 1.."
                    + dev.sluice.PipeOptions.ABSOLUTE_MAX_CAPACITY / (1 << 30) + "g bytes, got " + s);
        }
        return (int) v;
    }

    private static List<String> values(List<String> given, String option) {
        List<String> out = given.stream().map(String::trim).filter(x -> !x.isEmpty()).toList();
        if (out.isEmpty()) {
            throw new IllegalArgumentException(option + ": needs a value");
        }
        return out;
    }

    private static <E extends Enum<E>> List<E> all(List<String> given, Class<E> type, Function<String, E> parse,
                                                   String option) {
        List<String> v = values(given, option);
        if (v.size() == 1 && v.get(0).equalsIgnoreCase("all")) {
            return List.of(type.getEnumConstants());
        }
        return v.stream().map(parse).distinct().toList();
    }

    /** {@return the thread kinds of {@code --threads}} */
    List<ThreadKind> threadKinds() {
        List<String> t = values(threads, "--threads");
        if (t.size() == 1 && t.get(0).equalsIgnoreCase("both")) {
            return List.of(ThreadKind.PLATFORM, ThreadKind.VIRTUAL);
        }
        return t.stream().map(ThreadKind::parse).distinct().toList();
    }

    /**
     * The columns: the targets of the families, the perf reference if asked for, and the baseline, which is
     * added if it is not among them (so no table compares a target with itself alone).
     *
     * @param dflt the families when {@code --target} is not given
     * @return the contenders, the baseline first
     */
    Columns columns(String dflt) {
        List<Family> families = families(dflt);
        List<Target> ts = new ArrayList<>(Targets.resolve(families, variants()));
        String base = baseline;
        if (base == null) {
            Target kernel = Targets.kernel();
            base = kernel.unavailable().isEmpty() ? Family.KERNEL.alias() : Family.NIO.alias();
        }
        String b = base;
        if (ts.stream().noneMatch(t -> t.id().equals(b))) {
            Family f;
            try {
                f = Family.parse(b);
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException("--baseline: '" + b + "' is neither one of the targets ("
                        + String.join(", ", ts.stream().map(Target::id).toList()) + ") nor a family ("
                        + Family.choices() + ")");
            }
            if (f == Family.PERF) {
                throw new IllegalArgumentException("--baseline: perf is a reference run, not a pipe; choose a target");
            }
            ts.addAll(0, Targets.resolve(List.of(f), List.of(SluiceVariant.defaults())));
            base = ts.get(0).id();
        }
        List<Contender> cs = new ArrayList<>();
        ts.forEach(t -> cs.add(new Contender.OnTarget(t)));
        if (families.contains(Family.PERF)) {
            cs.add(new Contender.Perf());
        }
        return new Columns(cs, base);
    }

    /**
     * @param contenders the columns
     * @param baseline   the baseline's id
     */
    record Columns(List<Contender> contenders, String baseline) {
    }

    /** {@return the progress display for this session} */
    Progress progress(PrintWriter err) {
        return reports.progress(err);
    }

    /** The wait disciplines core has, for --wait's help: read from the enum so a new one shows up by itself. */
    static final class WaitNames implements Iterable<String> {
        @Override
        public java.util.Iterator<String> iterator() {
            return Aliases.names(WaitDiscipline.class).iterator();
        }
    }
}
