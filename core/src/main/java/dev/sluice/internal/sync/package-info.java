/**
 * Waiting and locking: the wait queues of a pipe's two sides ({@code WaitQueue}: spin, then park; wake-ups as
 * the pipe's {@code WaitDiscipline} says), their spin budgets ({@code SpinBudget}), and the locks a
 * {@code LockStrategy} makes ({@code SpinningMutex}, {@code SpinLock}). Internal: exported to the shm module only,
 * whose waits between processes spin as the engine's do.
 */
package dev.sluice.internal.sync;
