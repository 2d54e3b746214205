package dev.sluice;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Collections;
import java.util.Map;
import java.util.WeakHashMap;

/**
 * The Linux task of each platform thread the conformance tests start, so that a test can see a thread asleep in
 * a {@code futex} system call (the shared-memory pipe's {@code FUTEX_WAIT}), which Java shows as RUNNABLE.
 * Elsewhere than Linux nothing is known and no RUNNABLE thread counts as asleep.
 */
final class KernelTasks {
    private static final Path SELF = Path.of("/proc/thread-self");
    /** The futex system call's number: x86_64 202, aarch64 98, followed by its arguments. */
    private static final String FUTEX = System.getProperty("os.arch").equals("aarch64") ? "98 " : "202 ";
    private static final Map<Thread, Path> TASKS = Collections.synchronizedMap(new WeakHashMap<>());

    private KernelTasks() {
    }

    /** Records the calling thread's task, if Linux tells it. */
    static void register() {
        try {
            // "<pid>/task/<tid>", relative to /proc
            TASKS.put(Thread.currentThread(), Path.of("/proc").resolve(Files.readSymbolicLink(SELF)));
        } catch (IOException | UnsupportedOperationException e) {
            // not Linux: only parked threads count as asleep
        }
    }

    /** @return whether {@code t}'s task sleeps (state {@code S}) inside the {@code futex} system call now */
    static boolean sleeping(Thread t) {
        Path task = TASKS.get(t);
        if (task == null) {
            return false;
        }
        try {
            String stat = Files.readString(task.resolve("stat"));
            int end = stat.lastIndexOf(')'); // the name may hold spaces and parentheses
            boolean s = end > 0 && end + 2 < stat.length() && stat.charAt(end + 2) == 'S';
            return s && Files.readString(task.resolve("syscall")).startsWith(FUTEX);
        } catch (IOException e) {
            return false; // the task ended
        }
    }
}
