package dev.sluice.kernel;

import static java.lang.foreign.ValueLayout.JAVA_LONG;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The one thread per JVM that sits in a blocking system call on behalf of every waiter: a platform daemon
 * thread in {@code epoll_wait(2)} over the descriptors that somebody is waiting on.
 *
 * <p>Registrations are one-shot ({@code EPOLLONESHOT}), armed by each waiter right before it parks
 * ({@link FdCell#park}); the poller never has to be woken to add one, because {@code epoll_ctl} may be
 * called from any thread while another is in {@code epoll_wait}. When epoll reports a descriptor, the
 * poller looks up its cell by a unique id (never by descriptor number, which may have been reused) and
 * unparks its waiters ({@link FdCell#fire}). An entry is deleted before its descriptor is closed
 * ({@link #forget}); an event already dequeued for a forgotten cell finds no id and is dropped.
 *
 * <p>Why one thread and not a {@code poll(2)} in each caller: a caller in {@code poll(2)} could not be
 * woken by an interrupt or by {@code close}, and a virtual thread would pin its carrier for the whole wait.
 */
final class Poller {
    private static final int MAX_EVENTS = 64;
    private static final ValueLayout.OfLong DATA = JAVA_LONG.withByteAlignment(1);

    private final int epfd;
    private final ConcurrentHashMap<Long, FdCell> cells = new ConcurrentHashMap<>();

    private static final class Holder {
        static final Poller INSTANCE = new Poller();
    }

    static Poller get() {
        return Holder.INSTANCE;
    }

    private Poller() {
        int fd = LibC.epollCreate();
        if (fd < 0) {
            throw new IllegalStateException("cannot start the kernel pipes' poller: epoll_create1 failed: "
                    + LibC.describe(-fd));
        }
        this.epfd = fd;
        Thread t = Thread.ofPlatform().daemon(true).name("sluice-kernel-poller").unstarted(this::run);
        t.start();
    }

    /** Arms (or re-arms) a one-shot registration of the cell; the caller holds a use of it. */
    void arm(FdCell c, int wanted) {
        int events = wanted | LibC.EPOLLONESHOT;
        if (!c.registered) {
            cells.put(c.id, c);
            int r = LibC.epollCtl(epfd, LibC.EPOLL_CTL_ADD, c.fd, events, c.id);
            if (r == 0 || r == -LibC.EEXIST) {
                c.registered = true;
                if (r == 0) {
                    return;
                }
            } else {
                throw new IllegalStateException("cannot wait for fd " + c.fd + " to become ready: "
                        + "epoll_ctl(EPOLL_CTL_ADD) failed: " + LibC.describe(-r));
            }
        }
        int r = LibC.epollCtl(epfd, LibC.EPOLL_CTL_MOD, c.fd, events, c.id);
        if (r == -LibC.ENOENT) {
            // Another thread saw registered=true before its ADD completed; ours is as good.
            r = LibC.epollCtl(epfd, LibC.EPOLL_CTL_ADD, c.fd, events, c.id);
            if (r == -LibC.EEXIST) {
                r = LibC.epollCtl(epfd, LibC.EPOLL_CTL_MOD, c.fd, events, c.id);
            }
        }
        if (r < 0) {
            throw new IllegalStateException("cannot wait for fd " + c.fd + " to become ready: "
                    + "epoll_ctl(EPOLL_CTL_MOD) failed: " + LibC.describe(-r));
        }
    }

    /** Removes the cell's registration; called once, right before its descriptor is closed. */
    void forget(FdCell c) {
        LibC.epollCtl(epfd, LibC.EPOLL_CTL_DEL, c.fd, 0, 0);
        cells.remove(c.id);
        c.registered = false;
    }

    private void run() {
        MemorySegment events = Arena.ofConfined().allocate((long) MAX_EVENTS * LibC.EPOLL_EVENT_SIZE, 8);
        for (;;) {
            int n = LibC.epollWait(epfd, events, MAX_EVENTS, -1);
            if (n < 0 && n != -LibC.EINTR) {
                // Cannot happen with a valid epoll descriptor; if it does, say so and do not spin.
                System.getLogger(Poller.class.getName()).log(System.Logger.Level.ERROR,
                        "epoll_wait failed: " + LibC.describe(-n));
                java.util.concurrent.locks.LockSupport.parkNanos(10_000_000);
            }
            for (int i = 0; i < n; i++) {
                long id = events.get(DATA, (long) i * LibC.EPOLL_EVENT_SIZE + LibC.EPOLL_EVENT_DATA);
                FdCell c = cells.get(id);
                if (c != null) {
                    try {
                        c.fire();
                    } catch (RuntimeException | Error e) {
                        // A waiter's callback must not kill the thread every other waiter depends on.
                        System.getLogger(Poller.class.getName()).log(System.Logger.Level.ERROR,
                                "readiness callback failed", e);
                    }
                }
            }
        }
    }
}
