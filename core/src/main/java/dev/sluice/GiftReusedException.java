package dev.sluice;

import java.io.IOException;

/**
 * A reader reached bytes that a writer had gifted to the pipe ({@link Splice#gift}), but the writer has
 * visibly reused its buffer since (moved its position back with {@code clear()}, {@code flip()},
 * {@code compact()} and the like), so the bytes may have been overwritten.
 *
 * <p>The pipe drops the affected slot (at most one page of the gift per read) and throws this to the reader,
 * rather than deliver bytes it cannot vouch for. It is a bug in the writer: a gift must not be touched
 * until it has been read. Detection is best effort: writes through another view of the same memory, or a
 * reuse that puts the position back where it was, cannot be seen.
 */
public class GiftReusedException extends IOException {
    private static final long serialVersionUID = 1L;

    /**
     * Makes the exception a read ends with when the gift first in line was reused by its giver.
     *
     * @param message what was found
     */
    public GiftReusedException(String message) {
        super(message);
    }
}
