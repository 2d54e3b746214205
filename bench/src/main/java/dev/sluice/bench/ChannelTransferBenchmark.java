package dev.sluice.bench;

import dev.sluice.PageMemory;
import dev.sluice.Pipe;
import dev.sluice.PipeOptions;
import dev.sluice.Splice;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.StandardSocketOptions;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Arrays;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * A Sluice pipe to and from a file and a socket with {@link Splice#transferTo} and {@link Splice#transferFrom},
 * with the pipe's pages on the heap or in direct memory ({@code pages}). Heap pages cost the JDK one copy into
 * its temporary direct buffer on the way to the system call; direct pages go to it as they are. One thread,
 * one {@code chunk} per operation:
 * <ul>
 *   <li>{@code toFile}: write the chunk into the pipe from a {@code byte[]}, transfer it to a file (at
 *       position 0, in the page cache);</li>
 *   <li>{@code fromFile}: transfer the chunk from a file into the pipe, read it out into a {@code byte[]};</li>
 *   <li>{@code toSocket}: write the chunk into the pipe, transfer it to a loopback TCP socket, receive it at the
 *       other end into a direct buffer;</li>
 *   <li>{@code fromSocket}: send the chunk from a direct buffer over the socket, transfer it from the socket into
 *       the pipe, read it out into a {@code byte[]}.</li>
 * </ul>
 * So each operation also pays one copy between the pipe and a {@code byte[]} (or the socket's far end), the
 * same for both kinds of page except that the array copy is to or from direct memory for direct pages. Every
 * step checks its count; the bytes are compared with the chunk at the end of each iteration.
 *
 * <p>Run: {@code java -jar bench/target/benchmarks.jar ChannelTransferBenchmark -f 1 -wi 3 -i 10 -r 500ms}
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 1, jvmArgsPrepend = {"-Xmx1g"})
public class ChannelTransferBenchmark {
    /** Where the pipe's pages live: {@code heap} or {@code direct} ({@link PageMemory}). */
    @Param({"heap", "direct"})
    public String pages;

    /** Bytes each operation moves through the pipe. */
    @Param({"4096", "65536"})
    public int chunk;

    private Pipe pipe;
    private byte[] data;
    private byte[] sink;
    private Path dir;
    private FileChannel file;
    private FileChannel source;
    private ServerSocketChannel server;
    private SocketChannel client;
    private SocketChannel accepted;
    private ByteBuffer received;
    private ByteBuffer outgoing;

    /** Run by JMH. */
    public ChannelTransferBenchmark() {
    }

    /**
     * Opens the pipe (128 KiB), the two files in a temporary folder and a connected loopback socket pair.
     *
     * @throws IOException if a file, the pipe or the sockets cannot be opened
     */
    @Setup(Level.Trial)
    public void setUp() throws IOException {
        PageMemory memory = PageMemory.valueOf(pages.toUpperCase(java.util.Locale.ROOT));
        pipe = Pipe.open(PipeOptions.builder().capacity(128 * 1024).pageMemory(memory).build());
        data = new byte[chunk];
        new SplittableRandom(7).nextBytes(data);
        sink = new byte[chunk];
        dir = Files.createTempDirectory("sluice-transfer-bench");
        file = FileChannel.open(dir.resolve("out"), StandardOpenOption.CREATE, StandardOpenOption.READ,
                StandardOpenOption.WRITE);
        Path in = dir.resolve("in");
        Files.write(in, data);
        source = FileChannel.open(in, StandardOpenOption.READ);
        server = ServerSocketChannel.open().bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
        client = SocketChannel.open(server.getLocalAddress());
        accepted = server.accept();
        for (SocketChannel s : new SocketChannel[] {client, accepted}) {
            // Room for a whole chunk in flight, so a blocking send never waits for the receiver, which is us.
            s.setOption(StandardSocketOptions.SO_SNDBUF, 1 << 20);
            s.setOption(StandardSocketOptions.SO_RCVBUF, 1 << 20);
            s.setOption(StandardSocketOptions.TCP_NODELAY, true);
        }
        received = ByteBuffer.allocateDirect(chunk);
        outgoing = ByteBuffer.allocateDirect(chunk).put(data).flip();
    }

    /**
     * Closes the pipe, the files and the sockets, and deletes the temporary folder.
     *
     * @throws IOException if closing or deleting fails
     */
    @TearDown(Level.Trial)
    public void tearDown() throws IOException {
        pipe.writer().close();
        pipe.reader().close();
        for (var c : new java.nio.channels.Channel[] {file, source, client, accepted, server}) {
            c.close();
        }
        Files.deleteIfExists(dir.resolve("out"));
        Files.deleteIfExists(dir.resolve("in"));
        Files.deleteIfExists(dir);
    }

    /**
     * Writes the chunk into the pipe and transfers it to the file.
     *
     * @return the bytes transferred
     * @throws IOException if the pipe or the file fails
     */
    @Benchmark
    public long toFile() throws IOException {
        pipe.writer().write(data);
        file.position(0);
        return check(Splice.transferTo(pipe.reader(), file, chunk));
    }

    /**
     * Transfers the chunk from the file into the pipe and reads it out.
     *
     * @return the bytes read from the pipe
     * @throws IOException if the pipe or the file fails
     */
    @Benchmark
    public int fromFile() throws IOException {
        source.position(0);
        for (long moved = 0; moved < chunk; ) {
            moved += positive(Splice.transferFrom(source, pipe.writer(), chunk - moved));
        }
        return readAll();
    }

    /**
     * Writes the chunk into the pipe, transfers it to the socket and receives it at the other end.
     *
     * @return the bytes received
     * @throws IOException if the pipe or the socket fails
     */
    @Benchmark
    public int toSocket() throws IOException {
        pipe.writer().write(data);
        check(Splice.transferTo(pipe.reader(), client, chunk));
        received.clear();
        while (received.hasRemaining()) {
            positive(accepted.read(received));
        }
        return received.position();
    }

    /**
     * Sends the chunk over the socket, transfers it from the socket into the pipe and reads it out.
     *
     * @return the bytes read from the pipe
     * @throws IOException if the pipe or the socket fails
     */
    @Benchmark
    public int fromSocket() throws IOException {
        outgoing.clear();
        while (outgoing.hasRemaining()) {
            accepted.write(outgoing);
        }
        for (long moved = 0; moved < chunk; ) { // TCP may hand the chunk over in parts
            moved += positive(Splice.transferFrom(client, pipe.writer(), chunk - moved));
        }
        return readAll();
    }

    /**
     * The bytes themselves, once an iteration: what each benchmark moved last must be the chunk.
     *
     * @throws IOException if the file cannot be read back
     * @throws IllegalStateException if bytes are left in the pipe or what was moved differs from the chunk
     */
    @TearDown(Level.Iteration)
    public void verify() throws IOException {
        if (pipe.stat().bytesQueued() != 0) {
            throw new IllegalStateException(pipe.stat().bytesQueued() + " bytes left in the pipe");
        }
        ByteBuffer f = ByteBuffer.allocate(chunk);
        file.read(f, 0);
        byte[] got = new byte[chunk];
        received.duplicate().flip().get(got, 0, Math.min(chunk, received.position()));
        boolean toFileRan = f.position() == chunk;
        boolean toSocketRan = received.position() == chunk;
        boolean fromRan = !Arrays.equals(sink, new byte[chunk]);
        if (toFileRan && !Arrays.equals(f.array(), data) || toSocketRan && !Arrays.equals(got, data)
                || fromRan && !Arrays.equals(sink, data)) {
            throw new IllegalStateException("the bytes moved differ from the chunk");
        }
    }

    private int readAll() throws IOException {
        int got = 0;
        while (got < chunk) {
            got += positive(pipe.reader().read(sink, got, chunk - got));
        }
        return got;
    }

    private long check(long moved) {
        if (moved != chunk) {
            throw new IllegalStateException("moved " + moved + " of " + chunk);
        }
        return moved;
    }

    private static long positive(long n) {
        if (n <= 0) {
            throw new IllegalStateException("a blocking call moved " + n);
        }
        return n;
    }

    private static int positive(int n) {
        return (int) positive((long) n);
    }
}
