package dev.sluice;

import java.util.StringJoiner;

/**
 * What a non-blocking call on an end would find now: the {@code poll(2)} bits of a pipe.
 *
 * <ul>
 *   <li>{@link #readable()} ({@code POLLIN}): at least one byte is queued;</li>
 *   <li>{@link #hungUp()} ({@code POLLHUP}, read end): every write end is closed, so once the queued
 *       bytes are read, a read returns end-of-stream;</li>
 *   <li>{@link #writable()} ({@code POLLOUT}): a whole page slot is free. Linux's rule: spare room in the
 *       last page, which a small write could merge into, does not count, so an end can be "not writable"
 *       while a 1-byte write would still succeed;</li>
 *   <li>{@link #error()} ({@code POLLERR}, write end): every read end is closed, so a write fails with
 *       {@link BrokenPipeException};</li>
 *   <li>{@link #invalid()} ({@code POLLNVAL}): this handle is closed.</li>
 * </ul>
 * Instances are shared constants; comparing with {@code equals} or the getters is safe.
 */
public final class Readiness {
    static final int IN = 1;
    static final int OUT = 2;
    static final int HUP = 4;
    static final int ERR = 8;
    static final int NVAL = 16;

    private static final Readiness[] ALL = new Readiness[32];

    static {
        for (int i = 0; i < ALL.length; i++) {
            ALL[i] = new Readiness(i);
        }
    }

    private final int bits;

    private Readiness(int bits) {
        this.bits = bits;
    }

    static Readiness of(int bits) {
        return ALL[bits];
    }

    /**
     * The readiness a Linux {@code poll(2)} result describes, the inverse of {@link #linuxPollMask()}: for
     * pipes that are polled by the kernel (the {@code sluice-kernel} module). {@code POLLIN} or
     * {@code POLLRDNORM} read as readable, {@code POLLOUT} or {@code POLLWRNORM} as writable; other bits
     * are ignored.
     *
     * @param mask the {@code revents} of a {@code struct pollfd}
     * @return the shared constant for those bits
     */
    public static Readiness ofLinuxPollMask(int mask) {
        int bits = 0;
        if ((mask & (0x001 | 0x040)) != 0) {
            bits |= IN;
        }
        if ((mask & (0x004 | 0x100)) != 0) {
            bits |= OUT;
        }
        if ((mask & 0x008) != 0) {
            bits |= ERR;
        }
        if ((mask & 0x010) != 0) {
            bits |= HUP;
        }
        if ((mask & 0x020) != 0) {
            bits |= NVAL;
        }
        return ALL[bits];
    }

    /** {@return whether a read would return data without blocking} */
    public boolean readable() {
        return (bits & IN) != 0;
    }

    /** {@return whether a write of up to a page would not block} */
    public boolean writable() {
        return (bits & OUT) != 0;
    }

    /** {@return whether every write end is closed (read ends only)} */
    public boolean hungUp() {
        return (bits & HUP) != 0;
    }

    /** {@return whether every read end is closed (write ends only)} */
    public boolean error() {
        return (bits & ERR) != 0;
    }

    /** {@return whether the handle polled is closed} */
    public boolean invalid() {
        return (bits & NVAL) != 0;
    }

    /**
     * The bits as Linux's {@code pipe_poll} reports them: {@code POLLIN | POLLRDNORM} (0x41) when readable,
     * {@code POLLOUT | POLLWRNORM} (0x104) when writable, {@code POLLERR} (0x8), {@code POLLHUP} (0x10),
     * {@code POLLNVAL} (0x20).
     *
     * @return the poll mask
     */
    public int linuxPollMask() {
        int m = 0;
        if (readable()) {
            m |= 0x001 | 0x040;
        }
        if (writable()) {
            m |= 0x004 | 0x100;
        }
        if (error()) {
            m |= 0x008;
        }
        if (hungUp()) {
            m |= 0x010;
        }
        if (invalid()) {
            m |= 0x020;
        }
        return m;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof Readiness r && r.bits == bits;
    }

    @Override
    public int hashCode() {
        return bits;
    }

    @Override
    public String toString() {
        StringJoiner j = new StringJoiner(", ", "Readiness[", "]");
        if (readable()) {
            j.add("IN");
        }
        if (writable()) {
            j.add("OUT");
        }
        if (hungUp()) {
            j.add("HUP");
        }
        if (error()) {
            j.add("ERR");
        }
        if (invalid()) {
            j.add("NVAL");
        }
        return j.toString();
    }
}
