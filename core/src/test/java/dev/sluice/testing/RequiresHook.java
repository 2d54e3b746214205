package dev.sluice.testing;

import java.util.Arrays;
import net.jqwik.api.lifecycle.LifecycleContext;
import net.jqwik.api.lifecycle.SkipExecutionHook;

/**
 * {@link Requires} for jqwik's property classes ({@code @AddLifecycleHook(RequiresHook.class)}): a property
 * class whose capabilities no pipe under test has is skipped, with the reason, instead of drawing from no pipes.
 */
public final class RequiresHook implements SkipExecutionHook {
    /** Creates the hook (jqwik does). */
    public RequiresHook() {
    }

    @Override
    public SkipResult shouldBeSkipped(LifecycleContext context) {
        Capability[] needs = context.optionalContainerClass().map(TestPipes::needs).orElse(new Capability[0]);
        return TestPipes.underTest(needs).isEmpty()
                ? SkipResult.skip("no pipe under test has " + Arrays.toString(needs))
                : SkipResult.doNotSkip();
    }
}
