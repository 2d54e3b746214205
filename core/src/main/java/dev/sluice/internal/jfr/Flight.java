package dev.sluice.internal.jfr;

/**
 * Sluice's JDK Flight Recorder events, seen from the engine: the one place that decides whether an event is
 * wanted. All events are off unless a recording enables them ({@code dev.sluice.*}, see {@link Events}), and
 * when off, each hook costs a load and a branch, on slow paths only (a wait, a wake-up that woke somebody, a
 * resize, a broken pipe). The engine never names a {@code jdk.jfr} type, so a runtime without the
 * {@code jdk.jfr} module (a jlinked image) runs the engine unchanged and simply records nothing.
 *
 * <p>Nothing of Flight Recorder is touched until Flight Recorder itself has started ({@link Recorder}): looking
 * up an event type starts JFR's machinery, which cost 140-300 ms on a cold JVM's first wait when it was done
 * unconditionally.
 */
public final class Flight {
    private static final boolean AVAILABLE = ModuleLayer.boot().findModule("jdk.jfr").isPresent();

    private Flight() {
    }

    /**
     * Before a wait: a started wait event if waits are being recorded, else null (nothing to end).
     *
     * @return what {@link #waitEnded} takes
     */
    public static Object waitBegins() {
        return AVAILABLE && Recorder.started() ? Events.waitBegins() : null;
    }

    /**
     * After a wait: records it if it was begun and lasted at least the recording's threshold.
     *
     * @param wait    what {@link #waitBegins} returned
     * @param pipe    the pipe's identity
     * @param forData whether a reader waited (for data), else a writer (for room)
     * @param op      the call: "read", "write", "splice", ...
     * @param outcome how the wait ended: "spun", "woken", "ready", "interrupted", "timed out", or "closed" (the
     *                call's own handle was closed meanwhile)
     * @param done    bytes the call had moved when it waited
     */
    public static void waitEnded(Object wait, long pipe, boolean forData, String op, String outcome, long done) {
        if (wait != null) {
            Events.waitEnded(wait, pipe, forData, op, outcome, done);
        }
    }

    /** A wake-up woke {@code n} threads (n &gt; 0) of a pipe's readers ({@code readers}) or writers. */
    public static void woke(long pipe, boolean readers, int n) {
        if (AVAILABLE && Recorder.started()) {
            Events.woke(pipe, readers, n, false);
        }
    }

    /** A woken thread found nothing to do and waits again. */
    public static void wokeForNothing(long pipe, boolean readers) {
        if (AVAILABLE && Recorder.started()) {
            Events.woke(pipe, readers, 1, true);
        }
    }

    /** A pipe's capacity changed from {@code from} to {@code to} bytes. */
    public static void capacityChanged(long pipe, int from, int to) {
        if (AVAILABLE && Recorder.started()) {
            Events.capacityChanged(pipe, from, to);
        }
    }

    /** A call found every read end closed after storing {@code done} bytes. */
    public static void brokenPipe(long pipe, String op, long done) {
        if (AVAILABLE && Recorder.started()) {
            Events.brokenPipe(pipe, op, done);
        }
    }
}
