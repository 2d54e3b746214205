package dev.sluice.lab.targets;

import dev.sluice.crossjvm.Peer;
import dev.sluice.crossjvm.Role;
import dev.sluice.crossjvm.Transport;

import java.io.IOException;
import java.util.Optional;

/**
 * A pipe whose other side is a peer in a child JVM ({@link Peer} of the {@code crossjvm} module, the one the JMH
 * benchmarks use): {@code shm} (Sluice's shared-memory pipe) and {@code kernel-jvm} (a kernel pipe). The
 * workloads that have a cross-JVM form (pingpong: the child echoes; pipen: the child reads and checks every
 * byte) start a fresh child per run through {@link #start(Role)}; the others are "n/a" on it. The child is
 * started and warmed up (its JIT) before the timed section.
 */
public final class CrossJvmTarget implements Target {
    /**
     * How long a new child is warmed up: round trips of one byte (echo), or 4 KiB writes (sink), so that its JIT
     * has compiled its loop (C2 wants some 15 000 calls) before the timed section; 2 000 round trips or 16 MiB,
     * as before, were fewer calls than that.
     */
    static final long WARM_NANOS = 500_000_000L;

    private final Family family;
    private final Transport transport;

    private CrossJvmTarget(Family family, Transport transport) {
        this.family = family;
        this.transport = transport;
    }

    /** {@return the shared-memory pipe to a child JVM} */
    public static Target shm() {
        return new CrossJvmTarget(Family.SHM, Transport.SHM);
    }

    /** {@return a kernel pipe to a child JVM, or "n/a" where kernel pipes cannot be opened} */
    public static Target kernelJvm() {
        Target kernel = Targets.kernel();
        return kernel.unavailable().<Target>map(why -> new UnavailableTarget(Family.KERNEL_JVM, why))
                .orElseGet(() -> new CrossJvmTarget(Family.KERNEL_JVM, Transport.KERNEL));
    }

    @Override
    public Family family() {
        return family;
    }

    @Override
    public String id() {
        return family.alias();
    }

    @Override
    public Caps caps() {
        return Targets.KERNEL_CAPS;
    }

    @Override
    public String how(Traffic traffic) {
        return transport.how() + "; peer in a child JVM (crossjvm Peer), started and warmed up per run, untimed; "
                + "it echoes (pingpong) or reads 64 KiB at a time and checks every byte (pipen)";
    }

    @Override
    public Optional<String> unavailable() {
        return Optional.empty();
    }

    /** {@return why a workload without a cross-JVM form cannot run here} */
    public static String whyNot() {
        return "the peer runs in another JVM: only pingpong and pipen have that form";
    }

    /**
     * Not for these targets: the workloads that can run here call {@link #start(Role)}.
     *
     * @throws IOException always
     */
    @Override
    public PipeHandle open(Open spec) throws IOException {
        throw new IOException(whyNot());
    }

    /**
     * Starts a child in {@code role} and warms it up (its JIT, not this JVM's timed section).
     *
     * @param role what the child does
     * @return the peer, as a pipe handle whose reads and writes go to the child
     * @throws IOException if the child cannot be started or fails while warming up
     */
    public PeerHandle start(Role role) throws IOException {
        PeerHandle h = new PeerHandle(Peer.start(transport, role));
        try {
            h.warmUp();
        } catch (IOException | RuntimeException e) {
            h.close();
            throw e;
        }
        return h;
    }
}
