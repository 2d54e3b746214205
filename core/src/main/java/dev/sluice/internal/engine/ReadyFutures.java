package dev.sluice.internal.engine;

import dev.sluice.Readiness;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.locks.ReentrantLock;

/**
 * A pipe's pending readiness futures ({@code PipeEnd#whenReady}), the analogue of the kernel's
 * {@code fasync} list: completed after the state change that makes their end ready, outside every lock.
 *
 * <p>Rarely used, so they have their own small lock and a volatile count that lets every read and write
 * skip them with one load. A future leaves as soon as it is done, whoever completed it: fired here, or
 * cancelled, or completed by its holder (an {@code orTimeout} that expired, say); so abandoned futures
 * that were cancelled cost nothing, and registering one costs the same however many are pending (a doubly
 * linked list: no rescan, no search to remove).
 */
final class ReadyFutures {
    /** One pending future; unlinked exactly once, by whichever comes first: a firing or its own completion. */
    private static final class Node {
        final InProcessEnd end;
        final CompletableFuture<Readiness> future;
        Node prev;
        Node next;
        boolean linked;
        /** The readiness a firing found, for the completion after the lock. */
        Readiness value;

        Node(InProcessEnd end, CompletableFuture<Readiness> future) {
            this.end = end;
            this.future = future;
        }
    }

    private final ReentrantLock lock = new ReentrantLock();
    private Node first;
    private Node last;
    /** Linked nodes; read without the lock so that a state change with nobody listening pays one load. */
    private volatile int count;

    boolean isEmpty() {
        return count == 0;
    }

    int size() {
        return count;
    }

    /**
     * A future for {@code end}'s readiness: complete at once if ready now, else pending until a state change
     * makes it ready ({@link #fire}), or until it is completed or cancelled by its holder.
     */
    CompletableFuture<Readiness> add(InProcessEnd end, PipeCore pipe) {
        CompletableFuture<Readiness> f = new CompletableFuture<>();
        Readiness now = pipe.readinessOf(end);
        if (isReady(end, now)) {
            f.complete(now);
            return f;
        }
        Node n = new Node(end, f);
        link(n); // volatile count written: the waiter's half; the changer writes the state, then reads count
        f.whenComplete((value, failure) -> unlink(n)); // whoever completes it, it leaves the list
        Readiness again = pipe.readinessOf(end); // a change between the first look and the link
        if (isReady(end, again) && unlink(n)) {
            f.complete(again);
        }
        return f;
    }

    /** Completes the futures whose end is ready now. */
    void fire(PipeCore pipe) {
        Node due = null;
        lock.lock();
        try {
            for (Node n = first; n != null; ) {
                Node next = n.next;
                Readiness r = pipe.readinessOf(n.end);
                if (isReady(n.end, r)) {
                    remove(n);
                    n.next = due; // reuse the link: the node is off the list now
                    due = n;
                    n.value = r;
                }
                n = next;
            }
        } finally {
            lock.unlock();
        }
        // Completed outside every lock: callbacks run on this thread and may call into the pipe. Each future
        // gets the readiness that was found ready, not a fresh look: an earlier callback may have drained it.
        for (Node n = due; n != null; ) {
            Node next = n.next;
            n.future.complete(n.value);
            n = next;
        }
    }

    private static boolean isReady(InProcessEnd end, Readiness r) {
        if (r.invalid()) {
            return true;
        }
        return end instanceof InProcessReadEnd ? r.readable() || r.hungUp() : r.writable() || r.error();
    }

    private void link(Node n) {
        lock.lock();
        try {
            n.prev = last;
            if (last == null) {
                first = n;
            } else {
                last.next = n;
            }
            last = n;
            n.linked = true;
            count++;
        } finally {
            lock.unlock();
        }
    }

    /** @return whether this call took {@code n} off the list (false: a firing or an earlier call did) */
    private boolean unlink(Node n) {
        lock.lock();
        try {
            if (!n.linked) {
                return false;
            }
            remove(n);
            return true;
        } finally {
            lock.unlock();
        }
    }

    /** Takes a linked node off the list; lock held. */
    private void remove(Node n) {
        if (n.prev == null) {
            first = n.next;
        } else {
            n.prev.next = n.next;
        }
        if (n.next == null) {
            last = n.prev;
        } else {
            n.next.prev = n.prev;
        }
        n.prev = null;
        n.next = null;
        n.linked = false;
        count--;
    }
}
