package dev.sluice.internal.engine;

import java.util.concurrent.atomic.AtomicReference;

/**
 * Spare {@link Call}s of one kind for one pipe, so that calls which wait or copy outside the lock allocate
 * nothing in steady state: a call is taken under the pipe's lock when it starts and given back, without the
 * lock, when it is done (after its copies outside the lock).
 *
 * <p>A lock-free stack with a single popper: {@link #take} runs only under the pipe's lock, so two pops never
 * race, and a push cannot remove anything; the stack's top can therefore not go from A back to A under a
 * popper's feet (no ABA). It holds as many calls as ever ran at once, which is bounded by the threads.
 *
 * @param <C> the kind of call
 */
final class Spares<C extends Call> {
    private final AtomicReference<C> top = new AtomicReference<>();

    /** With the pipe's lock held: a spare call, or null if none is left (the caller makes one). */
    @SuppressWarnings("unchecked")
    C take() {
        for (;;) {
            C c = top.get();
            if (c == null) {
                return null;
            }
            if (top.compareAndSet(c, (C) c.nextSpare)) {
                c.nextSpare = null;
                return c;
            }
        }
    }

    /** From any thread, without a lock: gives a call back once it is completely done. */
    void give(C c) {
        for (;;) {
            C t = top.get();
            c.nextSpare = t;
            if (top.compareAndSet(t, c)) { // release: publishes the call's reset state with it
                return;
            }
        }
    }
}
