package dev.sluice.lab.reproduce;

import dev.sluice.lab.targets.SluiceVariant;

import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

/**
 * One finding of the seed threads, as an experiment on Sluice: a workload run before and after toggling one
 * option, compared on the figure the thread gave.
 *
 * @param number        1..7, as the issue lists them
 * @param title         a few words
 * @param claim         what the thread claimed
 * @param source        thread, author, date, commit
 * @param original      the figure as the thread gave it
 * @param knob          the option toggled, in the lab's words
 * @param before        Sluice before the change
 * @param after         Sluice after it
 * @param workload      the lab workload re-creating the original test
 * @param quick         its parameters for {@code --quick}
 * @param full          its parameters for the full run
 * @param metric        the compared figure: a workload metric, or {@link #CONTEXT_SWITCHES}
 * @param unit          its unit
 * @param lowerIsBetter its direction
 * @param expected      the original's better-by, after against before (above 1: the change helped)
 * @param details       further metrics to print beside it (metric keys, {@link #CONTEXT_SWITCHES}, or
 *                      {@code counter.<name>})
 * @param kernel        what the kernel target can do about the knob (computed when the experiment runs)
 * @param why           why our figure may differ, beyond the machine
 */
public record Experiment(int number, String title, String claim, String source, String original, String knob,
                         SluiceVariant before, SluiceVariant after, String workload, Map<String, List<Long>> quick,
                         Map<String, List<Long>> full, String metric, String unit, boolean lowerIsBetter,
                         double expected, List<String> details, Supplier<String> kernel, String why) {
    /** The metric name for context switches per run (voluntary + involuntary, whole process). */
    public static final String CONTEXT_SWITCHES = "context switches";
}
