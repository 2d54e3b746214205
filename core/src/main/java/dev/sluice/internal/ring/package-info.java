/**
 * The ring of page buffers and its page pool: the data structure of a pipe, with no threads in it.
 * Internal: not exported from the module.
 */
package dev.sluice.internal.ring;
