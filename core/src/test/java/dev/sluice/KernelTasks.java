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
 * Only a process-shared futex counts: the JVM's own waits (a thread stopped at a safepoint, a VM lock) sleep
 * in private ones ({@code FUTEX_PRIVATE_FLAG}), and such a thread is not asleep in the pipe. Elsewhere than
 * Linux nothing is known and no RUNNABLE thread counts as asleep.
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
            return sleepingInSharedFutex(stat, Files.readString(task.resolve("syscall")));
        } catch (IOException e) {
            return false; // the task ended
        }
    }

    /** {@code FUTEX_PRIVATE_FLAG}: set on the JVM's and glibc's own futex waits, never on a shared pipe's. */
    private static final long FUTEX_PRIVATE_FLAG = 128;

    /**
     * @param stat    a task's {@code stat} line
     * @param syscall its {@code syscall} line: the number, then the arguments in hex (address, operation, ...)
     * @return whether the task sleeps (state {@code S}) in a process-shared {@code futex} call
     */
    static boolean sleepingInSharedFutex(String stat, String syscall) {
        int end = stat.lastIndexOf(')'); // the name may hold spaces and parentheses
        if (end <= 0 || end + 2 >= stat.length() || stat.charAt(end + 2) != 'S' || !syscall.startsWith(FUTEX)) {
            return false;
        }
        String[] args = syscall.trim().split(" ");
        if (args.length < 3 || !args[2].startsWith("0x")) {
            return false;
        }
        try {
            return (Long.parseUnsignedLong(args[2].substring(2), 16) & FUTEX_PRIVATE_FLAG) == 0;
        } catch (NumberFormatException e) {
            return false;
        }
    }
}
