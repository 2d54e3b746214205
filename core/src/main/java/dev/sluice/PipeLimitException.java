package dev.sluice;

/**
 * Shared page accounting refused a pipe or a larger capacity: the analogue of Linux failing
 * {@code pipe()} with {@code ENFILE} over {@code pipe-user-pages-hard}, or {@code F_SETPIPE_SZ} with
 * {@code EPERM} over the soft or hard limit. See {@link PipeAccounting}.
 */
public class PipeLimitException extends IllegalStateException {
    private static final long serialVersionUID = 1L;

    /**
     * Makes the exception an open or a resize ends with when a shared page account's limit is in the way.
     *
     * @param message which limit, and the numbers
     */
    public PipeLimitException(String message) {
        super(message);
    }
}
