package dev.sluice.crossjvm;

import dev.sluice.kernel.KernelProcessBuilder;
import java.io.IOException;
import java.util.List;

/**
 * The parent's side of one transport while a child starts: what was made for it, what the child is told, what
 * is handed over, and how the parent's {@link Link} is made once the child runs. Each transport's class
 * ({@link ShmLinks}, {@link KernelLinks}, {@link UdsLinks}, {@link AgronaLinks}) holds this and the child's
 * {@code join}, so both sides of a transport are in one place.
 */
abstract class Wiring {
    /** {@return the child's arguments after the transport's and the role's names} */
    abstract List<String> args();

    /**
     * Adds what is handed over when the child starts (kernel pipe ends as descriptors).
     *
     * @param b the child's builder
     */
    void prepare(KernelProcessBuilder b) {
    }

    /**
     * Completes the connection once the child runs: hands handles over, accepts, or maps.
     *
     * @param child the child
     * @return the parent's link
     * @throws IOException if it cannot
     */
    abstract Link connect(Process child) throws IOException;

    /** The child said hello: it holds what it needs, so names on the file system can go. */
    void joined() {
    }

    /** The child exited: ends waits that would not notice by themselves (an accept, a polling loop). */
    void childGone() {
    }

    /** Releases what {@link #connect} has not given to a link, and deletes files; idempotent. */
    abstract void discard();
}
