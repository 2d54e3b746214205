package dev.sluice.lab.workload;

/**
 * The figure a workload is compared on.
 *
 * @param key           name of the value in {@link Outcome#metrics()} ("seconds" is the measured time)
 * @param unit          unit for tables
 * @param lowerIsBetter true for times and latencies, false for throughput
 */
public record Metric(String key, String unit, boolean lowerIsBetter) {
}
