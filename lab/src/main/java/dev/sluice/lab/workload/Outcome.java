package dev.sluice.lab.workload;

import java.util.Map;

/**
 * What one run of a workload measured, after its self-check passed.
 *
 * @param nanos    the timed section (from the start gate to the last task's end)
 * @param bytes    payload bytes that crossed the pipes (each byte counted once per pipe it crossed)
 * @param messages messages (hackbench), round trips (pingpong), tokens (jobserver), records (tee), writes
 * @param metrics  workload figures by name: seconds, MB/s, latency percentiles in µs, phase times
 * @param counters the Sluice pipes' counters summed over the run's pipes; empty for other targets
 * @param note     something a reader of the figure must know (fallbacks, capacity a target could not set)
 */
public record Outcome(long nanos, long bytes, long messages, Map<String, Double> metrics,
                      Map<String, Long> counters, String note) {
}
