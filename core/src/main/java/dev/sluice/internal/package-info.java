/**
 * Sluice's internals. Nothing here is API: the module exports this package only to
 * {@code dev.sluice.kernel}, for what every pipe implementation shares (argument checks, the exceptions a
 * blocking call ends with, the deadline of a wait, the open file description and the handle base), and the
 * sub-packages to nobody:
 * <ul>
 *   <li>{@code engine}: the in-process pipe, its state ({@code PipeCore}), its one blocking protocol
 *       ({@code Blocking}) and the operations that run under it ({@code Call} and its subclasses);</li>
 *   <li>{@code ring}: the ring of page buffers and its page pool, a data structure with no threads in it;</li>
 *   <li>{@code sync}: the wait queues of a pipe's two sides, their spin budgets, and the locks.</li>
 * </ul>
 */
package dev.sluice.internal;
