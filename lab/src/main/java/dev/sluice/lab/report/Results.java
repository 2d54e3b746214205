package dev.sluice.lab.report;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/**
 * A lab session's results, as written to and read from JSON. The format is documented in
 * {@code lab/schema/results-v1.md}; {@link #SCHEMA} and {@link #VERSION} identify it, and the reader refuses
 * anything else rather than guessing.
 *
 * @param schema   always {@link #SCHEMA}
 * @param version  {@link #VERSION}; bumped when a field changes meaning or goes away
 * @param created  ISO-8601 instant the session started
 * @param command  the lab command line
 * @param machine  cores, cpu, jdk, kernel, cpuidle, haltPollNs, ...
 * @param warmup   unmeasured runs per case before the repetitions
 * @param reps     measured repetitions per case, interleaved across targets
 * @param baseline target id the comparison is normalised to, or null
 * @param runs     one per (workload, parameters, target, threads), including n/a and failed ones
 */
public record Results(String schema, int version, String created, List<String> command,
                     Map<String, String> machine, int warmup, int reps, String baseline, List<Run> runs) {

    public static final String SCHEMA = "sluice-lab-results";
    public static final int VERSION = 1;

    /**
     * One case on one target.
     *
     * @param workload       workload name
     * @param caseLabel      the parameters that vary, as shown in table rows ("size=4096")
     * @param params         every parameter value
     * @param target         target id (e.g. {@code sluice[half-empty]})
     * @param family         target family (sluice, kernel, nio, jdk-piped, okio, perf)
     * @param targetSettings the target's settings (policy, wait, lock, timestamps) if any
     * @param threads        platform or virtual
     * @param status         ok, n/a or failed
     * @param reason         why n/a or failed
     * @param metric         the compared metric's key in {@link Rep#metrics()}
     * @param unit           its unit
     * @param lowerIsBetter  its direction
     * @param note           what a reader of the figures must know (fallbacks, fixed capacity)
     * @param reps           every measured repetition
     * @param summary        mean, median and CV of every metric and of the rusage figures over the reps
     */
    public record Run(String workload, String caseLabel, Map<String, Long> params, String target, String family,
                      Map<String, String> targetSettings, String threads, String status, String reason,
                      String metric, String unit, boolean lowerIsBetter, String note, List<Rep> reps,
                      Map<String, Summary> summary) {
        public boolean ok() {
            return "ok".equals(status);
        }
    }

    /**
     * One measured repetition. Nullable fields are null when the figure is not available here.
     *
     * @param seconds          the timed section
     * @param bytes            payload bytes moved
     * @param messages         messages / round trips / tokens / records / calls
     * @param userCpuSeconds   process user CPU during the run (getrusage, self + children)
     * @param sysCpuSeconds    process system CPU
     * @param voluntaryCs      voluntary context switches (ru_nvcsw)
     * @param involuntaryCs    involuntary context switches (ru_nivcsw)
     * @param allocatedBytes   Java heap bytes allocated by all threads during the run
     * @param metrics          the workload's figures
     * @param counters         the Sluice pipes' counters (empty for other targets)
     */
    public record Rep(double seconds, long bytes, long messages, Double userCpuSeconds, Double sysCpuSeconds,
                      Long voluntaryCs, Long involuntaryCs, Long allocatedBytes, Map<String, Double> metrics,
                      Map<String, Long> counters) {
    }

    /**
     * @param mean   arithmetic mean
     * @param median median
     * @param cv     coefficient of variation (sample standard deviation / mean), 0 for one value
     * @param n      values
     */
    public record Summary(double mean, double median, double cv, int n) {
        public static Summary of(List<Double> values) {
            int n = values.size();
            if (n == 0) {
                return new Summary(Double.NaN, Double.NaN, Double.NaN, 0);
            }
            double[] v = values.stream().mapToDouble(Double::doubleValue).sorted().toArray();
            double mean = 0;
            for (double x : v) {
                mean += x;
            }
            mean /= n;
            double median = n % 2 == 1 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
            double var = 0;
            for (double x : v) {
                var += (x - mean) * (x - mean);
            }
            double sd = n > 1 ? Math.sqrt(var / (n - 1)) : 0;
            double cv = mean != 0 ? sd / Math.abs(mean) : 0;
            return new Summary(mean, median, cv, n);
        }
    }

    private static ObjectMapper mapper() {
        return new ObjectMapper()
                .enable(SerializationFeature.INDENT_OUTPUT)
                .disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES);
    }

    public void write(Path file) throws IOException {
        Path parent = file.toAbsolutePath().getParent();
        if (parent != null) {
            Files.createDirectories(parent);
        }
        mapper().writeValue(file.toFile(), this);
    }

    public String toJson() throws IOException {
        return mapper().writeValueAsString(this);
    }

    /**
     * Reads results written by this or a compatible version.
     *
     * @throws IOException if the file is not lab results of schema version 1
     */
    public static Results read(Path file) throws IOException {
        Results r;
        try {
            r = mapper().readValue(file.toFile(), Results.class);
        } catch (com.fasterxml.jackson.core.JacksonException e) {
            throw new IOException(file + " is not lab results JSON: " + e.getOriginalMessage());
        }
        return checked(r, file.toString());
    }

    public static Results fromJson(String json) throws IOException {
        try {
            return checked(mapper().readValue(json, Results.class), "input");
        } catch (com.fasterxml.jackson.core.JacksonException e) {
            throw new IOException("not lab results JSON: " + e.getOriginalMessage());
        }
    }

    private static Results checked(Results r, String where) throws IOException {
        if (r == null || !SCHEMA.equals(r.schema())) {
            throw new IOException(where + ": not a " + SCHEMA + " file (schema is " + (r == null ? null : r.schema()) + ")");
        }
        if (r.version() != VERSION) {
            throw new IOException(where + ": results version " + r.version() + ", this lab reads version " + VERSION);
        }
        return r;
    }
}
