package dev.sluice.lab.report;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import dev.sluice.lab.reproduce.Finding;

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
 * @param schema        always {@link #SCHEMA}
 * @param version       {@link #VERSION}; bumped when a field changes meaning or goes away
 * @param created       ISO-8601 instant the session started
 * @param command       the lab command line
 * @param sluice        the Sluice build that ran (version and git commit)
 * @param jvm           the JVM that ran, with its arguments
 * @param machine       cores, cpu, jdk, kernel, cpuidle, haltPollNs, ...
 * @param warmup        unmeasured runs per case before the repetitions
 * @param reps          measured repetitions per case, interleaved across targets
 * @param baseline      target id the comparison is normalised to, or null
 * @param runs          one per (workload, parameters, target, threads), including n/a and failed ones
 * @param reproductions the findings of {@code lab reproduce}, empty for other commands
 */
public record Results(String schema, int version, String created, List<String> command, Build sluice, Jvm jvm,
                      Map<String, String> machine, int warmup, int reps, String baseline, List<Run> runs,
                      List<Finding> reproductions) {

    /** The {@code schema} of every results file. */
    public static final String SCHEMA = "sluice-lab-results";
    /** The {@code version} this lab writes and reads. */
    public static final int VERSION = 1;
    /**
     * The key in {@link Rep#metrics()} of the CPUs' distance measured just before the repetition: a cache-line
     * round trip between two threads, in nanoseconds ({@code dev.sluice.crossjvm.CpuDistance}). Files from
     * before it have none.
     */
    public static final String CPU_DISTANCE = "cpuDistanceNs";

    /** Empty lists where an older file has none (files of version 1 from before these fields). */
    public Results {
        reproductions = reproductions == null ? List.of() : reproductions;
    }

    /**
     * The Sluice build that ran.
     *
     * @param version the Maven version, e.g. {@code 0.1.0-SNAPSHOT}
     * @param commit  the git commit it was built from ({@code +dirty} if the tree had changes), or {@code unknown}
     */
    public record Build(String version, String commit) {
    }

    /**
     * The JVM that ran.
     *
     * @param name    {@code java.vm.name}
     * @param vendor  {@code java.vm.vendor}
     * @param version {@code java.vm.version}
     * @param home    {@code java.home}
     * @param args    the JVM's input arguments
     */
    public record Jvm(String name, String vendor, String version, String home, List<String> args) {
    }

    /**
     * One case on one target.
     *
     * @param workload       workload name
     * @param caseLabel      the parameters that vary, as shown in table rows ("size=4096")
     * @param params         every parameter value
     * @param target         target id (e.g. {@code sluice[half-empty]})
     * @param family         target family (sluice, kernel, nio, jdk-piped, okio, perf)
     * @param targetSettings the target's settings (policy, wait, lock, timestamps) if any
     * @param how            how the target was configured and called for this workload
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
                      Map<String, String> targetSettings, String how, String threads, String status, String reason,
                      String metric, String unit, boolean lowerIsBetter, String note, List<Rep> reps,
                      Map<String, Summary> summary) {
        /** {@return whether the case ran and passed its self-check} */
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
     * One figure over the repetitions of a case.
     *
     * @param mean   arithmetic mean
     * @param median median
     * @param cv     coefficient of variation (sample standard deviation / mean), 0 for one value
     * @param n      values
     */
    public record Summary(double mean, double median, double cv, int n) {
        /**
         * Sums up one figure's values.
         *
         * @param values the values, one per repetition
         * @return their summary (NaN for none)
         */
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

    /**
     * {@return this session as JSON (schema v1)}
     *
     * @throws IOException if Jackson cannot serialize it
     */
    public String toJson() throws IOException {
        return mapper().writeValueAsString(this);
    }

    /**
     * Reads results written by this or a compatible version.
     *
     * @param file the file
     * @return the results
     * @throws IOException if the file cannot be read
     * @throws IllegalArgumentException if it is not lab results of schema version 1 with every field the
     *         report needs (the message names the first missing one)
     */
    public static Results read(Path file) throws IOException {
        if (!Files.isRegularFile(file)) {
            throw new IllegalArgumentException(file + ": no such results file");
        }
        return fromJson(Files.readString(file), file.toString());
    }

    /**
     * Reads results from JSON text, as {@link #read} does from a file.
     *
     * @param json  results JSON
     * @param where the file name, for messages
     * @return the results
     * @throws IllegalArgumentException if it is not complete lab results JSON of this version
     */
    public static Results fromJson(String json, String where) {
        Results r;
        try {
            r = mapper().readValue(json, Results.class);
        } catch (com.fasterxml.jackson.core.JacksonException e) {
            throw new IllegalArgumentException(where + ": not lab results JSON: "
                    + e.getOriginalMessage().lines().findFirst().orElse(""));
        }
        if (r == null || !SCHEMA.equals(r.schema())) {
            throw new IllegalArgumentException(where + ": not a " + SCHEMA + " file (schema is "
                    + (r == null ? null : r.schema()) + ")");
        }
        if (r.version() != VERSION) {
            throw new IllegalArgumentException(where + ": results version " + r.version() + ", this lab reads version "
                    + VERSION);
        }
        ResultsCheck.missing(r).ifPresent(f -> {
            throw new IllegalArgumentException(where + ": field '" + f + "' is missing; the report needs it");
        });
        return r;
    }
}
