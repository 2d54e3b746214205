package dev.sluice.internal.engine;

import dev.sluice.internal.ring.Page;
import java.nio.ByteBuffer;

/** Pages as {@link ByteBuffer}s for a channel, and what a channel left of them. */
final class ChannelViews {
    private ChannelViews() {
    }

    /**
     * A buffer whose remaining bytes are the {@code len} bytes of a page from {@code offset} (its position is not
     * necessarily 0: count what a channel moved by what remains). Direct memory goes to the channel as it is, a
     * slice of its own, because the page's buffer is shared by every thread reading the page and its position
     * must not move.
     */
    static ByteBuffer of(Page page, int offset, int len) {
        if (page.bytes() != null) {
            return ByteBuffer.wrap(page.bytes(), offset, len);
        }
        return page.direct().slice(offset, len);
    }

    /** @return the bytes left in {@code bufs[0..n)} */
    static long remaining(ByteBuffer[] bufs, int n) {
        long r = 0;
        for (int i = 0; i < n; i++) {
            r += bufs[i].remaining();
        }
        return r;
    }
}
