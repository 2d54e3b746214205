package dev.sluice.lab.report;

import dev.sluice.lab.report.Analysis.CaseView;
import dev.sluice.lab.report.Analysis.Row;
import dev.sluice.lab.report.Analysis.Standing;
import dev.sluice.lab.report.Analysis.WorkloadView;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/** The sentences of the analysis: one per workload, and the closing summary. */
final class Conclusions {
    private Conclusions() {
    }

    /** Sluice's best-placed row in a case: the best standing, then the best ratio to the best. */
    static Optional<Row> sluice(CaseView c) {
        return c.rows().stream().filter(r -> Analysis.isSluice(r.family()) && r.ok())
                .min(Comparator.comparing(Row::standing)
                        .thenComparing(r -> r.vsBest().defined() ? -r.vsBest().ratio() : -1.0));
    }

    static String workload(String name, String base, List<CaseView> cases) {
        List<String> parts = new ArrayList<>();
        for (CaseView c : cases) {
            parts.add((cases.size() > 1 ? c.label() + ": " : "") + one(c, base));
        }
        return name + ": " + String.join("; ", parts) + ".";
    }

    private static String one(CaseView c, String base) {
        if (c.best() == null) {
            return "nothing ran";
        }
        Row best = c.rows().stream().filter(r -> r.target().equals(c.best())).findFirst().orElseThrow();
        StringBuilder sb = new StringBuilder(c.best()).append(" best");
        if (!c.best().equals(base) && best.vsBaseline().defined()) {
            sb.append(String.format(Locale.ROOT, " (×%.2f [%.2f, %.2f] vs %s)", best.vsBaseline().ratio(),
                    best.vsBaseline().lo(), best.vsBaseline().hi(), base));
        }
        List<String> close = c.rows().stream().filter(r -> r.standing() == Standing.WITHIN_NOISE)
                .map(Row::target).toList();
        if (!close.isEmpty()) {
            sb.append(", within noise of it: ").append(String.join(", ", close));
        }
        Optional<Row> s = sluice(c);
        if (s.isPresent() && s.get().standing() != Standing.BEST && s.get().standing() != Standing.WITHIN_NOISE) {
            sb.append(", ").append(s.get().target()).append(' ').append(s.get().verdict());
        }
        return sb.toString();
    }

    /** Sluice's standing over a workload's cases: the worst of them. */
    private static Standing standing(WorkloadView w) {
        Standing worst = null;
        for (CaseView c : w.cases()) {
            Standing s = sluice(c).map(Row::standing).orElse(Standing.NONE);
            if (worst == null || s.compareTo(worst) > 0) {
                worst = s;
            }
        }
        return worst == null ? Standing.NONE : worst;
    }

    static String summary(List<WorkloadView> views) {
        List<String> best = new ArrayList<>();
        List<String> noise = new ArrayList<>();
        List<String> behind = new ArrayList<>();
        List<String> unresolved = new ArrayList<>();
        List<String> none = new ArrayList<>();
        for (WorkloadView w : views) {
            switch (standing(w)) {
                case BEST -> best.add(w.workload());
                case WITHIN_NOISE -> noise.add(w.workload() + " (" + bestOthers(w) + ")");
                case BEHIND -> behind.add(w.workload() + " (" + bestOthers(w) + ")");
                case UNRESOLVED -> unresolved.add(w.workload());
                case NONE -> none.add(w.workload());
                default -> throw new IllegalStateException();
            }
        }
        int n = views.size();
        if (none.size() == n) {
            return "Summary: no Sluice target ran, so there is nothing to say about Sluice.";
        }
        StringBuilder sb = new StringBuilder("Summary: Sluice fastest on ").append(best.size()).append(" of ").append(n)
                .append(best.isEmpty() ? "" : " (" + String.join(", ", best) + ")");
        if (!noise.isEmpty()) {
            sb.append("; within noise of the best on ").append(noise.size()).append(": ").append(String.join("; ",
                    noise));
        }
        if (!behind.isEmpty()) {
            sb.append("; resolvably behind on ").append(behind.size()).append(": ").append(String.join("; ", behind));
        }
        if (!unresolved.isEmpty()) {
            sb.append("; too few repetitions to tell on ").append(unresolved.size()).append(" (")
                    .append(String.join(", ", unresolved)).append(", use --reps 5 or more)");
        }
        if (!none.isEmpty()) {
            sb.append("; not run on ").append(none.size()).append(" (").append(String.join(", ", none)).append(')');
        }
        sb.append('.');
        if (views.stream().anyMatch(v -> v.reps() < Bootstrap.MIN_REPS)) {
            sb.append(" With fewer than ").append(Bootstrap.MIN_REPS).append(" repetitions per case these are medians "
                    + "only, without intervals (--reps ").append(Bootstrap.MIN_REPS).append(" or more).");
        }
        return sb.toString();
    }

    /** Who was best where Sluice was not, and by how much Sluice trailed: {@code kernel best, sluice behind 12 %}. */
    private static String bestOthers(WorkloadView w) {
        List<String> parts = new ArrayList<>();
        for (CaseView c : w.cases()) {
            Optional<Row> s = sluice(c);
            if (s.isPresent() && s.get().standing() != Standing.BEST) {
                parts.add((w.cases().size() > 1 ? c.label() + ": " : "") + c.best() + " best, " + s.get().target()
                        + " " + s.get().verdict());
            }
        }
        return String.join("; ", parts);
    }
}
