package dev.sluice.model;

/**
 * One step of a generated sequence. Handles are chosen by index, modulo the number of handles the side
 * has had (closed ones included), so that every generated sequence is valid and shrinks well.
 */
sealed interface Op {
    /**
     * Write {@code size} bytes derived from {@code seed} through a write handle, as a byte array (shape 0),
     * a heap buffer (1), a direct buffer (2) or a gathering write of buffers split at seeded points (3).
     */
    record Write(int handle, int size, long seed, int shape) implements Op {
    }

    /** Read into a buffer of {@code size} bytes, through the same shapes as {@link Write}. */
    record Read(int handle, int size, int shape) implements Op {
    }

    /** {@code Pipe.setCapacity(bytes)}: the {@code int} overload when the size is one, else the {@code long}. */
    record SetCapacity(long bytes) implements Op {
    }

    /** Duplicate a handle of one side: another handle on its description. */
    record Dup(boolean reader, int handle) implements Op {
    }

    /** Reopen a handle of one side: another handle on a new description with a copy of the mode. */
    record Reopen(boolean reader, int handle) implements Op {
    }

    /** Close a handle of one side (closing twice does nothing). */
    record Close(boolean reader, int handle) implements Op {
    }

    /** Packet mode on or off for a write handle's description. */
    record SetPacketMode(int handle, boolean on) implements Op {
    }

    /** O_NONBLOCK on or off for a handle's description. */
    record SetNonBlocking(boolean reader, int handle, boolean on) implements Op {
    }

    /** FIONREAD through a read handle. */
    record Available(int handle) implements Op {
    }

    /** Ask for a readiness future on a handle; it is checked after every later step. */
    record WhenReady(boolean reader, int handle) implements Op {
    }

    /** {@code Pipe.resetCounters()}. */
    record ResetCounters() implements Op {
    }

    // ---- several pipes: the ops above address pipe 0, unless wrapped in On ----------------------------

    /** One of the ops above, on pipe {@code pipe} (modulo the number of pipes). */
    record On(int pipe, Op op) implements Op {
    }

    /**
     * {@code Splice.splice} ({@code tee == false}) or {@code Splice.tee} of up to {@code max} bytes from a read
     * handle of pipe {@code from} to a write handle of pipe {@code to} (the same pipe: EINVAL).
     */
    record SpliceTee(int from, int readHandle, int to, int writeHandle, long max, boolean tee) implements Op {
    }

    /**
     * {@code Splice.transferTo} of up to {@code max} bytes from a read handle of pipe {@code pipe} into a
     * collecting channel that takes at most {@code budget} bytes, a few at a time, and then fails.
     */
    record TransferTo(int pipe, int handle, long max, long budget) implements Op {
    }
}
