package dev.sluice.lab.workload;

import java.util.Locale;

/** Which threads a workload's tasks run on. */
public enum ThreadKind {
    /** Platform threads (daemons, so that a stuck run cannot keep the JVM alive), one OS thread each. */
    PLATFORM,
    /** Virtual threads on the JDK's default scheduler. */
    VIRTUAL;

    /** {@return the name {@code --threads} and the tables use: {@code platform} or {@code virtual}} */
    public String alias() {
        return name().toLowerCase(Locale.ROOT);
    }

    /**
     * {@return a builder of threads of this kind}
     *
     * @param name the threads' name, for thread dumps
     */
    public Thread.Builder builder(String name) {
        return this == PLATFORM ? Thread.ofPlatform().name(name).daemon(true) : Thread.ofVirtual().name(name);
    }

    /**
     * {@return the kind of that alias}
     *
     * @param s {@code platform} or {@code virtual}, case-insensitive
     * @throws IllegalArgumentException naming {@code --threads} and the choices, for anything else
     */
    public static ThreadKind parse(String s) {
        for (ThreadKind k : values()) {
            if (k.alias().equalsIgnoreCase(s)) {
                return k;
            }
        }
        throw new IllegalArgumentException("--threads: must be platform, virtual or both, got '" + s + "'");
    }

    @Override
    public String toString() {
        return alias();
    }
}
