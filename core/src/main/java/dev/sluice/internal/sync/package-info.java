/**
 * Waiting and waking: the wait queues of a pipe's two sides and the rule for when a reader wakes a
 * writer. Internal: not exported from the module.
 */
package dev.sluice.internal.sync;
