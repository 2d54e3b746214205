package dev.sluice.crossjvm;

import java.util.Arrays;
import java.util.Locale;

/** How the parent and the child JVM exchange bytes. */
public enum Transport {
    /** Two {@code ShmPipe}s (memfd), handed to the child with {@code handOver}; both sides block. */
    SHM("shm", "two ShmPipes (memfd, 64 KiB unless asked), handed over; blocking: spin, then sleep in the futex"
            + " (a platform thread itself, a virtual one parked)"),
    /** Two {@code KernelPipe}s, the child's ends given to it as descriptors 4 and 5; both sides block. */
    KERNEL("kernel", "two kernel pipes (64 KiB unless asked): the parent through KernelPipe (parks in Java), the "
            + "child through FileChannel on its inherited descriptors (blocks in read/write)"),
    /** One {@code SocketChannel} over a Unix domain socket in a temporary directory; both sides block. */
    UDS("uds", "a Unix domain stream socket (SocketChannel, UnixDomainSocketAddress, default buffers); blocking"),
    /** Two Agrona {@code OneToOneRingBuffer}s in one file under /dev/shm: it polls and cannot block. */
    AGRONA("agrona", "two Agrona OneToOneRingBuffers (1 MiB each) in a /dev/shm file, a message per write, "
            + "BackoffIdleStrategy: POLLS (spins, yields, parks 1 µs to 1 ms), never blocks");

    private final String id;
    private final String how;

    Transport(String id, String how) {
        this.id = id;
        this.how = how;
    }

    /** {@return the name on command lines and in JMH parameters} */
    public String id() {
        return id;
    }

    /** {@return how this transport is set up and waits, for tables} */
    public String how() {
        return how;
    }

    /** {@return whether a waiting side sleeps until woken (false: it polls)} */
    public boolean blocks() {
        return this != AGRONA;
    }

    /**
     * Reads a transport's name.
     *
     * @param s {@link #id()}, case-insensitive
     * @return the transport
     * @throws IllegalArgumentException naming the choices
     */
    public static Transport parse(String s) {
        String t = s.trim().toLowerCase(Locale.ROOT);
        for (Transport x : values()) {
            if (x.id.equals(t)) {
                return x;
            }
        }
        throw new IllegalArgumentException("unknown transport '" + s + "'; choose from "
                + String.join(", ", Arrays.stream(values()).map(Transport::id).toList()));
    }

    Wiring wiring(int capacity) throws java.io.IOException {
        return switch (this) {
            case SHM -> ShmLinks.wiring(capacity);
            case KERNEL -> KernelLinks.wiring(capacity);
            case UDS -> UdsLinks.wiring();
            case AGRONA -> AgronaLinks.wiring();
        };
    }

    Link join(java.util.List<String> args) throws java.io.IOException {
        return switch (this) {
            case SHM -> ShmLinks.join(args);
            case KERNEL -> KernelLinks.join(args);
            case UDS -> UdsLinks.join(args);
            case AGRONA -> AgronaLinks.join(args);
        };
    }
}
