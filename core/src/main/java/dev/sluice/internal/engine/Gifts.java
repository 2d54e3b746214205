package dev.sluice.internal.engine;

import dev.sluice.GiftReusedException;
import dev.sluice.internal.ring.Page;
import dev.sluice.internal.ring.PipeBuffer;

/**
 * Slots whose bytes a writer gifted ({@link PipeBuffer#FLAG_GIFT}): a heap gift is read like a heap page, a
 * direct gift like a direct page ({@link Transfer}), with absolute bulk gets that neither use nor move the
 * giver's position. What is left here is the loud failure of a gift its giver reused.
 */
final class Gifts {
    private Gifts() {
    }

    static GiftReusedException reused(PipeBuffer buf) {
        Page p = buf.ref();
        return new GiftReusedException("a gifted buffer was reused by its writer before the pipe's reader got to"
                + " it (its position or limit moved back before the end of the gift); " + buf.length()
                + " bytes were dropped because they can no longer be trusted. A gift belongs to the pipe until"
                + " it has been read: give a fresh buffer each time, or use write() to have the bytes copied"
                + (p.direct() != null ? " (direct gift)" : " (heap gift)"));
    }
}
