package dev.sluice.shm;

import java.io.IOException;

/**
 * A shared mapping that is not a pipe this library can use: the wrong magic, version or sizes, a file of the
 * wrong size or owner, or shared state that a peer left inconsistent (an index outside the ring, a length
 * longer than a page, a count below zero). Nothing outside the mapping was read or written; the pipe should
 * be abandoned.
 */
public class ShmPipeFormatException extends IOException {
    private static final long serialVersionUID = 1L;

    /**
     * @param message what is wrong, and with which file
     */
    public ShmPipeFormatException(String message) {
        super(message);
    }
}
