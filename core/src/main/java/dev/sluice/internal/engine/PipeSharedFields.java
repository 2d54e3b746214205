package dev.sluice.internal.engine;

/**
 * The fields of {@link PipeCore} that waiting threads read without the lock, padded away from the engine's
 * own fields, which the lock holder writes on every call (counters, times). Same reasoning and pattern as
 * {@code dev.sluice.internal.ring.RingIndexFields}; {@code RingLayoutTest} checks both layouts with JOL.
 *
 * <p>Written only by {@link PipeCore}, under its lock; private here so that nothing else can.
 */
abstract class PipeSharedFields extends PipePadBefore {
    /** Open handles per side; read without the lock by waiters and poll. */
    private volatile int readers;
    private volatile int writers;
    /** Set once anybody polls; from then on every write wakes a reader (Linux {@code poll_usage}). */
    private volatile boolean pollUsed;
    /**
     * Set while a transfer to a channel writes the pages at the ring's tail without the lock: they stay
     * queued until the channel has taken them, so no other read, splice, tee or transfer may start (see
     * {@code TransferToCall}). Writers are not affected.
     */
    private volatile boolean readHeld;
    /**
     * Set by a batching platform reader for the length of its nap ({@code PipeCore#napForBatch}): while it is
     * set, writes hold back the reader's wake-up until a batch is queued. Here rather than among the engine's
     * own fields because every write reads it and the reader writes it twice a nap: beside fields written on
     * every call, each write would miss on it.
     */
    private volatile boolean napping;

    final int readers() {
        return readers;
    }

    final int writers() {
        return writers;
    }

    final boolean pollUsed() {
        return pollUsed;
    }

    final boolean readHeld() {
        return readHeld;
    }

    final boolean napping() {
        return napping;
    }

    final void setNapping(boolean on) {
        napping = on;
    }

    final void setReaders(int n) {
        readers = n;
    }

    final void setWriters(int n) {
        writers = n;
    }

    final void markPolled() {
        if (!pollUsed) {
            pollUsed = true; // a volatile store only the first time
        }
    }

    final void setReadHeld(boolean held) {
        readHeld = held;
    }
}

/** Keeps the object header and neighbours off the shared fields' cache line. */
@SuppressWarnings("unused")
abstract class PipePadBefore {
    private byte p00, p01, p02, p03, p04, p05, p06, p07, p08, p09, p10, p11, p12, p13, p14, p15;
    private byte p16, p17, p18, p19, p20, p21, p22, p23, p24, p25, p26, p27, p28, p29, p30, p31;
    private byte p32, p33, p34, p35, p36, p37, p38, p39, p40, p41, p42, p43, p44, p45, p46, p47;
    private byte p48, p49, p50, p51, p52, p53, p54, p55, p56, p57, p58, p59, p60, p61, p62, p63;
}

/** Keeps {@link PipeCore}'s own fields, written on every call, off the shared fields' cache line. */
@SuppressWarnings("unused")
abstract class PipePadAfter extends PipeSharedFields {
    private byte q00, q01, q02, q03, q04, q05, q06, q07, q08, q09, q10, q11, q12, q13, q14, q15;
    private byte q16, q17, q18, q19, q20, q21, q22, q23, q24, q25, q26, q27, q28, q29, q30, q31;
    private byte q32, q33, q34, q35, q36, q37, q38, q39, q40, q41, q42, q43, q44, q45, q46, q47;
    private byte q48, q49, q50, q51, q52, q53, q54, q55, q56, q57, q58, q59, q60, q61, q62, q63;
}
