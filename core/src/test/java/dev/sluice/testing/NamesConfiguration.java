package dev.sluice.testing;

import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.TestExecutionExceptionHandler;

/**
 * Puts the pipe configuration in front of a contract test's failure message, so that a report that names
 * the test by its position among the configurations ({@code Rule02MergeTest[7]}) still says which one failed.
 */
final class NamesConfiguration implements TestExecutionExceptionHandler {
    @Override
    public void handleTestExecutionException(ExtensionContext context, Throwable thrown) throws Throwable {
        Object test = context.getRequiredTestInstance();
        if (!(test instanceof PipeContract contract) || contract.pipes == null
                || thrown instanceof org.opentest4j.TestAbortedException) {
            throw thrown;
        }
        AssertionError named = new AssertionError("[" + contract.pipes.name() + "] " + thrown, thrown);
        named.setStackTrace(new StackTraceElement[0]); // the cause has the stack
        throw named;
    }
}
