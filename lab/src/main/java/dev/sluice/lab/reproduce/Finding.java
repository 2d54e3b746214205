package dev.sluice.lab.reproduce;

import java.util.List;

/**
 * What {@code lab reproduce} found for one experiment, as printed, written to JSON and shown in the report.
 *
 * @param number     the experiment's number, 1..7
 * @param title      a few words
 * @param claim      what the thread claimed
 * @param source     the thread and commit it comes from
 * @param original   the original figure, as the thread gave it
 * @param knob       the Sluice option toggled, before → after
 * @param kernel     what the kernel target can do about this knob
 * @param workload   the lab workload that re-creates the original test
 * @param metric     the compared figure
 * @param unit       its unit
 * @param before     the target id before the change
 * @param after      the target id after it
 * @param ours       our figure: medians before → after and the change, with its 95 % interval
 * @param ratio      after's better-by against before in the claim's metric, above 1 = the change helped
 * @param lo         the 2.5th percentile of the bootstrap ratio
 * @param hi         the 97.5th percentile
 * @param expected   the original's better-by (below 1 where the original reported a loss)
 * @param verdict    reproduced, same direction within noise, not reproduced, opposite, or n/a
 * @param why        why our figure may differ from the original
 * @param details    further lines (other figures, each case of a several-case experiment)
 */
public record Finding(int number, String title, String claim, String source, String original, String knob,
                      String kernel, String workload, String metric, String unit, String before, String after,
                      String ours, double ratio, double lo, double hi, double expected, String verdict, String why,
                      List<String> details) {
}
