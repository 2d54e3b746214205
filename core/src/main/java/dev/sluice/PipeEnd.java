package dev.sluice;

import java.io.IOException;
import java.nio.channels.Channel;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;

/**
 * A handle on one side of a {@link Pipe}: the analogue of a file descriptor of {@code pipe(2)}.
 *
 * <p>Each handle has its own mode (blocking or not, timeout) and is closed on its own; a side of the pipe
 * stays open while any handle of it is open, so end-of-stream and broken pipe come when the <em>last</em>
 * handle of a side closes, whichever thread holds it. {@code dup()} on {@link ReadEnd} and
 * {@link WriteEnd} makes another handle, as {@code dup(2)} or {@code fork(2)} would. Unlike {@code dup(2)},
 * which shares {@code O_NONBLOCK} between the copies, a duplicate starts with a copy of the mode and then
 * goes its own way.
 *
 * <p>Sluice's in-process pipe ({@link Pipe#open()}) and the kernel pipes of the {@code sluice-kernel} module
 * implement this interface alike, and the same conformance suite checks both. Handles are safe to use from
 * many threads at once.
 */
public interface PipeEnd extends Channel {

    /** {@return the pipe this end belongs to} */
    Pipe pipe();

    /**
     * Sets {@code O_NONBLOCK} on this handle. Nonblocking, a read of an empty pipe returns 0 instead of
     * waiting, and a write to a full pipe stores what fits (all or nothing for at most
     * {@link Pipe#PIPE_BUF} bytes) and returns the count, possibly 0.
     *
     * @param on whether this handle is nonblocking
     */
    void setNonBlocking(boolean on);

    /** {@return whether this handle is nonblocking} */
    boolean isNonBlocking();

    /**
     * Bounds how long a blocking call on this handle may wait; a call that waits longer throws
     * {@link PipeTimeoutException}, reporting any bytes it moved. {@link Duration#ZERO} (the default) waits
     * forever. The time counts from when the call first has to wait.
     *
     * @param timeout the longest wait, or zero for none
     * @throws IllegalArgumentException if {@code timeout} is negative
     * @throws NullPointerException     if {@code timeout} is null
     */
    void setTimeout(Duration timeout);

    /** {@return the timeout set by {@link #setTimeout}, zero for none} */
    Duration timeout();

    /**
     * What a call on this handle would find now, without blocking ({@code poll(2)}). Like Linux, polling
     * marks the pipe as polled, after which every write wakes a waiting reader, as edge-triggered users
     * need.
     *
     * @return the current readiness; {@link Readiness#invalid()} if this handle is closed
     */
    Readiness poll();

    /**
     * A future that completes when this handle is ready: for a read end, when it is readable or hung up;
     * for a write end, when it is writable or every reader is gone; for either, when the handle is closed
     * ({@link Readiness#invalid()}). It completes at once if that is already so. Its value is the readiness
     * that was found ready; another thread may have changed the pipe since. One-shot: call again to wait for
     * the next change.
     *
     * <p>The future is completed on the thread that changed the pipe's state, outside the pipe's locks, so
     * dependent actions run there unless added with an {@code *Async} method; keep them short.
     *
     * @return the future readiness
     */
    CompletableFuture<Readiness> whenReady();

    /** {@return whether this handle is open} */
    @Override
    boolean isOpen();

    /**
     * Closes this handle. If it was the last of its side, the other side sees end-of-stream (after the
     * queued bytes) or broken pipe. Threads blocked in a call on this handle return at once: with
     * {@link java.nio.channels.AsynchronousCloseException} if they had moved nothing, else with their
     * partial count. Closing twice does nothing.
     */
    @Override
    void close();

    /**
     * Makes another handle on the same side; see the class documentation.
     *
     * @return the new handle, open
     * @throws IOException if this handle is closed
     */
    PipeEnd dup() throws IOException;
}
