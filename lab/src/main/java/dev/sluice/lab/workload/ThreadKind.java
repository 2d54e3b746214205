package dev.sluice.lab.workload;

import java.util.Locale;

/** Which threads a workload's tasks run on. */
public enum ThreadKind {
    PLATFORM, VIRTUAL;

    public String alias() {
        return name().toLowerCase(Locale.ROOT);
    }

    public Thread.Builder builder(String name) {
        return this == PLATFORM ? Thread.ofPlatform().name(name).daemon(true) : Thread.ofVirtual().name(name);
    }

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
