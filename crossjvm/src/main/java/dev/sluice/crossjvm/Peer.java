package dev.sluice.crossjvm;

import dev.sluice.PipeOptions;
import dev.sluice.kernel.KernelPipe;
import dev.sluice.kernel.KernelProcess;
import dev.sluice.kernel.KernelProcessBuilder;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/**
 * A peer in a child JVM, seen from the parent: a {@link Link} to a child that plays a {@link Role} over a
 * {@link Transport}.
 *
 * <pre>{@code
 * try (Peer p = Peer.start(Transport.SHM, Role.ECHO)) {      // the child has said hello when this returns
 *     p.write(token, 0, 1);
 *     p.readFully(token, 0, 1);
 * }                                                          // end-of-stream to the child; it exits
 * }</pre>
 *
 * <p>The child is the same {@code java} as this JVM ({@code java.home}) with this JVM's class path, started through
 * {@link KernelProcess}; it gets {@code -Xmx256m -XX:+UseSerialGC}, native access, what Agrona needs, this JVM's
 * {@code -Dsluice.*} properties, and the words of {@code -Dsluice.crossjvm.childJvmArgs}. Its descriptor
 * {@value #LIFELINE_FD} is the read end of a pipe whose write end only this object holds: when this JVM exits or
 * is killed, or {@link #close()} runs, the child reads end-of-stream there and halts, so it never outlives its
 * parent.
 */
public final class Peer implements Link {
    /** The child's descriptor of the lifeline. */
    public static final int LIFELINE_FD = 3;
    static final byte HELLO = 0x5A;
    static final int RESULT_BYTES = 16;
    private static final long START_TIMEOUT_SECONDS = 60;
    private static final long EXIT_WAIT_SECONDS = 10;

    private final Transport transport;
    private final Role role;
    private final KernelProcess child;
    private final KernelPipe lifeline;
    private final Wiring wiring;
    private Link link;
    private long sent;
    private boolean outputClosed;
    private boolean closed;
    private volatile boolean joined;

    private Peer(Transport transport, Role role, KernelProcess child, KernelPipe lifeline, Wiring wiring) {
        this.transport = transport;
        this.role = role;
        this.child = child;
        this.lifeline = lifeline;
        this.wiring = wiring;
    }

    /**
     * Starts a child with the transport's default sizes.
     *
     * @param transport how to exchange bytes
     * @param role      what the child does
     * @return the peer, once the child has joined and said hello
     * @throws IOException if the child cannot be started or does not join (the message says how it ended)
     */
    public static Peer start(Transport transport, Role role) throws IOException {
        return start(transport, role, 0);
    }

    /**
     * Starts a child.
     *
     * @param transport how to exchange bytes
     * @param role      what the child does
     * @param capacity  bytes of each pipe for {@link Transport#SHM} and {@link Transport#KERNEL}; 0 for the
     *                  default, 64 KiB (ignored by the socket and the ring)
     * @return the peer, once the child has joined and said hello
     * @throws IOException if the child cannot be started or does not join (the message says how it ended)
     */
    public static Peer start(Transport transport, Role role, int capacity) throws IOException {
        Wiring w = transport.wiring(capacity);
        KernelPipe lifeline = null;
        Peer p = null;
        try {
            lifeline = KernelPipe.open();
            KernelProcessBuilder b = KernelProcess.command(command(transport, role, w.args())).inheritIO()
                    .fd(LIFELINE_FD, lifeline.reader());
            w.prepare(b);
            p = new Peer(transport, role, b.start(), lifeline, w);
            p.child.onExit().thenRun(w::childGone);
            CompletableFuture.delayedExecutor(START_TIMEOUT_SECONDS, TimeUnit.SECONDS).execute(p::killIfNotJoined);
            p.link = w.connect(p.child);
            byte[] hello = new byte[1];
            if (!p.link.readFully(hello, 0, 1) || hello[0] != HELLO) {
                throw new IOException("no hello from the child");
            }
            p.joined = true;
            w.joined();
            return p;
        } catch (IOException | RuntimeException e) {
            String how = p == null ? "" : p.abort();
            w.discard();
            if (lifeline != null) {
                lifeline.writer().close();
                lifeline.reader().close();
            }
            throw new IOException("cannot start a " + transport.id() + " peer" + how + ": " + e.getMessage(), e);
        }
    }

    private void killIfNotJoined() {
        if (!joined) {
            child.destroyForcibly(); // its exit ends the parent's wait (end-of-stream, or childGone)
        }
    }

    /** Kills the child of a failed start, and says how it ended. */
    private String abort() {
        child.destroyForcibly();
        if (link != null) {
            link.close();
        }
        try {
            child.waitFor(EXIT_WAIT_SECONDS, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        return child.isAlive() ? " (pid " + child.pid() + ")" : " (pid " + child.pid() + ", exit " + child.exitValue()
                + ")";
    }

    static List<String> command(Transport t, Role role, List<String> args) {
        List<String> cmd = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Xmx256m", "-XX:+UseSerialGC", "--enable-native-access=ALL-UNNAMED",
                "--sun-misc-unsafe-memory-access=allow", "--add-exports=java.base/jdk.internal.misc=ALL-UNNAMED"));
        for (Map.Entry<Object, Object> e : System.getProperties().entrySet()) {
            String k = e.getKey().toString();
            if (k.startsWith("sluice.") && !k.equals("sluice.crossjvm.childJvmArgs")) {
                cmd.add("-D" + k + "=" + e.getValue());
            }
        }
        for (String a : System.getProperty("sluice.crossjvm.childJvmArgs", "").trim().split("\\s+")) {
            if (!a.isEmpty()) {
                cmd.add(a);
            }
        }
        cmd.addAll(List.of("-cp", System.getProperty("java.class.path"), PeerMain.class.getName(), t.id(),
                role.name().toLowerCase(Locale.ROOT)));
        cmd.addAll(args);
        return cmd;
    }

    static PipeOptions pipeOptions(int capacity) {
        if (capacity <= 0) {
            return PipeOptions.defaults();
        }
        return PipeOptions.builder().maxCapacity(Math.max(capacity, PipeOptions.DEFAULT_MAX_CAPACITY))
                .capacity(capacity).build();
    }

    /** {@return the transport} */
    public Transport transport() {
        return transport;
    }

    /** {@return the child's role} */
    public Role role() {
        return role;
    }

    /** {@return the child's process id} */
    public long pid() {
        return child.pid();
    }

    /** {@return the CPU time the child has used so far, in nanoseconds ({@link Cpu#processNanos}), -1 once gone} */
    public long childCpuNanos() {
        return Cpu.processNanos(child.pid());
    }

    /** {@return bytes written to the child so far} */
    public long sent() {
        return sent;
    }

    @Override
    public int read(byte[] b, int off, int len) throws IOException {
        return link.read(b, off, len);
    }

    @Override
    public void write(byte[] b, int off, int len) throws IOException {
        link.write(b, off, len);
        sent += len;
    }

    @Override
    public void closeOutput() throws IOException {
        if (!outputClosed) {
            outputClosed = true;
            link.closeOutput();
        }
    }

    /**
     * Ends the stream to a {@link Role#SINK} child and waits for its verdict.
     *
     * @return the bytes the child read, equal to {@link #sent()}
     * @throws IOException if the child found a wrong byte, read another count than was sent, or ended without a
     *                     verdict
     */
    public long finish() throws IOException {
        if (role != Role.SINK) {
            throw new IllegalStateException("finish() is for a sink, not a " + role + " peer");
        }
        closeOutput();
        byte[] r = new byte[RESULT_BYTES];
        if (!link.readFully(r, 0, r.length)) {
            throw new IOException("the " + transport.id() + " sink child ended without a count");
        }
        ByteBuffer bb = ByteBuffer.wrap(r);
        long got = bb.getLong();
        long wrong = bb.getLong();
        if (wrong >= 0) {
            throw new IOException("the " + transport.id() + " sink child read a wrong byte at stream offset " + wrong);
        }
        if (got != sent) {
            throw new IOException("the " + transport.id() + " sink child read " + got + " bytes of " + sent + " sent");
        }
        return got;
    }

    /**
     * Ends the stream to the child, waits a little for it to exit (it does at end-of-stream) or kills it, and
     * closes the link and the lifeline. Idempotent.
     */
    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        try {
            closeOutput();
            if (!child.waitFor(EXIT_WAIT_SECONDS, TimeUnit.SECONDS)) {
                child.destroyForcibly();
            }
        } catch (IOException e) {
            child.destroyForcibly(); // the child is gone or stuck: it goes now
        } catch (InterruptedException e) {
            child.destroyForcibly();
            Thread.currentThread().interrupt();
        } finally {
            link.close();
            lifeline.writer().close();
            lifeline.reader().close();
            wiring.discard();
        }
    }

    @Override
    public String toString() {
        return "Peer[" + transport.id() + ", " + role.name().toLowerCase(Locale.ROOT) + ", pid " + child.pid() + "]";
    }
}
