/**
 * jcstress tests of Sluice's races: one outer class per subject, a nested {@code @JCStressTest} per race.
 *
 * <p>Through the public API: the last close against a blocked writer, wake-up against park, resize against
 * write, a bulk write against the last reader's close, COALESCING against a close ({@link
 * dev.sluice.jcstress.CoalescingVsClose}) and splice's two locks against a close ({@link
 * dev.sluice.jcstress.SpliceLockingVsClose}). On the internals, which the jar reaches on the class path: the
 * page pool's lock-free return stack ({@link dev.sluice.jcstress.PagePoolReturnStack}) and the reference
 * counts of pages two pipes share ({@link dev.sluice.jcstress.PageRefCounts}).
 *
 * <p>Tiers. {@code mvn -pl jcstress -am verify} (and {@code ./sluice test}) runs the quick tier: every subject
 * in jcstress's {@code quick} mode, except the two-actor races over the internals named by the POM's
 * {@code jcstress.short}, which it runs apart in one C2 JVM each ({@code -sc false -jvmArgs
 * -XX:-TieredCompilation}). Naming a tier, {@code -Djcstress.mode=default} or {@code tough}, runs every subject
 * in that mode in full; so does {@code java -jar jcstress/target/jcstress.jar -m default}.
 */
package dev.sluice.jcstress;
