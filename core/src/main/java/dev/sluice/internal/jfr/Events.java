package dev.sluice.internal.jfr;

import jdk.jfr.Category;
import jdk.jfr.DataAmount;
import jdk.jfr.Description;
import jdk.jfr.Enabled;
import jdk.jfr.Event;
import jdk.jfr.EventType;
import jdk.jfr.Label;
import jdk.jfr.Name;
import jdk.jfr.StackTrace;
import jdk.jfr.Threshold;

/**
 * The event types, and the only class that names {@code jdk.jfr} ({@link Flight} loads it only where the
 * module exists). Every type is disabled by default; enable them in a recording's settings, e.g.
 * {@code jfr configure +dev.sluice.PipeWait#enabled=true} or {@code Recording.enable("dev.sluice.PipeWait")}.
 * Waits have a threshold of 10 µs by default, so a recording keeps the waits that cost something.
 */
final class Events {
    private static final EventType WAIT = EventType.getEventType(PipeWait.class);
    private static final EventType WAKEUP = EventType.getEventType(PipeWakeup.class);
    private static final EventType CAPACITY = EventType.getEventType(PipeCapacityChange.class);
    private static final EventType BROKEN = EventType.getEventType(PipeBroken.class);

    private Events() {
    }

    static Object waitBegins() {
        if (!WAIT.isEnabled()) {
            return null;
        }
        PipeWait e = new PipeWait();
        e.begin();
        return e;
    }

    static void waitEnded(Object wait, long pipe, boolean forData, String op, String outcome, long done) {
        PipeWait e = (PipeWait) wait;
        e.end();
        if (e.shouldCommit()) {
            e.pipe = pipe;
            e.side = forData ? "reader" : "writer";
            e.operation = op;
            e.outcome = outcome;
            e.bytesMoved = done;
            e.commit();
        }
    }

    static void woke(long pipe, boolean readers, int n, boolean forNothing) {
        if (WAKEUP.isEnabled()) {
            PipeWakeup e = new PipeWakeup();
            e.pipe = pipe;
            e.side = readers ? "reader" : "writer";
            e.threads = n;
            e.foundNothing = forNothing;
            e.commit();
        }
    }

    static void capacityChanged(long pipe, int from, int to) {
        if (CAPACITY.isEnabled()) {
            PipeCapacityChange e = new PipeCapacityChange();
            e.pipe = pipe;
            e.fromBytes = from;
            e.toBytes = to;
            e.commit();
        }
    }

    static void brokenPipe(long pipe, String op, long done) {
        if (BROKEN.isEnabled()) {
            PipeBroken e = new PipeBroken();
            e.pipe = pipe;
            e.operation = op;
            e.bytesMoved = done;
            e.commit();
        }
    }

    /** A thread waited in a pipe call: for data (a reader) or for room (a writer). */
    @Name("dev.sluice.PipeWait")
    @Label("Pipe Wait")
    @Category({"Sluice", "Pipe"})
    @Description("A call on an in-process pipe waited for data or room")
    @Enabled(false)
    @Threshold("10 us")
    @StackTrace(false)
    static final class PipeWait extends Event {
        @Label("Pipe")
        @Description("The pipe's identity within this JVM")
        long pipe;
        @Label("Side")
        String side;
        @Label("Operation")
        String operation;
        @Label("Outcome")
        @Description("spun, woken, ready, interrupted, timed out, or closed (the call's own handle)")
        String outcome;
        @Label("Bytes Moved")
        @Description("What the call had moved when it waited")
        @DataAmount
        long bytesMoved;
    }

    /** Threads of a pipe's side were woken, or a woken one found nothing to do. */
    @Name("dev.sluice.PipeWakeup")
    @Label("Pipe Wake-up")
    @Category({"Sluice", "Pipe"})
    @Description("Threads waiting on a pipe were woken, or a woken thread found nothing to do and waited again")
    @Enabled(false)
    @StackTrace(false)
    static final class PipeWakeup extends Event {
        @Label("Pipe")
        long pipe;
        @Label("Side")
        String side;
        @Label("Threads")
        int threads;
        @Label("Found Nothing")
        boolean foundNothing;
    }

    /** A pipe's capacity changed ({@code setCapacity}). */
    @Name("dev.sluice.PipeCapacityChange")
    @Label("Pipe Capacity Change")
    @Category({"Sluice", "Pipe"})
    @Enabled(false)
    static final class PipeCapacityChange extends Event {
        @Label("Pipe")
        long pipe;
        @Label("From")
        @DataAmount
        int fromBytes;
        @Label("To")
        @DataAmount
        int toBytes;
    }

    /** A call found every read end closed (EPIPE). */
    @Name("dev.sluice.PipeBroken")
    @Label("Broken Pipe")
    @Category({"Sluice", "Pipe"})
    @Enabled(false)
    static final class PipeBroken extends Event {
        @Label("Pipe")
        long pipe;
        @Label("Operation")
        String operation;
        @Label("Bytes Moved")
        @DataAmount
        long bytesMoved;
    }
}
