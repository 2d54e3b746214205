package dev.sluice.internal;

/**
 * An open file description, as far as a pipe looks at one: the two flags of {@code struct file}'s
 * {@code f_flags} that {@code pipe_read} and {@code pipe_write} test on every call, {@code O_NONBLOCK}
 * (blocking or not) and {@code O_DIRECT} (packet mode; only writes look at it). Handles made with
 * {@code dup()} share one, as descriptors made with {@code dup(2)} do, so a mode set through any of them holds
 * for all; {@code reopen()} makes a new one from a {@link #copy()}. What is not the description's stays with
 * the handle ({@link EndBase}): whether it is closed, and its timeout.
 *
 * <p>Both flags are read without a lock by calls deciding whether to wait and by writers choosing a slot's
 * flags, and written by any thread that holds a handle of the description, hence volatile. As on Linux, a
 * change is seen by the next such decision; a call already asleep is not woken by it.
 */
public final class Description {
    private volatile boolean nonBlocking;
    private volatile boolean packetMode;

    /**
     * @param nonBlocking whether the description starts nonblocking
     * @param packetMode  whether it starts in packet mode
     */
    public Description(boolean nonBlocking, boolean packetMode) {
        this.nonBlocking = nonBlocking;
        this.packetMode = packetMode;
    }

    /** @return a new description with this one's mode now ({@code open("/proc/self/fd/N")} and a copy) */
    public Description copy() {
        return new Description(nonBlocking, packetMode);
    }

    /** @return whether the description is nonblocking ({@code O_NONBLOCK}) */
    public boolean nonBlocking() {
        return nonBlocking;
    }

    /** @param on whether the description is nonblocking from now on */
    public void setNonBlocking(boolean on) {
        this.nonBlocking = on;
    }

    /** @return whether writes through the description are packets ({@code O_DIRECT}) */
    public boolean packetMode() {
        return packetMode;
    }

    /** @param on whether writes through the description are packets from now on */
    public void setPacketMode(boolean on) {
        this.packetMode = on;
    }
}
