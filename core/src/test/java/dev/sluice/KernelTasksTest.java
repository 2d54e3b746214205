package dev.sluice;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/**
 * What {@link KernelTasks} counts as a thread asleep in the pipe: a sleep in a process-shared {@code futex}
 * call (the shared-memory pipe's), and not one in a private futex, where the JVM parks a thread stopped at a
 * safepoint. Counting those let a test believe a thread was asleep in the pipe while it was only passing a
 * safepoint. The lines are as Linux x86_64 writes them ({@code /proc/<pid>/task/<tid>/stat} and
 * {@code syscall}).
 */
class KernelTasksTest {
    private static final String SLEEPING = "4242 (conformance (1)) S 4200 4200 1 0 -1 4194624 12 0 0 0";
    private static final String RUNNING = "4242 (conformance (1)) R 4200 4200 1 0 -1 4194624 12 0 0 0";

    private static String futex(String op) {
        String number = System.getProperty("os.arch").equals("aarch64") ? "98" : "202";
        return number + " 0x7f12a4c01000 " + op + " 0x1 0x0 0x0 0x0 0x7ffd4b1e0a38 0x7f12a6a1b9a0\n";
    }

    @Test
    void aSleepInASharedFutexCounts() {
        assertThat(KernelTasks.sleepingInSharedFutex(SLEEPING, futex("0x0"))).isTrue(); // FUTEX_WAIT
        assertThat(KernelTasks.sleepingInSharedFutex(SLEEPING, futex("0x9"))).isTrue(); // FUTEX_WAIT_BITSET
    }

    @Test
    void aSleepInAPrivateFutexDoesNotCount() {
        assertThat(KernelTasks.sleepingInSharedFutex(SLEEPING, futex("0x80"))).isFalse(); // FUTEX_WAIT_PRIVATE
        assertThat(KernelTasks.sleepingInSharedFutex(SLEEPING, futex("0x89"))).isFalse(); // ..._BITSET_PRIVATE
    }

    @Test
    void aRunningTaskOrAnotherCallDoesNotCount() {
        assertThat(KernelTasks.sleepingInSharedFutex(RUNNING, futex("0x0"))).isFalse();
        assertThat(KernelTasks.sleepingInSharedFutex(SLEEPING, "7 0x7f12a4c01000 0x1 0xffffffff\n")).isFalse();
        assertThat(KernelTasks.sleepingInSharedFutex(SLEEPING, "running\n")).isFalse();
        assertThat(KernelTasks.sleepingInSharedFutex("", futex("0x0"))).isFalse();
    }
}
