package dev.sluice;

import java.io.IOException;
import java.nio.channels.Channel;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;

/**
 * A handle on one side of a {@link Pipe}: the analogue of a file descriptor of {@code pipe(2)}.
 *
 * <p><b>Handles and descriptions.</b> As on Linux, where a file descriptor refers to an open file
 * description, a handle refers to a <em>description</em>, and the mode lives there: blocking or not
 * ({@code O_NONBLOCK}, {@link #setNonBlocking}) and packet mode ({@code O_DIRECT},
 * {@link WriteEnd#setPacketMode}). {@link #dup()} makes another handle on the same description, as
 * {@code dup(2)} or {@code fork(2)} would, so a mode set through either handle holds for both (and for every
 * other handle of that description). {@link #reopen()} makes a handle on a new description of the same side
 * of the pipe, as {@code open("/proc/self/fd/N")} does, starting with a copy of the mode, which then goes its
 * own way. {@link Pipe#open} makes two descriptions, one per side, as {@code pipe(2)} does.
 *
 * <p>The rest is the handle's own: it is closed on its own, and it has its own timeout (a Sluice addition;
 * Linux has none on pipes), which {@code dup()} and {@code reopen()} copy. A side of the pipe stays open
 * while any handle of it is open, so end-of-stream and broken pipe come when the <em>last</em> handle of a
 * side closes, whichever thread holds it; closing a handle leaves the other handles of its description open.
 *
 * <p>A mode change is seen by the next decision a call makes about waiting, on any handle of the
 * description; a call already waiting is not woken by it and waits on for data or room, as on Linux, where
 * {@code pipe_read} and {@code pipe_write} test {@code O_NONBLOCK} only before they sleep. A blocking write
 * that then finds the pipe full again returns its partial count.
 *
 * <p>Sluice's in-process pipe ({@link Pipe#open()}) and the kernel pipes of the {@code sluice-kernel} module
 * implement this interface alike, and the same conformance suite checks both. Handles are safe to use from
 * many threads at once.
 */
public interface PipeEnd extends Channel {

    /** {@return the pipe this end belongs to} */
    Pipe pipe();

    /**
     * Sets {@code O_NONBLOCK} on this handle's description, and so on every handle {@link #dup()} made from
     * it or from them ({@code fcntl(F_SETFL)}). Nonblocking, a read of an empty pipe returns 0 instead of
     * waiting, and a write to a full pipe stores what fits (all or nothing for at most
     * {@link Pipe#PIPE_BUF} bytes) and returns the count, possibly 0. A call already waiting is not woken
     * (see the class documentation). On a closed handle nothing changes (Linux: {@code EBADF}): it no
     * longer refers to the description.
     *
     * @param on whether the description is nonblocking
     */
    void setNonBlocking(boolean on);

    /** {@return whether this handle's description is nonblocking} */
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
     * Makes another handle on the same side and the same description, as {@code dup(2)} does: a mode set
     * through either holds for both. The new handle starts with a copy of this handle's timeout.
     *
     * @return the new handle, open
     * @throws IOException if this handle is closed ({@link java.nio.channels.ClosedChannelException}), or a
     *                     kernel pipe cannot have another descriptor
     */
    PipeEnd dup() throws IOException;

    /**
     * Makes another handle on the same side with a description of its own, as
     * {@code open("/proc/self/fd/N")} does on Linux: it starts with a copy of this handle's mode (blocking or
     * not, packet mode) and timeout, and a mode set through it, or through this handle, holds for its own
     * description only.
     *
     * @return the new handle, open
     * @throws IOException if this handle is closed ({@link java.nio.channels.ClosedChannelException}), or a
     *                     kernel pipe cannot have another descriptor
     */
    PipeEnd reopen() throws IOException;
}
