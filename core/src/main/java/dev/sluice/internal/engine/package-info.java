/**
 * The in-process pipe. Where to start:
 * <ul>
 *   <li>{@link dev.sluice.internal.engine.PipeCore}: one pipe's state (private) and the operations on it, with
 *       the fast paths of a read and a write, each one pass under the lock;</li>
 *   <li>{@link dev.sluice.internal.engine.Blocking}: the one blocking protocol, everything between two
 *       attempts of any call (nonblocking check, interrupt, deadline, batons, unlock, wake-ups, readiness,
 *       await, relock, counting the wait, close);</li>
 *   <li>{@link dev.sluice.internal.engine.Call} and one subclass per operation, whose {@code step} is one
 *       attempt under the lock(s): {@code ReadCall}, {@code WriteCall}, {@code SpliceCall} (splice and tee),
 *       {@code GiftCall}, {@code TransferToCall}, {@code TransferFromCall};</li>
 *   <li>{@code SlotClaim}: the copies of bulk calls outside the lock; {@code Spares}: calls kept for reuse;
 *       {@code ReadyFutures}: readiness futures; the ends and {@link dev.sluice.internal.engine.InProcessPipe}.</li>
 * </ul>
 * Not exported from the module.
 */
package dev.sluice.internal.engine;
