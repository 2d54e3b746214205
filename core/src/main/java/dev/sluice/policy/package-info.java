/**
 * The choices the Linux kernel has made and unmade about pipes, as options: when a reader wakes a writer
 * ({@link dev.sluice.policy.WakePolicy}), when a writer wakes a reader
 * ({@link dev.sluice.policy.ReaderWakePolicy}), how many waiters one wake-up reaches
 * ({@link dev.sluice.policy.WaitDiscipline}) and what guards the ring ({@link dev.sluice.policy.LockStrategy}).
 * Each constant's documentation gives its origin and trade-off. Pick them with
 * {@link dev.sluice.PipeOptions.Builder}.
 */
package dev.sluice.policy;
