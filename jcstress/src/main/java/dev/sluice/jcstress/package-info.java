/**
 * jcstress tests of Sluice's races: one outer class per subject, a nested {@code @JCStressTest} per race.
 *
 * <p>The pipe's own races, through the public API: the last close against a blocked writer
 * ({@link dev.sluice.jcstress.LastCloseVsBlockedWriter}), wake-up against park
 * ({@link dev.sluice.jcstress.WakeUpVsPark}), resize against write ({@link dev.sluice.jcstress.ResizeVsWrite})
 * and a bulk write against the last reader's close ({@link dev.sluice.jcstress.BulkWriteVsLastReaderClose}).
 *
 * <p>The engine's: the page pool's lock-free return stack ({@link dev.sluice.jcstress.PagePoolReturnStack})
 * and the reference counts of pages two pipes share ({@link dev.sluice.jcstress.PageRefCounts}), on the
 * internals, which the jar reaches on the class path; COALESCING's in-flight count against a close
 * ({@link dev.sluice.jcstress.CoalescingVsClose}) and splice's two locks against a close
 * ({@link dev.sluice.jcstress.SpliceLockingVsClose}), through the public API.
 *
 * <p>Tiers. {@code mvn -pl jcstress -am verify} (and {@code ./sluice test}) runs the quick tier: the pipe's
 * races in jcstress's {@code quick} mode over the full matrix of compilation modes, and the engine's (the POM's
 * {@code jcstress.short}) once each in a single C2 JVM ({@code -sc false -jvmArgs -XX:-TieredCompilation}),
 * where they still report every bug they were checked against. Naming a tier, {@code -Djcstress.mode=default}
 * or {@code tough}, runs every subject in that mode in full; so does
 * {@code java -jar jcstress/target/jcstress.jar -m default}.
 */
package dev.sluice.jcstress;
