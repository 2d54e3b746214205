package dev.sluice.lab.command;

/** Every default of the lab's options in one place; the help quotes them through {@code ${DEFAULT-VALUE}}. */
public final class LabDefaults {
    private LabDefaults() {
    }

    /** Measured repetitions per case: five is the fewest that gives the bootstrap interval any meaning. */
    public static final String REPS = "5";
    /** Unmeasured runs per case first, for the JIT. */
    public static final String WARMUP = "1";
    /** The most repetitions accepted. */
    public static final int MAX_REPS = 1000;
    /** The most warm-up runs accepted. */
    public static final int MAX_WARMUP = 100;
    /** Targets of {@code run} (the baseline is added). */
    public static final String RUN_TARGETS = "sluice";
    /** Targets of {@code compare}. */
    public static final String COMPARE_TARGETS = "sluice,kernel,nio,jdk-piped,okio,perf";
    /** Thread kinds. */
    public static final String THREADS = "platform";
    /** The baselines tried in order when {@code --baseline} is not given. */
    public static final String BASELINE = "kernel, else nio";
}
