package dev.sluice.kernel;

import static java.lang.foreign.ValueLayout.JAVA_INT;

import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.file.OpenOption;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Set;

/**
 * A file or socket descriptor that this module opened itself, to splice to or from a kernel pipe
 * ({@link KernelSplice}).
 *
 * <p>Why not a {@link java.nio.channels.FileChannel} or {@link java.nio.channels.SocketChannel}: their
 * descriptors are not reachable through public APIs (only through {@code sun.nio.ch} internals or
 * reflection on {@code java.io.FileDescriptor}), and a {@code /proc/self/fd} re-open would make a new file
 * description with its own position. So {@link #open(Path, OpenOption...)} opens the file through
 * {@code open(2)} (always {@code O_CLOEXEC}), and {@link #socketPair()} makes a connected pair of Unix
 * sockets through {@code socketpair(2)} ({@code O_NONBLOCK}, waited on through the same poller as the
 * pipes). The descriptor is protected against reuse after {@link #close()} as the pipes' are.
 */
public final class KernelFile implements AutoCloseable {
    final FdCell cell;
    private final String what;
    final boolean socket;

    private KernelFile(int fd, String what, boolean socket) {
        this.cell = new FdCell(fd, LibC.EPOLLIN);
        this.what = what;
        this.socket = socket;
    }

    /**
     * Opens a file as {@link java.nio.channels.FileChannel#open(Path, OpenOption...)} would, with
     * {@code O_CLOEXEC}. Supported options: {@code READ}, {@code WRITE}, {@code APPEND}, {@code CREATE},
     * {@code CREATE_NEW}, {@code TRUNCATE_EXISTING}; no option means {@code READ}. New files get mode
     * 0666 less the umask.
     *
     * @param path    the file
     * @param options how to open it
     * @return the open file, positioned at its start (or end, with {@code APPEND})
     * @throws IOException                   if {@code open(2)} fails (the message names the errno)
     * @throws UnsupportedOperationException for other options, or if this is not Linux
     */
    public static KernelFile open(Path path, OpenOption... options) throws IOException {
        Platform.checkSupported();
        Set<OpenOption> o = Set.of(options);
        boolean read = o.contains(StandardOpenOption.READ);
        boolean write = o.contains(StandardOpenOption.WRITE) || o.contains(StandardOpenOption.APPEND);
        int flags = LibC.O_CLOEXEC | (write ? (read ? LibC.O_RDWR : LibC.O_WRONLY) : LibC.O_RDONLY);
        for (OpenOption opt : o) {
            if (opt == StandardOpenOption.APPEND) {
                flags |= LibC.O_APPEND;
            } else if (opt == StandardOpenOption.CREATE) {
                flags |= LibC.O_CREAT;
            } else if (opt == StandardOpenOption.CREATE_NEW) {
                flags |= LibC.O_CREAT | LibC.O_EXCL;
            } else if (opt == StandardOpenOption.TRUNCATE_EXISTING) {
                flags |= LibC.O_TRUNC;
            } else if (opt != StandardOpenOption.READ && opt != StandardOpenOption.WRITE) {
                throw new UnsupportedOperationException("KernelFile.open does not support " + opt);
            }
        }
        int fd;
        try (Arena arena = Arena.ofConfined()) {
            fd = LibC.open(arena.allocateFrom(path.toString()), flags, 0666);
        }
        if (fd < 0) {
            throw new IOException("KernelFile.open: open(" + path + ") failed: " + LibC.describe(-fd));
        }
        return new KernelFile(fd, path.toString(), false);
    }

    /**
     * A connected pair of Unix stream sockets ({@code socketpair(AF_UNIX, SOCK_STREAM)}), nonblocking and
     * close-on-exec: bytes spliced into one come out of the other.
     *
     * @return the two ends
     * @throws IOException if {@code socketpair(2)} fails
     */
    public static KernelFile[] socketPair() throws IOException {
        Platform.checkSupported();
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment fds = arena.allocate(JAVA_INT, 2);
            int r = LibC.socketpair(fds, LibC.SOCK_STREAM | LibC.SOCK_NONBLOCK | LibC.SOCK_CLOEXEC);
            if (r < 0) {
                throw new IOException("KernelFile.socketPair: socketpair(AF_UNIX, SOCK_STREAM) failed: "
                        + LibC.describe(-r));
            }
            int a = fds.getAtIndex(JAVA_INT, 0);
            int b = fds.getAtIndex(JAVA_INT, 1);
            return new KernelFile[] {new KernelFile(a, "socket " + a, true), new KernelFile(b, "socket " + b, true)};
        }
    }

    /** {@return whether this descriptor is still open} */
    public boolean isOpen() {
        return !cell.isClosed();
    }

    /** Closes the descriptor (once no call is using it). Closing twice does nothing. */
    @Override
    public void close() {
        cell.close();
    }

    @Override
    public String toString() {
        return "KernelFile[" + what + (cell.isClosed() ? ", closed" : "") + "]";
    }
}
