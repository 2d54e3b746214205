package dev.sluice.shm;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;

/**
 * Who a process is, and whether it still lives: the identity stored in a process-table entry.
 *
 * <p>A pid alone is not an identity (pids are reused), so an entry holds the pid and the process's start time
 * ({@code /proc/<pid>/stat} field 22, clock ticks since boot): a process is alive while a process with that pid
 * exists, has that start time, and is neither a zombie nor dead ({@code Z}, {@code X}: a zombie has already
 * released its memory, so it can never write to the mapping again). Packed into one long,
 * {@code pid | start << 22}: Linux pids are below 2<sup>22</sup>, and 42 bits of ticks last centuries.
 *
 * <p>A pidfd does not replace the identity: it is opened by pid, so only the start time, compared after it is
 * open, says that it is the registered process's. {@link PeerWatch} does that once per peer, and then learns of
 * the death from the pidfd without asking; these checks serve the reclaim itself, the lock's dead-owner check,
 * and the waiters' own scans where there are no pidfds.
 */
final class Procs {
    private Procs() {
    }

    static final int PID_BITS = 22;
    static final long PID_MASK = (1L << PID_BITS) - 1;

    private static final class Self {
        static final int PID = (int) ProcessHandle.current().pid();
        static final long ID = idOf(PID);
        static final long PID_NS = readPidNamespace();
    }

    /** @return this process's identity, never 0 */
    static long self() {
        if (Self.ID == 0) {
            throw new IllegalStateException("cannot read /proc/self/stat: a shared-memory pipe needs /proc");
        }
        return Self.ID;
    }

    static int pid(long id) {
        return (int) (id & PID_MASK);
    }

    /** @return the pid namespace's inode number, from {@code /proc/self/ns/pid}, or 0 if unreadable */
    static long pidNamespace() {
        return Self.PID_NS;
    }

    private static long readPidNamespace() {
        try {
            String link = Files.readSymbolicLink(Path.of("/proc/self/ns/pid")).toString(); // "pid:[4026531836]"
            int a = link.indexOf('[');
            int b = link.indexOf(']');
            return a >= 0 && b > a ? Long.parseLong(link.substring(a + 1, b)) : 0;
        } catch (IOException | RuntimeException e) {
            return 0;
        }
    }

    /**
     * @param pid a process id
     * @return the identity of the process now running with that pid, or 0 if there is none (or it is a zombie)
     */
    static long idOf(long pid) {
        if (pid <= 0 || pid > PID_MASK) {
            return 0;
        }
        String stat = readStat((int) pid);
        if (stat == null) {
            return 0;
        }
        // The command name (field 2) is in parentheses and may itself hold spaces and parentheses: read after
        // the last ')'.
        int close = stat.lastIndexOf(')');
        if (close < 0) {
            return 0;
        }
        String[] f = stat.substring(close + 1).trim().split(" ");
        if (f.length < 20) {
            return 0;
        }
        char state = f[0].isEmpty() ? '?' : f[0].charAt(0);
        if (state == 'Z' || state == 'X' || state == 'x') {
            return 0;
        }
        long start;
        try {
            start = Long.parseLong(f[19]); // field 22, starttime; f[0] is field 3
        } catch (NumberFormatException e) {
            return 0;
        }
        return pid | ((start & ((1L << (64 - PID_BITS - 1)) - 1)) << PID_BITS);
    }

    /** @return whether the process an entry names is still running; this process always is */
    static boolean alive(long id) {
        if (id == 0) {
            return false;
        }
        if (id == Self.ID) {
            return true;
        }
        return idOf(pid(id)) == id;
    }

    /**
     * A cheap half of {@link #alive}: whether a process with the entry's pid exists at all ({@code kill(pid, 0)},
     * one system call, where {@link #alive} reads and parses {@code /proc/<pid>/stat}). A pid reused by a new
     * process passes this check; only {@link #alive} tells them apart.
     *
     * @return false if no process has the pid (or the entry is empty); true otherwise
     */
    static boolean pidExists(long id) {
        if (id == 0) {
            return false;
        }
        return id == Self.ID || Native.kill(pid(id), 0) != -Native.ESRCH;
    }

    private static String readStat(int pid) {
        try (InputStream in = Files.newInputStream(Path.of("/proc/" + pid + "/stat"))) {
            // Not Files.readString: procfs files report size 0, which the JDK may read as "1 byte".
            byte[] b = in.readNBytes(1024);
            return new String(b, StandardCharsets.US_ASCII);
        } catch (NoSuchFileException e) {
            return null;
        } catch (IOException e) {
            return null;
        }
    }

    static int selfPid() {
        return Self.PID;
    }
}
