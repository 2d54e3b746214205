package dev.sluice.lab.workload;

/** A workload's self-check found wrong data (or a run that could not finish): no figure is reported. */
public final class CheckFailure extends RuntimeException {
    public CheckFailure(String message) {
        super(message);
    }

    public CheckFailure(String message, Throwable cause) {
        super(message, cause);
    }
}
