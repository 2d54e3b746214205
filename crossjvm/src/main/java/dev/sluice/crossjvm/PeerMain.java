package dev.sluice.crossjvm;

import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;

/**
 * The child JVM's {@code main}, started by {@link Peer}: {@code PeerMain <transport> <role> <transport args...>}.
 * It first watches its lifeline (descriptor {@value Peer#LIFELINE_FD}, the read end of a pipe whose only write end
 * the parent holds) and halts when that reaches end-of-stream, whatever it is doing; then joins the transport,
 * says hello (one byte), and plays its {@link Role} until end-of-stream.
 */
public final class PeerMain {
    /** The exit status of a child whose parent went away (its lifeline reached end-of-stream). */
    public static final int ORPHANED = 3;
    private static final int BUFFER = 64 * 1024;

    private PeerMain() {
    }

    /**
     * Runs the child.
     *
     * @param args the transport's name, the role's name, and the transport's arguments
     * @throws IOException if the transport cannot be joined or fails
     */
    public static void main(String[] args) throws IOException {
        watchLifeline();
        Transport t = Transport.parse(args[0]);
        Role role = Role.valueOf(args[1].toUpperCase(Locale.ROOT));
        try (Link link = t.join(List.of(args).subList(2, args.length))) {
            link.write(new byte[] {Peer.HELLO}, 0, 1);
            switch (role) {
                case ECHO -> echo(link);
                case SINK -> sink(link);
                default -> throw new IllegalArgumentException(args[1]);
            }
        }
    }

    private static void watchLifeline() {
        Thread.ofPlatform().daemon().name("lifeline").start(() -> {
            try (InputStream in = Files.newInputStream(Path.of("/proc/self/fd/" + Peer.LIFELINE_FD))) {
                while (in.read() >= 0) {
                    // the parent never writes; end-of-stream is all that comes
                }
            } catch (IOException e) {
                System.err.println("sluice-crossjvm child: no lifeline: " + e);
            }
            Runtime.getRuntime().halt(ORPHANED);
        });
    }

    private static void echo(Link link) throws IOException {
        byte[] buf = new byte[BUFFER];
        for (int n; (n = link.read(buf, 0, buf.length)) >= 0; ) {
            link.write(buf, 0, n);
        }
        link.closeOutput();
    }

    private static void sink(Link link) throws IOException {
        byte[] buf = new byte[BUFFER];
        long pos = 0;
        long wrong = -1;
        for (int n; (n = link.read(buf, 0, buf.length)) >= 0; ) {
            if (wrong < 0) {
                int m = Pattern.mismatch(pos, buf, 0, n);
                if (m >= 0) {
                    wrong = pos + m;
                }
            }
            pos += n;
        }
        byte[] result = ByteBuffer.allocate(Peer.RESULT_BYTES).putLong(pos).putLong(wrong).array();
        link.write(result, 0, result.length);
        link.closeOutput();
    }
}
