package dev.sluice.lab.targets;

import java.io.IOException;

/**
 * The zero-copy calls of a target that has them: {@code tee(2)} into another pipe of the same target, and
 * {@code splice(2)} to {@code /dev/null}. The tee workload uses them where they exist, as stress-ng does, and
 * a plain-copy fallback elsewhere.
 */
public interface ZeroCopy {

    /**
     * Duplicates up to {@code max} queued bytes of this pipe into {@code to} without consuming them; waits
     * while this pipe is empty or {@code to} is full (a blocking tee).
     *
     * @param to  another pipe of the same target
     * @param max the most bytes to duplicate
     * @return bytes duplicated, -1 when this pipe is empty and its writers are gone
     * @throws IOException if the tee fails, for instance because {@code to}'s read side was closed
     * @throws IllegalArgumentException if {@code to} is a pipe of another target
     */
    long tee(PipeHandle to, long max) throws IOException;

    /**
     * Consumes up to {@code max} bytes of this pipe without copying them out ({@code splice} to
     * {@code /dev/null}).
     *
     * @param max the most bytes to consume
     * @return bytes consumed, -1 at end-of-stream
     * @throws IOException if the splice fails
     */
    long discard(long max) throws IOException;

    /** {@return how the calls are made, for the run's note (e.g. {@code Splice.tee + Splice.transferTo})} */
    String how();
}
