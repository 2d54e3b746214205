package dev.sluice.lab.run;

import dev.sluice.lab.targets.CrossJvmTarget;
import dev.sluice.lab.targets.Family;
import dev.sluice.lab.targets.Target;
import dev.sluice.lab.workload.Outcome;
import dev.sluice.lab.workload.Reference;
import dev.sluice.lab.workload.ThreadKind;
import dev.sluice.lab.workload.Workload;

import java.util.Map;
import java.util.Optional;

/**
 * What one column of a table is: a pipe target the workload drives, or a workload's reference run (perf
 * bench), which runs its own program and opens no pipe. The runner sees only this, so neither it nor the
 * workloads need to ask which of the two they have.
 */
public sealed interface Contender permits Contender.OnTarget, Contender.Perf {

    /** {@return the column's name} */
    String id();

    /** {@return the family, for JSON} */
    Family family();

    /** {@return the target's settings, empty for others} */
    Map<String, String> settings();

    /**
     * Describes this contender's configuration for the run's notes.
     *
     * @param w the workload
     * @return how this contender is configured for it, in a few words
     */
    String how(Workload w);

    /**
     * Says whether one case can run here before the runner tries it, so that the table shows why a cell is
     * empty instead of an error.
     *
     * @param w       the workload
     * @param params  the case's parameters
     * @param threads the thread kind
     * @return why this case cannot run here, if it cannot
     */
    Optional<String> cannotRun(Workload w, Map<String, Long> params, ThreadKind threads);

    /**
     * Runs one repetition of one case.
     *
     * @param w       the workload
     * @param params  the case's parameters
     * @param threads the thread kind
     * @return what one run measured
     * @throws Exception if the run failed or its self-check did
     */
    Outcome run(Workload w, Map<String, Long> params, ThreadKind threads) throws Exception;

    /**
     * A pipe target.
     *
     * @param target the target
     */
    record OnTarget(Target target) implements Contender {
        @Override
        public String id() {
            return target.id();
        }

        @Override
        public Family family() {
            return target.family();
        }

        @Override
        public Map<String, String> settings() {
            return target.settings();
        }

        @Override
        public String how(Workload w) {
            return target.how(w.traffic());
        }

        @Override
        public Optional<String> cannotRun(Workload w, Map<String, Long> params, ThreadKind threads) {
            if (target instanceof CrossJvmTarget && !w.crossJvm()) {
                return Optional.of(CrossJvmTarget.whyNot());
            }
            return target.unavailable().or(() -> w.unsupported(target, params, threads));
        }

        @Override
        public Outcome run(Workload w, Map<String, Long> params, ThreadKind threads) throws Exception {
            return w.run(target, params, threads);
        }
    }

    /** The perf bench reference run of the workloads that have one. */
    record Perf() implements Contender {
        @Override
        public String id() {
            return Family.PERF.alias();
        }

        @Override
        public Family family() {
            return Family.PERF;
        }

        @Override
        public Map<String, String> settings() {
            return Map.of();
        }

        @Override
        public String how(Workload w) {
            return w.reference().map(Reference::how).orElse("n/a");
        }

        @Override
        public Optional<String> cannotRun(Workload w, Map<String, Long> params, ThreadKind threads) {
            return w.reference().map(r -> r.unsupported(params, threads))
                    .orElse(Optional.of("perf bench has no " + w.name()));
        }

        @Override
        public Outcome run(Workload w, Map<String, Long> params, ThreadKind threads) throws Exception {
            return w.reference().orElseThrow().run(params);
        }
    }
}
