package dev.sluice.lab.report;

import dev.sluice.lab.report.Bootstrap.Ratio;
import dev.sluice.lab.report.Bootstrap.Verdict;
import org.junit.jupiter.api.Test;

import java.util.Arrays;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

/** Medians, the bootstrap interval of a ratio of medians, and the verdict against a tolerance, on known data. */
class BootstrapTest {
    /** Ten repetitions around 1 with a spread like the lab's (CV about 10 %), one slow outlier. */
    static final double[] TIMES = {1.00, 0.93, 1.08, 0.97, 1.12, 0.90, 1.03, 0.95, 1.06, 1.60};

    static double[] times(double factor) {
        return Arrays.stream(TIMES).map(t -> t * factor).toArray();
    }

    @Test
    void medianOfOddEvenAndNoValues() {
        assertThat(Bootstrap.median(new double[]{3, 1, 2})).isEqualTo(2.0);
        assertThat(Bootstrap.median(new double[]{4, 1, 3, 2})).isEqualTo(2.5);
        assertThat(Bootstrap.median(new double[]{7})).isEqualTo(7.0);
        assertThat(Bootstrap.median(new double[0])).isNaN();
        double[] unsorted = {5, 1, 4};
        Bootstrap.median(unsorted);
        assertThat(unsorted).as("the caller's array is left alone").containsExactly(5, 1, 4);
    }

    @Test
    void medianIgnoresTheOutlierTheMeanDoesNot() {
        assertThat(Bootstrap.median(TIMES)).isCloseTo(1.015, within(1e-12));
        assertThat(Arrays.stream(TIMES).average().orElseThrow()).isGreaterThan(1.06);
    }

    @Test
    void percentileInterpolatesBetweenRanks() {
        double[] v = {1, 2, 3, 4, 5};
        assertThat(Bootstrap.percentile(v, 0.0)).isEqualTo(1.0);
        assertThat(Bootstrap.percentile(v, 0.5)).isEqualTo(3.0);
        assertThat(Bootstrap.percentile(v, 1.0)).isEqualTo(5.0);
        assertThat(Bootstrap.percentile(v, 0.1)).isCloseTo(1.4, within(1e-12));
    }

    @Test
    void identicalSamplesGiveExactlyOneWithAZeroWidthInterval() {
        double[] same = {2.5, 2.5, 2.5, 2.5, 2.5};
        Ratio r = Bootstrap.betterBy(same, same.clone(), true);
        assertThat(r.ratio()).isEqualTo(1.0);
        assertThat(r.lo()).isEqualTo(1.0);
        assertThat(r.hi()).isEqualTo(1.0);
        assertThat(r.verdict(0.03)).isEqualTo(Verdict.WITHIN);
    }

    @Test
    void halfTheTimeIsTwiceAsGoodAndTwiceTheThroughputToo() {
        Ratio faster = Bootstrap.betterBy(times(1), times(0.5), true);
        assertThat(faster.ratio()).isCloseTo(2.0, within(1e-12));
        assertThat(faster.lo()).isBetween(1.5, 2.0);
        assertThat(faster.hi()).isBetween(2.0, 2.7);

        Ratio throughput = Bootstrap.betterBy(times(1), times(2), false);
        assertThat(throughput.ratio()).isCloseTo(2.0, within(1e-12));

        // the same data read the other way round: twice the time is half as good
        Ratio slower = Bootstrap.betterBy(times(1), times(2), true);
        assertThat(slower.ratio()).isCloseTo(0.5, within(1e-12));
        assertThat(slower.hi()).isLessThan(1.0);
    }

    @Test
    void theIntervalHoldsTheRatioAndWidensWithTheNoise() {
        Ratio tidy = Bootstrap.betterBy(new double[]{1.00, 1.01, 0.99, 1.00, 1.02, 0.98},
                new double[]{0.50, 0.505, 0.495, 0.50, 0.51, 0.49}, true);
        Ratio noisy = Bootstrap.betterBy(times(1), times(0.5), true);
        assertThat(tidy.lo()).isLessThanOrEqualTo(tidy.ratio());
        assertThat(tidy.hi()).isGreaterThanOrEqualTo(tidy.ratio());
        assertThat(noisy.hi() - noisy.lo()).isGreaterThan(3 * (tidy.hi() - tidy.lo()));
    }

    @Test
    void theSameSeedGivesTheSameIntervalAndAnotherSeedAnother() {
        double[] a = times(1);
        double[] b = {0.95, 1.20, 0.88, 1.01, 1.10, 0.97, 1.30};
        Ratio once = Bootstrap.betterBy(a, b, true, Bootstrap.RESAMPLES, 42);
        Ratio twice = Bootstrap.betterBy(a, b, true, Bootstrap.RESAMPLES, 42);
        assertThat(twice).isEqualTo(once);
        assertThat(Bootstrap.betterBy(a, b, true)).isEqualTo(Bootstrap.betterBy(a, b, true));
        // Only 10 x 7 values, so two seeds can share a percentile; with few resamples they differ somewhere.
        Ratio[] seeds = {Bootstrap.betterBy(a, b, true, 50, 1), Bootstrap.betterBy(a, b, true, 50, 2),
                Bootstrap.betterBy(a, b, true, 50, 3)};
        assertThat(Arrays.stream(seeds).distinct().count()).isGreaterThan(1);
    }

    @Test
    void noRatioWithoutValuesOrWithANonPositiveMedian() {
        assertThat(Bootstrap.betterBy(new double[0], times(1), true).defined()).isFalse();
        assertThat(Bootstrap.betterBy(times(1), new double[]{0, 0, 0}, false).defined()).isFalse();
        assertThat(Bootstrap.betterBy(times(1), times(1), false).defined()).isTrue();
    }

    @Test
    void verdictSaysWhereTheIntervalLiesAgainstTheTolerance() {
        assertThat(new Ratio(0.90, 0.85, 0.96).verdict(0.03)).isEqualTo(Verdict.BEHIND);
        assertThat(new Ratio(0.99, 0.97, 1.02).verdict(0.03)).isEqualTo(Verdict.WITHIN);
        assertThat(new Ratio(0.99, 0.97, 1.20).verdict(0.03)).as("possibly better, surely not 3 % behind")
                .isEqualTo(Verdict.WITHIN);
        assertThat(new Ratio(0.98, 0.90, 1.05).verdict(0.03)).isEqualTo(Verdict.NOISE);
        assertThat(new Ratio(0.95, 0.90, 0.97).verdict(0.03)).as("touching 0.97 is not beyond it")
                .isEqualTo(Verdict.NOISE);
        assertThat(Verdict.BEHIND.words(0.03)).isEqualTo("resolvably behind");
        assertThat(Verdict.WITHIN.words(0.03)).isEqualTo("within 3 %");
        assertThat(Verdict.NOISE.words(0.03)).isEqualTo("within noise");
    }

    @Test
    void verdictsFromData() {
        double[] best = {1.00, 1.001, 0.999, 1.00, 1.002, 0.998};
        double[] tenPercentSlower = Arrays.stream(best).map(t -> t * 1.10).toArray();
        double[] onePercentSlower = Arrays.stream(best).map(t -> t * 1.01).toArray();
        assertThat(Bootstrap.betterBy(best, tenPercentSlower, true).verdict(0.03)).isEqualTo(Verdict.BEHIND);
        assertThat(Bootstrap.betterBy(best, onePercentSlower, true).verdict(0.03)).isEqualTo(Verdict.WITHIN);
        // 10 % behind at the medians, but with the lab's spread on both sides ten repetitions cannot say so
        assertThat(Bootstrap.betterBy(times(1), times(1.10), true).verdict(0.03)).isEqualTo(Verdict.NOISE);
    }
}
