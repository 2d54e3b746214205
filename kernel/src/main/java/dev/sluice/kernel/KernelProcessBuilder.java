package dev.sluice.kernel;

import dev.sluice.PipeEnd;
import dev.sluice.ReadEnd;
import dev.sluice.WriteEnd;
import java.io.File;
import java.io.IOException;
import java.lang.ProcessBuilder.Redirect;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.channels.ClosedChannelException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.AbstractMap;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeMap;

/**
 * Sets up a {@link KernelProcess}, as {@link ProcessBuilder} sets up a {@link Process}: the environment,
 * the working directory, where each standard stream comes from and goes to, and descriptors beyond 0-2.
 * Made by {@link KernelProcess#command(String...)}; not thread-safe; {@link #start()} may be called
 * again to start another child with the same settings (pipe ends are handed over at each start, so give
 * new ones).
 *
 * <pre>{@code
 * KernelPipe tokens = KernelPipe.open();
 * KernelProcess make = KernelProcess.command("make")
 *         .directory(Path.of("build"))
 *         .putEnv("MAKEFLAGS", "-j4 --jobserver-auth=3,4")  // GNU make's jobserver on descriptors 3 and 4
 *         .fd(3, tokens.reader().dup()).fd(4, tokens.writer().dup())
 *         .stdout(Redirect.appendTo(new File("build.log"))).redirectErrorStream(true)
 *         .start();
 * }</pre>
 *
 * <p>Every string the child gets (arguments, environment, paths) is checked when it is given: one that a C
 * string cannot carry (an embedded NUL, a lone surrogate) or that Linux would refuse as too long is
 * refused with {@link IllegalArgumentException} naming it, rather than altered.
 */
public final class KernelProcessBuilder {
    /** The largest descriptor number a child can be given (Linux's default {@code fs.nr_open}). */
    static final int MAX_FD = (1 << 20) - 1;
    private static final String[] STREAM = {"standard input", "standard output", "standard error"};

    private final List<String> argv;
    private final List<byte[]> argvC = new ArrayList<>();
    /** The child's environment; null while it is this JVM's, unchanged. */
    private Environment env;
    private Path directory;
    /** Per standard stream: null (the JVM's own), a {@link KernelEnd}, or a file {@link Redirect}. */
    private final Object[] std = new Object[3];
    private boolean mergeErr;
    private final TreeMap<Integer, KernelEnd> extra = new TreeMap<>();

    KernelProcessBuilder(List<String> argv) {
        if (argv.isEmpty()) {
            throw new IllegalArgumentException("command is empty: give the program and its arguments");
        }
        for (int i = 0; i < argv.size(); i++) {
            argvC.add(CStrings.encodeArg(argv.get(i), "argument " + i + " of the command"));
        }
        this.argv = argv;
    }

    /** {@return the program and its arguments} */
    public List<String> command() {
        return argv;
    }

    // ---- environment ----------------------------------------------------------------------------------

    /**
     * The child's environment, a live map to change as {@link ProcessBuilder#environment()}: it starts as
     * a copy of this JVM's ({@link System#getenv()}). {@code put} refuses a name that is empty or holds
     * {@code '='}, and names or values that a C string cannot carry, with {@link IllegalArgumentException};
     * {@link #start()} checks the whole map again.
     *
     * @return the environment map
     */
    public Map<String, String> environment() {
        if (env == null) {
            env = new Environment(System.getenv());
        }
        return env;
    }

    /**
     * Sets one variable for the child.
     *
     * @param name  the name: not empty, no {@code '='}
     * @param value the value
     * @return this builder
     * @throws IllegalArgumentException if either cannot be passed to the child (the map is unchanged)
     */
    public KernelProcessBuilder putEnv(String name, String value) {
        environment().put(name, value);
        return this;
    }

    /**
     * Leaves a variable out of the child's environment.
     *
     * @param name a variable the child must not have
     * @return this builder
     */
    public KernelProcessBuilder removeEnv(String name) {
        Objects.requireNonNull(name, "name is null");
        environment().remove(name);
        return this;
    }

    /**
     * The child starts with no environment at all (add to it with {@link #putEnv}).
     *
     * @return this builder
     */
    public KernelProcessBuilder clearEnv() {
        if (env == null) {
            env = new Environment(Map.of());
        } else {
            env.clear();
        }
        return this;
    }

    /**
     * The child gets this JVM's environment, the default (undoes {@link #putEnv}, {@link #removeEnv} and
     * {@link #clearEnv}; a map {@link #environment()} returned before is no longer the child's).
     *
     * @return this builder
     */
    public KernelProcessBuilder inheritEnv() {
        env = null;
        return this;
    }

    /** A map that refuses what a child's environment cannot hold. */
    private static final class Environment extends AbstractMap<String, String> {
        private final TreeMap<String, String> map = new TreeMap<>();

        Environment(Map<String, String> from) {
            map.putAll(from);
        }

        @Override
        public String put(String name, String value) {
            check(name, value);
            return map.put(name, value);
        }

        @Override
        public String get(Object name) {
            return map.get(name);
        }

        @Override
        public boolean containsKey(Object name) {
            return map.containsKey(name);
        }

        @Override
        public String remove(Object name) {
            return map.remove(name);
        }

        @Override
        public void clear() {
            map.clear();
        }

        @Override
        public Set<Entry<String, String>> entrySet() {
            return map.entrySet();
        }

        static void check(String name, String value) {
            Objects.requireNonNull(name, "environment variable name is null");
            Objects.requireNonNull(value, () -> "value of environment variable " + name + " is null");
            if (name.isEmpty() || name.indexOf('=') >= 0) {
                throw new IllegalArgumentException("environment variable name " + CStrings.preview(name)
                        + " is empty or holds '='");
            }
            CStrings.encode(name, "environment variable name");
            CStrings.encodeArg(name + "=" + value, "environment variable " + CStrings.preview(name));
        }

        List<byte[]> entries() {
            List<byte[]> out = new ArrayList<>();
            for (Entry<String, String> e : map.entrySet()) {
                check(e.getKey(), e.getValue()); // again: entry.setValue and replaceAll bypass put
                out.add(CStrings.encodeArg(e.getKey() + "=" + e.getValue(), "environment variable "
                        + CStrings.preview(e.getKey())));
            }
            return out;
        }
    }

    // ---- working directory ----------------------------------------------------------------------------

    /**
     * Sets the child's working directory.
     *
     * @param dir the child's working directory, or null for this JVM's
     * @return this builder
     * @throws IllegalArgumentException if the path cannot be passed as a C string
     */
    public KernelProcessBuilder directory(Path dir) {
        if (dir != null) {
            CStrings.encode(dir.toString(), "directory");
        }
        this.directory = dir;
        return this;
    }

    /** {@return the child's working directory, or null for this JVM's} */
    public Path directory() {
        return directory;
    }

    // ---- standard streams -----------------------------------------------------------------------------

    /**
     * The child's standard input from a pipe.
     *
     * @param end the read end the child reads as its standard input; handed over at {@link #start()}
     * @return this builder
     */
    public KernelProcessBuilder stdin(ReadEnd end) {
        std[0] = own(end);
        return this;
    }

    /**
     * The child's standard output into a pipe.
     *
     * @param end the write end the child writes its standard output to; handed over at {@link #start()}
     * @return this builder
     */
    public KernelProcessBuilder stdout(WriteEnd end) {
        std[1] = own(end);
        return this;
    }

    /**
     * The child's standard error into a pipe.
     *
     * @param end the write end the child writes its standard error to; handed over at {@link #start()}
     *            (it may be the same handle as for {@link #stdout}; see also {@link #redirectErrorStream})
     * @return this builder
     */
    public KernelProcessBuilder stderr(WriteEnd end) {
        std[2] = own(end);
        return this;
    }

    /**
     * The child's standard input from a file ({@link Redirect#from}) or this JVM's
     * ({@link Redirect#INHERIT}, the default).
     *
     * @param r where from
     * @return this builder
     * @throws IllegalArgumentException for a redirect to a file, or {@link Redirect#PIPE} (give a pipe's
     *                                  read end instead)
     */
    public KernelProcessBuilder stdin(Redirect r) {
        std[0] = redirect(r, 0);
        return this;
    }

    /**
     * The child's standard output to a file ({@link Redirect#to}, {@link Redirect#appendTo},
     * {@link Redirect#DISCARD}) or this JVM's ({@link Redirect#INHERIT}, the default).
     *
     * @param r where to
     * @return this builder
     * @throws IllegalArgumentException for a redirect from a file, or {@link Redirect#PIPE}
     */
    public KernelProcessBuilder stdout(Redirect r) {
        std[1] = redirect(r, 1);
        return this;
    }

    /**
     * The child's standard error, as {@link #stdout(Redirect)}.
     *
     * @param r where to
     * @return this builder
     * @throws IllegalArgumentException for a redirect from a file, or {@link Redirect#PIPE}
     */
    public KernelProcessBuilder stderr(Redirect r) {
        std[2] = redirect(r, 2);
        return this;
    }

    /**
     * All three standard streams are this JVM's (the default), as {@link ProcessBuilder#inheritIO()}.
     *
     * @return this builder
     */
    public KernelProcessBuilder inheritIO() {
        std[0] = null;
        std[1] = null;
        std[2] = null;
        return this;
    }

    /**
     * With {@code true}, the child's standard error goes wherever its standard output goes ({@code 2>&1}),
     * and what {@link #stderr} set is ignored (an end given there is not handed over), as with
     * {@link ProcessBuilder#redirectErrorStream(boolean)}.
     *
     * @param merge whether to merge
     * @return this builder
     */
    public KernelProcessBuilder redirectErrorStream(boolean merge) {
        this.mergeErr = merge;
        return this;
    }

    /**
     * Gives the child a pipe end as descriptor {@code n} (3 or more; 0-2 are {@link #stdin},
     * {@link #stdout}, {@link #stderr}), for protocols that pass pipes by number, such as GNU make's
     * jobserver. Handed over at {@link #start()}, as the standard streams' ends are. Giving {@code n}
     * again replaces the earlier end.
     *
     * @param n   the descriptor number in the child
     * @param end a read or write end of a kernel pipe
     * @return this builder
     * @throws IllegalArgumentException if {@code n} is below 3 or above 1048575, or {@code end} is not a
     *                                  kernel pipe's
     */
    public KernelProcessBuilder fd(int n, PipeEnd end) {
        if (n < 3 || n > MAX_FD) {
            throw new IllegalArgumentException("descriptor " + n + " is out of range: give 3 to " + MAX_FD
                    + " (0, 1 and 2 are set with stdin, stdout and stderr)");
        }
        extra.put(n, own(end));
        return this;
    }

    private static KernelEnd own(PipeEnd end) {
        Objects.requireNonNull(end, "pipe end is null");
        if (end instanceof KernelEnd k) {
            return k;
        }
        throw new IllegalArgumentException("a child process needs a kernel pipe end, not " + end);
    }

    private static Redirect redirect(Redirect r, int stream) {
        Objects.requireNonNull(r, "redirect is null");
        switch (r.type()) {
            case INHERIT:
                return null;
            case PIPE:
                throw new IllegalArgumentException("Redirect.PIPE: a kernel process has no Java streams; give a "
                        + "kernel pipe's " + (stream == 0 ? "read" : "write") + " end for its " + STREAM[stream]);
            case READ:
                if (stream != 0) {
                    throw new IllegalArgumentException(r + " reads a file: not for the " + STREAM[stream]);
                }
                break;
            default: // WRITE, APPEND
                if (stream == 0) {
                    throw new IllegalArgumentException(r + " writes a file: not for the standard input");
                }
        }
        CStrings.encode(r.file().getPath(), "file of " + r);
        return r;
    }

    // ---- start ----------------------------------------------------------------------------------------

    /**
     * Spawns the child and closes the handed-over ends in this JVM. A refused start starts nothing and
     * leaves every handle as it was.
     *
     * @return the running child
     * @throws ClosedChannelException   if a handed-over end is already closed
     * @throws IllegalArgumentException if the environment holds what a child cannot get, or a descriptor
     *                                  number is above this process's open-file limit
     * @throws IOException              if a file cannot be opened or the program cannot be started (the
     *                                  message names the file or program and the errno)
     */
    public KernelProcess start() throws IOException {
        Platform.checkSupported();
        List<byte[]> envC = env == null ? null : env.entries();
        Spawn plan = new Spawn(argv.get(0));
        try {
            plan.acquire(std, mergeErr, extra);
            plan.openSources(std, mergeErr, extra);
            int pid;
            try (Arena arena = Arena.ofConfined()) {
                MemorySegment dir = directory == null ? MemorySegment.NULL
                        : CStrings.toC(arena, CStrings.encode(directory.toString(), "directory"));
                MemorySegment envp = envC == null ? MemorySegment.NULL : CStrings.toArray(arena, envC);
                pid = LibC.spawn(arena, CStrings.toArray(arena, argvC), envp, plan.from(), plan.to(),
                        plan.closeInChild(), dir, plan.maxTarget() + 1);
            }
            if (pid < 0) {
                throw cannotStart(-pid, envC);
            }
            KernelProcess p = started(pid);
            plan.handOver();
            return p;
        } finally {
            plan.release();
        }
    }

    private KernelProcess started(int pid) {
        KernelProcess p = new KernelProcess(pid, CStrings.preview(argv.get(0)));
        p.watch();
        return p;
    }

    private IOException cannotStart(int errno, List<byte[]> envC) {
        String where = directory == null ? "" : " in directory " + directory;
        if (errno == LibC.E2BIG) {
            long bytes = 0;
            for (byte[] a : argvC) {
                bytes += a.length + 1;
            }
            long envBytes = 0;
            for (byte[] e : envC == null ? List.<byte[]>of() : envC) {
                envBytes += e.length + 1;
            }
            return new IOException("cannot start " + CStrings.preview(argv.get(0)) + where + ": "
                    + LibC.describe(errno) + ": " + argvC.size() + " arguments of " + bytes + " bytes"
                    + (envC == null ? "" : " and " + envC.size() + " environment entries of " + envBytes
                    + " bytes") + " are more than the kernel takes (a quarter of the stack limit, at most 6 MiB)");
        }
        String hint = "";
        if (directory != null && (errno == LibC.ENOENT || errno == LibC.ENOTDIR) && !Files.isDirectory(directory)) {
            hint = " (the directory does not exist)";
        }
        return new IOException("cannot start " + CStrings.preview(argv.get(0)) + where + ": " + LibC.describe(errno)
                + hint);
    }

    /** @return the file of a redirect, for messages */
    static File fileOf(Redirect r) {
        return r.file();
    }
}
