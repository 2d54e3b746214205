package dev.sluice.lab.report;

import java.util.Arrays;
import java.util.List;
import java.util.Random;

/**
 * Medians and percentile-bootstrap intervals for "how much better is B than A" on a handful of noisy
 * repetitions. On the lab's shared 2-core machines a run is often bimodal (a neighbour's build lands in the
 * middle of it), so the mean and the CV say little; the median shrugs off the odd slow repetition, and the
 * bootstrap gives an interval for the ratio of medians without assuming any distribution.
 *
 * <p>Everything here is deterministic for a given seed, so the same results file always prints the same
 * table. {@link Random} is used rather than a faster generator because its sequence is specified by the
 * JDK, so the figures do not change with the JDK either.
 */
public final class Bootstrap {
    /** Resamples per interval: enough that the 2.5 % and 97.5 % points move by well under 1 % between seeds. */
    public static final int RESAMPLES = 2000;
    /** The seed the tables use, fixed so that a results file always prints the same intervals. */
    public static final long SEED = 0x511CE_5EEDL;
    /** Fewer repetitions than this give an interval too coarse to mean anything (5 values have 5 medians). */
    public static final int MIN_REPS = 5;

    private Bootstrap() {
    }

    /** Where an interval of "better by" lies against a tolerance: the three answers to "is it within x %?". */
    public enum Verdict {
        /** The whole interval is below {@code 1 - tolerance}: behind by more than the tolerance, beyond noise. */
        BEHIND("resolvably behind"),
        /** The whole interval is at or above {@code 1 - tolerance}: no more than the tolerance behind. */
        WITHIN("within %s"),
        /** The interval straddles {@code 1 - tolerance}: these repetitions cannot tell. */
        NOISE("within noise");

        private final String words;

        Verdict(String words) {
            this.words = words;
        }

        /**
         * {@return plain words for the tables, e.g. "within 3 %"}
         *
         * @param tolerance the tolerance the verdict was reached against, 0.03 for 3 %
         */
        public String words(double tolerance) {
            return String.format(java.util.Locale.ROOT, words, Math.round(tolerance * 100) + " %");
        }
    }

    /**
     * A ratio with its interval.
     *
     * @param ratio the ratio of the medians of the samples themselves
     * @param lo    the 2.5th percentile of the bootstrap ratios
     * @param hi    the 97.5th percentile
     */
    public record Ratio(double ratio, double lo, double hi) {
        /** No ratio: a side was empty or not positive. */
        public static final Ratio NONE = new Ratio(Double.NaN, Double.NaN, Double.NaN);

        /** {@return whether there is a ratio at all (false for {@link #NONE})} */
        public boolean defined() {
            return !Double.isNaN(ratio);
        }

        /**
         * Whether this "better by" is resolvably within {@code tolerance} (0.03 for 3 %) of 1 from below,
         * resolvably further behind, or neither.
         *
         * @param tolerance how far below 1 still counts as within, 0.03 for 3 %
         * @return where the interval lies against {@code 1 - tolerance}
         */
        public Verdict verdict(double tolerance) {
            double floor = 1 - tolerance;
            if (hi < floor) {
                return Verdict.BEHIND;
            }
            return lo >= floor ? Verdict.WITHIN : Verdict.NOISE;
        }
    }

    /**
     * The median with a 95 % percentile-bootstrap interval of its own: the values resampled with replacement,
     * the 2.5th and 97.5th percentiles of the resampled medians. For the whiskers of the report's bars.
     *
     * @param values the repetitions
     * @return {median, lo, hi}; all NaN for no values; lo = hi = the median for fewer than {@link #MIN_REPS}
     */
    public static double[] medianInterval(double[] values) {
        double m = median(values);
        if (values.length < MIN_REPS) {
            return new double[] {m, m, m};
        }
        Random random = new Random(SEED);
        double[] meds = new double[RESAMPLES];
        double[] into = new double[values.length];
        for (int i = 0; i < RESAMPLES; i++) {
            meds[i] = resampledMedian(values, into, random);
        }
        Arrays.sort(meds);
        return new double[] {m, percentile(meds, 0.025), percentile(meds, 0.975)};
    }

    /**
     * The geometric mean of several independent ratios with a bootstrap interval: each side of each ratio
     * resampled independently, as {@link #betterBy(double[], double[], boolean)} does for one. For an
     * experiment measured at several sizes that claims one effect over all of them.
     *
     * @param references    each case's reference values
     * @param candidates    each case's candidate values
     * @param lowerIsBetter the metric's direction
     * @return the geometric mean of the cases' better-by with its interval, {@link Ratio#NONE} if any is undefined
     */
    public static Ratio pooled(List<double[]> references, List<double[]> candidates, boolean lowerIsBetter) {
        int k = references.size();
        double logSum = 0;
        for (int c = 0; c < k; c++) {
            double r = ratio(median(references.get(c)), median(candidates.get(c)), lowerIsBetter);
            if (Double.isNaN(r)) {
                return Ratio.NONE;
            }
            logSum += Math.log(r);
        }
        Random random = new Random(SEED);
        double[] pooled = new double[RESAMPLES];
        for (int i = 0; i < RESAMPLES; i++) {
            double s = 0;
            for (int c = 0; c < k; c++) {
                double[] a = references.get(c);
                double[] b = candidates.get(c);
                s += Math.log(ratio(resampledMedian(a, new double[a.length], random),
                        resampledMedian(b, new double[b.length], random), lowerIsBetter));
            }
            pooled[i] = Math.exp(s / k);
        }
        Arrays.sort(pooled);
        return new Ratio(Math.exp(logSum / k), percentile(pooled, 0.025), percentile(pooled, 0.975));
    }

    /**
     * {@return the median; the mean of the middle two for an even count; NaN for none}
     *
     * @param values the values, in any order (the array is not changed)
     */
    public static double median(double[] values) {
        if (values.length == 0) {
            return Double.NaN;
        }
        double[] v = values.clone();
        Arrays.sort(v);
        return middle(v);
    }

    private static double middle(double[] sorted) {
        int n = sorted.length;
        return n % 2 == 1 ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2;
    }

    /**
     * How many times better {@code candidate} is than {@code reference}, from their medians: for a time
     * (lower is better) {@code median(reference) / median(candidate)}, for a throughput the inverse, so
     * above 1 is better either way. The interval resamples each side's values with replacement,
     * independently (the repetitions of two targets are not paired: they ran at different moments), and
     * takes the 2.5th and 97.5th percentiles of the resampled ratios.
     *
     * @param reference     the reference's repetitions
     * @param candidate     the candidate's repetitions
     * @param lowerIsBetter true for a time, false for a throughput
     * @param resamples     how many bootstrap ratios the interval is taken from
     * @param seed          the seed of the resampling, so that the same values always give the same interval
     * @return the ratio of medians with its 95 % interval; {@link Ratio#NONE} (NaN) when a side is empty or a
     *         median is not positive, where a ratio means nothing
     */
    public static Ratio betterBy(double[] reference, double[] candidate, boolean lowerIsBetter, int resamples,
                                 long seed) {
        double point = ratio(median(reference), median(candidate), lowerIsBetter);
        if (Double.isNaN(point)) {
            return Ratio.NONE;
        }
        Random random = new Random(seed);
        double[] ratios = new double[resamples];
        double[] a = new double[reference.length];
        double[] b = new double[candidate.length];
        for (int i = 0; i < resamples; i++) {
            ratios[i] = ratio(resampledMedian(reference, a, random), resampledMedian(candidate, b, random),
                    lowerIsBetter);
        }
        Arrays.sort(ratios);
        return new Ratio(point, percentile(ratios, 0.025), percentile(ratios, 0.975));
    }

    /**
     * {@link #betterBy(double[], double[], boolean, int, long)} with the tables' resamples and seed.
     *
     * @param reference     the reference's repetitions
     * @param candidate     the candidate's repetitions
     * @param lowerIsBetter true for a time, false for a throughput
     * @return the ratio of medians with its 95 % interval, {@link Ratio#NONE} where a ratio means nothing
     */
    public static Ratio betterBy(double[] reference, double[] candidate, boolean lowerIsBetter) {
        return betterBy(reference, candidate, lowerIsBetter, RESAMPLES, SEED);
    }

    private static double ratio(double reference, double candidate, boolean lowerIsBetter) {
        if (!(reference > 0) || !(candidate > 0)) {
            return Double.NaN;
        }
        return lowerIsBetter ? reference / candidate : candidate / reference;
    }

    /** Draws {@code into.length} values from {@code from} with replacement and returns their median. */
    private static double resampledMedian(double[] from, double[] into, Random random) {
        for (int i = 0; i < into.length; i++) {
            into[i] = from[random.nextInt(from.length)];
        }
        Arrays.sort(into);
        return middle(into);
    }

    /** The p-quantile of sorted values, interpolating linearly between the two nearest ranks. */
    static double percentile(double[] sorted, double p) {
        double pos = p * (sorted.length - 1);
        int below = (int) Math.floor(pos);
        int above = Math.min(below + 1, sorted.length - 1);
        return sorted[below] + (pos - below) * (sorted[above] - sorted[below]);
    }
}
