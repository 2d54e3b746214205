package dev.sluice.crossjvm;

import java.io.IOException;
import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * {@link Transport#UDS}: one Unix domain stream socket. The parent listens on a path in a new temporary
 * directory (mode 0700), the child connects, the parent accepts and removes the path.
 */
final class UdsLinks {
    private UdsLinks() {
    }

    static Wiring wiring() throws IOException {
        Path dir = Files.createTempDirectory("sluice-crossjvm-");
        Path sock = dir.resolve("peer.sock");
        ServerSocketChannel server = ServerSocketChannel.open(StandardProtocolFamily.UNIX);
        try {
            server.bind(UnixDomainSocketAddress.of(sock));
        } catch (IOException | RuntimeException e) {
            server.close();
            Files.deleteIfExists(dir);
            throw e;
        }
        return new Wiring() {
            @Override
            List<String> args() {
                return List.of(sock.toString());
            }

            @Override
            Link connect(Process child) throws IOException {
                SocketChannel s = server.accept(); // a child that dies first closes the server (childGone)
                discard();
                return link(s);
            }

            @Override
            void childGone() {
                discard();
            }

            @Override
            void discard() {
                try {
                    server.close();
                    Files.deleteIfExists(sock);
                    Files.deleteIfExists(dir);
                } catch (IOException ignored) {
                    // a temporary directory left behind
                }
            }
        };
    }

    static Link join(List<String> args) throws IOException {
        return link(SocketChannel.open(UnixDomainSocketAddress.of(args.get(0))));
    }

    private static Link link(SocketChannel s) {
        return new ChannelLink(s, s, s::shutdownOutput);
    }
}
