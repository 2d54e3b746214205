package dev.sluice.lab.targets;

import java.util.Arrays;
import java.util.Locale;

/**
 * The kinds of pipe the lab runs, in the order tables show them, and the native reference run. Every target
 * belongs to one family; {@code --target} takes the aliases.
 */
public enum Family {
    /** Sluice's in-process pipe, one target per {@link SluiceVariant}. */
    SLUICE("sluice", "Sluice's in-process pipe; variants by --policy, --reader-wake, --wait, --lock, --timestamps, "
            + "--spin, --page-memory, --pool-pages, --capacity"),
    /** A Linux kernel pipe through the FFM module. */
    KERNEL("kernel", "Linux kernel pipe through FFM (module kernel)"),
    /** Sluice's shared-memory pipe to a peer in a child JVM ({@link CrossJvmTarget}). */
    SHM("shm", "Sluice's shared-memory pipe (sluice-shm) to a peer in a child JVM; pingpong and pipen only"),
    /** A kernel pipe to a peer in a child JVM ({@link CrossJvmTarget}). */
    KERNEL_JVM("kernel-jvm", "a Linux kernel pipe (KernelPipe) to a peer in a child JVM; pingpong and pipen only"),
    /** {@code java.nio.channels.Pipe}: a kernel pipe behind the JDK's channels. */
    NIO("nio", "java.nio.channels.Pipe (a kernel pipe behind the JDK's channels; fixed 64 KiB)"),
    /** {@code java.io.PipedInputStream} and {@code PipedOutputStream}. */
    JDK_PIPED("jdk-piped", "java.io.PipedInputStream/PipedOutputStream"),
    /** {@code okio.Pipe}. */
    OKIO("okio", "okio.Pipe (Okio 3), through its buffered source and sink"),
    /**
     * Not a pipe the lab opens but a reference run: {@code perf bench sched messaging} and {@code perf bench
     * sched pipe}, C threads on kernel pipes, for the workloads that have such a run (hackbench, pingpong).
     */
    PERF("perf", "perf bench sched messaging/pipe as native reference runs (hackbench, pingpong)");

    private final String alias;
    private final String description;

    Family(String alias, String description) {
        this.alias = alias;
        this.description = description;
    }

    /** {@return the name on the command line, in tables and in JSON} */
    public String alias() {
        return alias;
    }

    /** {@return one line for {@code lab list}} */
    public String description() {
        return description;
    }

    /** {@return whether this is a reference program run as it is rather than a pipe the workloads drive} */
    public boolean isReference() {
        return this == PERF;
    }

    /**
     * Reads a family's name from the command line.
     *
     * @param s a family's alias, case-insensitive ({@code piped} is accepted for {@code jdk-piped})
     * @return the family
     * @throws IllegalArgumentException naming the choices
     */
    public static Family parse(String s) {
        String t = s.trim().toLowerCase(Locale.ROOT);
        if (t.equals("piped")) {
            return JDK_PIPED;
        }
        for (Family f : values()) {
            if (f.alias.equals(t)) {
                return f;
            }
        }
        throw new IllegalArgumentException("--target: unknown target '" + s + "'; choose from " + choices());
    }

    /** {@return the aliases, comma-separated, for messages and help} */
    public static String choices() {
        return String.join(", ", Arrays.stream(values()).map(Family::alias).toList());
    }

    @Override
    public String toString() {
        return alias;
    }
}
