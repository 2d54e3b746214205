package dev.sluice.bench;

import dev.sluice.crossjvm.Peer;
import dev.sluice.crossjvm.Role;
import dev.sluice.crossjvm.Transport;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;

/**
 * What the benchmarks between two JVMs share: a {@link Peer} in a child JVM for the whole trial (started with
 * this JVM's {@code java} and class path, the benchmarks jar), over the {@code transport} under test, and the
 * {@code busy} threads beside the benchmark in this JVM ({@link Busy}). {@code -prof dev.sluice.bench.CrossJvmCpu}
 * reports the CPU both JVMs use.
 */
@State(Scope.Benchmark)
public abstract class CrossJvmBase {
    /** {@code shm}, {@code kernel}, {@code uds} or {@code agrona} (polls), as {@link Transport} names them. */
    @Param({"shm", "kernel", "uds", "agrona"})
    public String transport;

    /** Busy threads beside the benchmark in this JVM: 0 for an idle machine, 2 for a busy one (two cores here). */
    @Param({"0", "2"})
    public int busy;

    /**
     * Bytes of each pipe for {@code shm} and {@code kernel}: 0 for their default, 64 KiB (the socket and the ring
     * ignore it; Agrona's rings are 1 MiB).
     */
    @Param({"0"})
    public int pipeCapacity;

    /** The child, started at set-up. */
    Peer peer;
    private Busy busyThreads;

    /** For the benchmarks. */
    protected CrossJvmBase() {
    }

    /** {@return what the child does} */
    abstract Role role();

    /**
     * Starts the child and the busy threads.
     *
     * @throws Exception if the child cannot be started
     */
    @Setup(Level.Trial)
    public void startPeer() throws Exception {
        peer = Peer.start(Transport.parse(transport), role(), pipeCapacity);
        busyThreads = Busy.start(busy);
    }

    /**
     * Stops the busy threads, lets the child check what it got ({@link #finish()}), and closes it.
     *
     * @throws Exception if the child's check fails
     */
    @TearDown(Level.Trial)
    public void stopPeer() throws Exception {
        CrossJvmCpu.childClosing(peer.pid(), peer.childCpuNanos());
        busyThreads.stop();
        try {
            finish();
        } finally {
            peer.close();
        }
    }

    /** Before the child is closed: a sink child's verdict on the stream. */
    void finish() throws Exception {
    }
}
