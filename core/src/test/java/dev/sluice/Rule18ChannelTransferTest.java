package dev.sluice;

import static dev.sluice.ConformanceSupport.open;
import static dev.sluice.ConformanceSupport.pattern;
import static dev.sluice.ConformanceSupport.readFully;
import static dev.sluice.ConformanceSupport.readToEnd;
import static dev.sluice.ConformanceSupport.start;
import static dev.sluice.ConformanceSupport.thrownBy;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.sluice.ConformanceSupport.Running;
import dev.sluice.ConformanceSupport.ThreadKind;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.Channels;
import java.nio.channels.FileChannel;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Arrays;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Rule 18, transfers between a pipe and a byte channel (splice to and from files and sockets; linux-pipe.md
 * §5 "pipe → file", "file → pipe"): the pipe's pages go to the channel with no caller buffer in between,
 * and the channel's bytes land in pipe pages; waits, end-of-stream and broken pipe as reads and writes.
 */
@Timeout(value = 20, unit = TimeUnit.SECONDS)
class Rule18ChannelTransferTest {

    @TempDir
    Path dir;

    @Test
    void pipeToFileAndBackByteExact() throws Exception {
        Pipe p = open();
        byte[] data = pattern(40000);
        Path file = dir.resolve("out");
        Running<Void> writer = start(ThreadKind.VIRTUAL, () -> {
            p.writer().write(data, 0, 5);
            Splice.gift(p.writer(), ByteBuffer.allocateDirect(9000).put(data, 5, 9000).flip());
            p.writer().write(data, 9005, data.length - 9005);
            p.writer().close();
            return null;
        });
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.WRITE)) {
            long total = 0;
            for (long n; (n = Splice.transferTo(p.reader(), ch, 7000)) != -1; ) {
                assertThat(n).isBetween(1L, 7000L);
                total += n;
            }
            assertThat(total).isEqualTo(data.length);
        }
        writer.join();
        assertThat(Files.readAllBytes(file)).isEqualTo(data);

        Pipe q = open();
        Running<byte[]> reader = start(ThreadKind.PLATFORM, () -> readToEnd(q.reader()));
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.READ)) {
            long total = 0;
            for (long n; (n = Splice.transferFrom(ch, q.writer(), 10000)) != -1; ) {
                total += n;
            }
            assertThat(total).isEqualTo(data.length);
        }
        q.writer().close();
        assertThat(reader.join()).isEqualTo(data);
    }

    @Test
    void pipeToSocketAndSocketToPipe() throws Exception {
        try (ServerSocketChannel server = ServerSocketChannel.open()) {
            server.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
            try (SocketChannel client = SocketChannel.open(server.getLocalAddress());
                 SocketChannel accepted = server.accept()) {
                Pipe in = open();
                Pipe out = open();
                byte[] data = pattern(100_000);
                Running<Void> feeder = start(ThreadKind.VIRTUAL, () -> {
                    in.writer().write(data);
                    in.writer().close();
                    return null;
                });
                Running<Void> pump = start(ThreadKind.VIRTUAL, () -> { // socket -> pipe
                    while (Splice.transferFrom(accepted, out.writer(), 64 * 1024) != -1) {
                        // keep going until the client shuts its output
                    }
                    out.writer().close();
                    return null;
                });
                Running<byte[]> reader = start(ThreadKind.VIRTUAL, () -> readToEnd(out.reader()));
                while (Splice.transferTo(in.reader(), client, 64 * 1024) != -1) {
                    // pipe -> socket
                }
                client.shutdownOutput();
                feeder.join();
                pump.join();
                assertThat(reader.join()).isEqualTo(data);
            }
        }
    }

    @Test
    void transferToTakesWholeSlotsAndCutsOnlyAFirstOneTooBig() throws Exception {
        Pipe p = open();
        p.writer().write(pattern(5000)); // slots of 4096 and 904
        ByteArrayOutputStream sink = new ByteArrayOutputStream();
        var ch = Channels.newChannel(sink);
        assertThat(Splice.transferTo(p.reader(), ch, 100)).isEqualTo(100);
        assertThat(Splice.transferTo(p.reader(), ch, 4000)).as("the rest of the first slot").isEqualTo(3996);
        assertThat(Splice.transferTo(p.reader(), ch, 4000)).isEqualTo(904);
        assertThat(sink.toByteArray()).isEqualTo(pattern(5000));
        p.writer().write(pattern(3)); // the shared first page went back to the pool: still byte-exact
        assertThat(readFully(p.reader(), 3)).isEqualTo(pattern(3));
    }

    @Test
    void endOfStreamNonBlockingAndBrokenPipe() throws Exception {
        Pipe p = open();
        var sink = Channels.newChannel(new ByteArrayOutputStream());
        p.reader().setNonBlocking(true);
        assertThat(Splice.transferTo(p.reader(), sink, 10)).isZero();
        p.writer().close();
        assertThat(Splice.transferTo(p.reader(), sink, 10)).isEqualTo(-1);
        assertThat(Splice.transferTo(p.reader(), sink, 0)).isZero();

        Pipe q = open(PipeOptions.builder().capacity(4096).build());
        q.writer().write(pattern(1));
        q.writer().setNonBlocking(true);
        var source = Channels.newChannel(new ByteArrayInputStream(pattern(10)));
        assertThat(Splice.transferFrom(source, q.writer(), 10)).as("full: the channel is not touched").isZero();
        assertThat(source.read(ByteBuffer.allocate(10))).isEqualTo(10);

        Pipe r = open();
        r.reader().close();
        thrownBy(BrokenPipeException.class, () -> Splice.transferFrom(
                Channels.newChannel(new ByteArrayInputStream(pattern(10))), r.writer(), 10));
        assertThat(Splice.transferFrom(Channels.newChannel(new ByteArrayInputStream(new byte[0])), open().writer(), 10))
                .isEqualTo(-1);
    }

    @Test
    void badInputIsRefused() throws Exception {
        Pipe p = open();
        p.writer().write(pattern(10));
        try (var pipe = java.nio.channels.Pipe.open().sink()) {
            pipe.configureBlocking(false);
            assertThatThrownBy(() -> Splice.transferTo(p.reader(), pipe, 10))
                    .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("blocking");
        }
        assertThatThrownBy(() -> Splice.transferTo(p.reader(), null, 10)).isInstanceOf(NullPointerException.class);
        assertThatThrownBy(() -> Splice.transferTo(p.reader(), Channels.newChannel(new ByteArrayOutputStream()), -1))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> Splice.transferFrom(null, p.writer(), 10)).isInstanceOf(NullPointerException.class);
        assertThatThrownBy(() -> Splice.transferTo(Rule15SpliceTest.foreignReader(),
                Channels.newChannel(new ByteArrayOutputStream()), 1)).isInstanceOf(IllegalArgumentException.class);
        assertThat(Arrays.equals(readFully(p.reader(), 10), pattern(10))).isTrue();
    }
}
