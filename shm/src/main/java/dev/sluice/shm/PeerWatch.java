package dev.sluice.shm;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * This JVM's watch for the death of the processes it shares pipes with, so that a side waiting on a peer killed
 * with -9 ends its wait (end-of-stream, broken pipe) without anyone looking for the dead now and then.
 *
 * <p>One daemon platform thread blocks in {@code poll(2)} on an eventfd and on a pidfd ({@code pidfd_open(2)})
 * per peer process named in the tables of the pipes it watches; a pidfd becomes readable when its process
 * exits, and the thread then has the dead process's entry reclaimed through each pipe that names it
 * ({@link ShmPipe#reapSoon}, on a thread of its own), which wakes every waiter. A pipe is watched from its first
 * sleep ({@link ShmPipe#checkPeers}) to its detach, and the thread ends, closing every descriptor it holds,
 * when no pipe is left. The eventfd tells it that its set of pipes changed, or that a table did: a process
 * that joins a pipe bumps the mapping's {@code PEERS} word and wakes every sleeper, whose next sleep, seeing
 * {@code PEERS} moved since the thread last read the table, asks it to read the table again.
 *
 * <p>A pidfd names the process the pid had when it was opened; the entry names a pid and a start time, so the
 * start time is compared once the pidfd is open: a pid already reused, or no process at all ({@code ESRCH}),
 * means the registered process is gone, and is reclaimed at once.
 *
 * <p>Where pidfds cannot be had ({@code ENOSYS} before Linux 5.3, {@code EPERM} from a seccomp filter), the
 * watch switches itself off for the life of the JVM; where one cannot be had for a moment ({@code EMFILE},
 * {@code ENOMEM}), that pipe goes unwatched until its table next changes. Either way the pipe
 * reports {@link ShmPipe#peersWatched()} false, and its waiters fall back to looking for dead peers each 100 ms
 * slice of their wait ({@link Control#scanPeers}).
 */
final class PeerWatch {
    static final PeerWatch INSTANCE = new PeerWatch();

    /** Cleared once {@code pidfd_open} or {@code eventfd} proves unusable in this JVM (or by a test). */
    private static volatile boolean available = Native.SUPPORTED;

    /** The pipes watched; guarded by {@code this}, as are the fields up to {@link #dirty}. */
    private final Set<ShmPipe> pipes = new LinkedHashSet<>();
    private Thread thread;
    private int eventFd = -1;
    /** Whether {@link #pipes} changed since the thread last copied it. */
    private boolean dirty;

    private PeerWatch() {
    }

    /**
     * Switches the watch off, as a kernel without {@code pidfd_open} would (pipes watched now fall back at the
     * thread's next look), or back on: for tests of the fallback.
     */
    static void available(boolean on) {
        available = on && Native.SUPPORTED;
    }

    /**
     * Has the watch read {@code p}'s process table again (and watch {@code p} from now on, if it did not):
     * {@code p} has a sleeper, and a process joined since the watch last read the table, or it never did.
     */
    void refresh(ShmPipe p) {
        if (!available) {
            return;
        }
        synchronized (this) {
            if (p.detached()) {
                return; // detach() has forgotten it, or will: a pipe added now would never be forgotten
            }
            pipes.add(p);
            dirty = true;
            if (thread != null) {
                Native.eventfdSignal(eventFd);
                return;
            }
            eventFd = Native.eventfd();
            if (eventFd < 0) {
                available = false;
                pipes.clear();
                return;
            }
            try {
                thread = Thread.ofPlatform().daemon(true).name("sluice-shm-peers").start(new Session(eventFd));
            } catch (OutOfMemoryError | RuntimeException e) {
                // No thread to be had: the caller, a sleeper, must not die of it; its pipe falls back to looking.
                Native.close(eventFd);
                eventFd = -1;
                available = false;
                pipes.clear();
            }
        }
    }

    /** Stops watching {@code p} (it has detached); the thread closes the pidfds no other pipe needs. */
    synchronized void forget(ShmPipe p) {
        if (pipes.remove(p) && thread != null) {
            dirty = true;
            Native.eventfdSignal(eventFd);
        }
    }

    /**
     * Ends the watch (closing the eventfd) if no pipe is left to watch; else copies the set of pipes if it
     * changed.
     *
     * @param watched the thread's copy
     * @return the copy to watch now, or null to end
     */
    private synchronized List<ShmPipe> copyPipes(List<ShmPipe> watched) {
        if (pipes.isEmpty()) {
            Native.close(eventFd);
            eventFd = -1;
            thread = null;
            return null;
        }
        if (dirty) {
            dirty = false;
            return List.copyOf(pipes);
        }
        return watched;
    }

    /** The watch cannot go on (pidfd_open refused, poll failed, a bug): every pipe falls back to its waiters' looks. */
    private void giveUp() {
        available = false;
        synchronized (this) {
            for (ShmPipe p : pipes) {
                p.peersLooked(Integer.MIN_VALUE, false);
            }
            pipes.clear();
            Native.close(eventFd);
            eventFd = -1;
            thread = null;
        }
    }

    /** One run of the watch's thread, from its start to the moment no pipe is left; its state is its own. */
    private final class Session implements Runnable {
        private final int fd;
        private final Map<Long, Integer> pidfds = new HashMap<>();
        private List<ShmPipe> watched = List.of();

        Session(int eventFd) {
            this.fd = eventFd;
        }

        @Override
        public void run() {
            try (Arena arena = Arena.ofConfined()) {
                // One pollfd per peer of at most 64 per pipe, plus the eventfd: grown when a rebuild needs more.
                MemorySegment polls = arena.allocate((long) Native.POLLFD_SIZE * 65, 8);
                while ((watched = copyPipes(watched)) != null) {
                    Map<Long, List<ShmPipe>> named = look();
                    if (!available) {
                        giveUp(); // pidfd_open is refused here: the waiters look for the dead themselves
                        return;
                    }
                    if ((long) Native.POLLFD_SIZE * (named.size() + 1) > polls.byteSize()) {
                        polls = arena.allocate((long) Native.POLLFD_SIZE * (named.size() + 65), 8);
                    }
                    long[] ids = fill(polls, fd, named);
                    int n = Native.poll(polls, ids.length + 1, -1);
                    if (n < 0 && n != -Native.EINTR) {
                        giveUp(); // EFAULT, EINVAL, ENOMEM: nothing this loop could fix
                        return;
                    }
                    if (readable(polls, 0)) {
                        Native.eventfdDrain(fd);
                    }
                    reapExited(polls, ids, named);
                }
            } catch (RuntimeException | Error e) {
                giveUp(); // a bug: better every pipe back on its waiters' own looks than trusting a dead watch
                throw e;
            } finally {
                closePidfds();
            }
        }

        /**
         * Reads the table of every watched pipe: opens a pidfd for each peer process not yet watched, closes those
         * of processes no table names any more, reclaims through the pipes naming a process already gone.
         *
         * @return the watched processes, and the pipes that name each
         */
        private Map<Long, List<ShmPipe>> look() {
            Map<Long, List<ShmPipe>> named = new HashMap<>();
            Set<ShmPipe> reap = new HashSet<>();
            for (ShmPipe p : watched) {
                lookAt(p, named, reap);
            }
            pidfds.entrySet().removeIf(e -> {
                if (named.containsKey(e.getKey())) {
                    return false;
                }
                Native.close(e.getValue());
                return true;
            });
            for (ShmPipe p : reap) {
                p.reapSoon();
            }
            return named;
        }

        private void lookAt(ShmPipe p, Map<Long, List<ShmPipe>> named, Set<ShmPipe> reap) {
            Region r = p.region;
            if (!r.acquire()) {
                return; // detached: forget() has been or is being called
            }
            try {
                int gen = r.getInt(Layout.PEERS); // before the entries: a process joining later moves it again
                boolean all = true;
                for (int i = 0; i < r.layout.procs; i++) {
                    long id = r.getLong(Layout.entry(i) + Layout.E_ID);
                    if (id == 0 || id == Procs.self()) {
                        continue;
                    }
                    int fd = pidfd(id);
                    if (fd >= 0) {
                        named.computeIfAbsent(id, k -> new ArrayList<>()).add(p);
                    } else if (fd == -Native.ESRCH) {
                        reap.add(p);
                    } else {
                        all = false;
                    }
                }
                p.peersLooked(gen, all);
            } finally {
                r.release();
            }
        }

        /**
         * @return the pidfd of the process {@code id} names, opened now if it was not already; {@code -ESRCH} if
         *         that process is gone (no such pid, another start time, a zombie); another {@code -errno} if
         *         none can be opened
         */
        private int pidfd(long id) {
            Integer have = pidfds.get(id);
            if (have != null) {
                return have;
            }
            int fd = Native.pidfdOpen(Procs.pid(id));
            if (fd == -Native.ENOSYS || fd == -Native.EPERM) {
                available = false; // no kernel support, or a seccomp filter: no later look would open any
                return fd;
            }
            if (fd < 0) {
                // EMFILE, ENOMEM; or EINVAL, the pid now a thread's of another process: the registered one is gone.
                return fd == -Native.ESRCH || !Procs.alive(id) ? -Native.ESRCH : fd;
            }
            // Opened first, compared second: if the start time matches now, the pidfd is the registered process's.
            if (Procs.idOf(Procs.pid(id)) != id) {
                Native.close(fd);
                return -Native.ESRCH;
            }
            pidfds.put(id, fd);
            return fd;
        }

        /** Fills the pollfds: the eventfd first, then a pidfd per process of {@code named}. @return their ids */
        private long[] fill(MemorySegment polls, int eventFd, Map<Long, List<ShmPipe>> named) {
            long[] ids = new long[named.size()];
            setPollfd(polls, 0, eventFd);
            int i = 0;
            for (Long id : named.keySet()) {
                ids[i] = id;
                setPollfd(polls, ++i, pidfds.get(id));
            }
            return ids;
        }

        private static void setPollfd(MemorySegment polls, int i, int fd) {
            long at = (long) i * Native.POLLFD_SIZE;
            polls.set(ValueLayout.JAVA_INT, at, fd);
            polls.set(ValueLayout.JAVA_SHORT, at + 4, Native.POLLIN);
            polls.set(ValueLayout.JAVA_SHORT, at + 6, (short) 0);
        }

        private static boolean readable(MemorySegment polls, int i) {
            return polls.get(ValueLayout.JAVA_SHORT, (long) i * Native.POLLFD_SIZE + 6) != 0;
        }

        /** Reclaims, through every pipe naming it, each process whose pidfd fired, and closes that pidfd. */
        private void reapExited(MemorySegment polls, long[] ids, Map<Long, List<ShmPipe>> named) {
            Set<ShmPipe> reap = new HashSet<>();
            for (int i = 0; i < ids.length; i++) {
                if (readable(polls, i + 1)) { // POLLIN (the process exited), or POLLHUP with it
                    reap.addAll(named.get(ids[i]));
                    Native.close(pidfds.remove(ids[i]));
                }
            }
            for (ShmPipe p : reap) {
                p.reapSoon();
            }
        }

        private void closePidfds() {
            for (int fd : pidfds.values()) {
                Native.close(fd);
            }
            pidfds.clear();
            watched = List.of();
        }
    }
}
