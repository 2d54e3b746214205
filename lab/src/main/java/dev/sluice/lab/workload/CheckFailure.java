package dev.sluice.lab.workload;

/** A workload's self-check found wrong data (or a run that could not finish): no figure is reported. */
public final class CheckFailure extends RuntimeException {
    /**
     * A failed check.
     *
     * @param message what was wrong
     */
    public CheckFailure(String message) {
        super(message);
    }

    /**
     * A failed check and its cause.
     *
     * @param message what was wrong
     * @param cause   the failure behind it
     */
    public CheckFailure(String message, Throwable cause) {
        super(message, cause);
    }
}
