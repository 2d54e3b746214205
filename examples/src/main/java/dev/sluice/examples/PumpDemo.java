package dev.sluice.examples;

import dev.sluice.Pipe;
import dev.sluice.PipeCounters;
import dev.sluice.PipeOptions;
import dev.sluice.ReadEnd;
import dev.sluice.WriteEnd;
import java.io.IOException;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import java.util.concurrent.atomic.AtomicLong;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/**
 * Pumps bytes through a pipe between threads and prints the throughput and the pipe's counters.
 *
 * <p>With no arguments it runs a short tour: one writer and one reader at 64 KiB, 4 KiB and 100-byte
 * writes, on platform and on virtual threads, then four writers sharing one reader. Every run checks that
 * the reader received exactly the bytes the writers stored; {@code --verify} also checks their content.
 * This is a demo, not a benchmark: for numbers to compare, use the JMH benchmarks and the lab.
 *
 * <p>The command line is picocli's, as in the lab: {@code --help} lists the options; a bad option is one
 * line on stderr naming it and what it accepts, and exit code 2, before anything runs.
 */
@Command(name = "./sluice demo", sortOptions = false, usageHelpAutoWidth = true,
        description = {"Pumps bytes through an in-process Sluice pipe between threads and prints the throughput and "
                + "the pipe's counters. Every run checks that the reader got exactly the bytes the writers stored.",
            "",
            "With none of --write-size, --writers, --threads: a tour of 64 KiB, 4 KiB and 100-byte writes on "
                + "platform and virtual threads, then four writers sharing one reader.",
            ""},
        footer = {"", "Sizes are bytes, or with a suffix: 64k, 1m. Not a benchmark: see the bench module and "
                + "./sluice lab."})
public final class PumpDemo implements Callable<Integer> {
    /** Exit code for a bad command line: one line on stderr, nothing run. */
    static final int USAGE = 2;
    /** Exit code for a run that failed (a writer's error, or lost or corrupt bytes). */
    static final int FAILED = 1;
    /** The largest {@code --write-size}: 16 MiB. */
    static final int MAX_WRITE_SIZE = 16 << 20;
    /** The most {@code --writers}. */
    static final int MAX_WRITERS = 256;
    /** The largest {@code --capacity}: 64 MiB, so a full pipe and its page pool fit a default heap. */
    static final int MAX_CAPACITY = 64 << 20;
    /** The longest {@code --seconds}: an hour. */
    static final double MAX_SECONDS = 3600;

    /** One run's settings. */
    record Config(int writeSize, int writers, boolean virtual, double seconds, int capacity, boolean verify) {
    }

    /** One run's result. */
    record Result(Config config, long bytes, double seconds, PipeCounters counters) {
        double gbPerSecond() {
            return bytes / seconds / 1e9;
        }
    }

    /** The kinds of thread the writers and the reader run on. */
    enum ThreadKind { platform, virtual }

    @Spec
    CommandLine.Model.CommandSpec spec;

    private Integer writeSize;
    private Integer writers;
    private ThreadKind threads;
    private double seconds = 1.0;
    private int capacity = PipeOptions.DEFAULT_CAPACITY;

    @Option(names = "--verify", order = 6,
            description = "also check every byte's content (with one writer; with several, the counts)")
    boolean verify;

    @Option(names = {"-h", "--help"}, order = 7, usageHelp = true, description = "show this help and exit")
    boolean help;

    /** Makes the demo's command; picocli fills in its options. */
    PumpDemo() {
    }

    @Option(names = "--write-size", order = 1, paramLabel = "BYTES", converter = SizeConverter.class,
            description = "bytes per write call, 1 to 16m (default: 64k, or the tour)")
    void writeSize(long bytes) {
        writeSize = inRange("--write-size", bytes, 1, MAX_WRITE_SIZE);
    }

    @Option(names = "--writers", order = 2, paramLabel = "N",
            description = "writer threads sharing the pipe, each with its own handle, 1 to " + MAX_WRITERS
                    + " (default: 1, or the tour)")
    void writers(long n) {
        writers = inRange("--writers", n, 1, MAX_WRITERS);
    }

    @Option(names = "--threads", order = 3, paramLabel = "KIND",
            description = "platform or virtual: what the writers and the reader run on (default: platform, or "
                    + "the tour)")
    void threads(ThreadKind kind) {
        threads = kind;
    }

    @Option(names = "--seconds", order = 4, paramLabel = "S",
            description = "how long each run writes, above 0 and at most 3600 (default: 1)")
    void seconds(double s) {
        if (!(s > 0 && s <= MAX_SECONDS)) {
            throw new ParameterException(spec.commandLine(),
                    "--seconds must be above 0 and at most 3600, was " + s);
        }
        seconds = s;
    }

    @Option(names = "--capacity", order = 5, paramLabel = "BYTES", converter = SizeConverter.class,
            description = "the pipe's capacity, 1 to 64m, rounded up to a power-of-two number of 4 KiB pages "
                    + "(default: 64k)")
    void capacity(long bytes) {
        capacity = inRange("--capacity", bytes, 1, MAX_CAPACITY);
    }

    private int inRange(String option, long value, int min, int max) {
        if (value < min || value > max) {
            throw new ParameterException(spec.commandLine(), option + " must be between " + SizeConverter.show(min)
                    + " and " + SizeConverter.show(max) + ", was " + value);
        }
        return (int) value;
    }

    /**
     * Runs the demo and exits with its code: 0, {@value #USAGE} for a bad command line, {@value #FAILED} for a
     * failed run. {@code --help} lists the options.
     *
     * @param args options
     */
    public static void main(String[] args) {
        int code = execute(args, new PrintWriter(System.out, true), new PrintWriter(System.err, true));
        if (code != 0) {
            System.exit(code);
        }
    }

    /**
     * Runs the command line with the given output streams.
     *
     * @param args the command line
     * @param out  stdout: the help, the table and the counters
     * @param err  stderr: what went wrong, in one line
     * @return the exit code
     */
    static int execute(String[] args, PrintWriter out, PrintWriter err) {
        CommandLine cl = commandLine(new PumpDemo());
        cl.setOut(out);
        cl.setErr(err);
        // A bad argument is one line naming the option and what it accepts, never a stack trace or a usage dump.
        cl.setParameterExceptionHandler((ex, a) -> {
            ex.getCommandLine().getErr().println("demo: " + ex.getMessage().lines().findFirst().orElse("")
                    + " (./sluice demo --help)");
            return USAGE;
        });
        cl.setExecutionExceptionHandler((ex, c, parsed) -> {
            Throwable cause = ex.getCause();
            c.getErr().println("demo: the run failed: " + ex + (cause == null ? "" : ", caused by " + cause));
            return FAILED;
        });
        return cl.execute(args);
    }

    private static CommandLine commandLine(PumpDemo demo) {
        return new CommandLine(demo).setCaseInsensitiveEnumValuesAllowed(true);
    }

    /**
     * Parses a command line without running it.
     *
     * @param args options
     * @return the runs they ask for
     * @throws ParameterException if an option is unknown, malformed or out of range
     */
    static List<Config> parse(String... args) {
        PumpDemo demo = new PumpDemo();
        commandLine(demo).parseArgs(args);
        return demo.runs();
    }

    /** {@return the runs the options ask for: one, or the tour if no option chose a shape} */
    List<Config> runs() {
        List<Config> runs = new ArrayList<>();
        if (writeSize == null && writers == null && threads == null) {
            for (boolean vt : new boolean[] {false, true}) {
                for (int ws : new int[] {65536, 4096, 100}) {
                    runs.add(new Config(ws, 1, vt, seconds, capacity, verify));
                }
            }
            runs.add(new Config(4096, 4, true, seconds, capacity, verify));
        } else {
            runs.add(new Config(writeSize == null ? 65536 : writeSize, writers == null ? 1 : writers,
                    threads == ThreadKind.virtual, seconds, capacity, verify));
        }
        return runs;
    }

    @Override
    public Integer call() throws Exception {
        PrintWriter out = spec.commandLine().getOut();
        List<Config> runs = runs();
        out.println("Sluice pump demo: bytes through an in-process pipe (" + Runtime.getRuntime().availableProcessors()
                + " CPUs, Java " + Runtime.version() + ")");
        out.println();
        out.printf(Locale.ROOT, "%-10s %-8s %-8s %10s %12s %10s %10s %12s%n", "write", "writers", "threads",
                "GB/s", "MB moved", "w-waits", "r-waits", "pages alloc");
        Result last = null;
        for (Config c : runs) {
            Result r = run(c);
            last = r;
            out.printf(Locale.ROOT, "%-10s %-8d %-8s %10.2f %12.1f %10d %10d %12d%n", size(c.writeSize()),
                    c.writers(), c.virtual() ? "virtual" : "platform", r.gbPerSecond(), r.bytes() / 1e6,
                    r.counters().writerWaits(), r.counters().readerWaits(), r.counters().pagesAllocated());
        }
        out.println();
        out.println("Counters of the last run:");
        out.println(last.counters().toMultilineString());
        out.println();
        out.println("Every run: bytes read == bytes written" + (verify ? ", content verified" : "")
                + ". Not a benchmark; see the bench module.");
        return 0;
    }

    static String size(int n) {
        return n % 1024 == 0 ? (n / 1024) + " KiB" : n + " B";
    }

    /** A size in bytes, or with a suffix {@code k} (KiB) or {@code m} (MiB), as the lab takes them. */
    static final class SizeConverter implements CommandLine.ITypeConverter<Long> {
        @Override
        public Long convert(String value) {
            String v = value.trim().toLowerCase(Locale.ROOT);
            long unit = v.endsWith("k") ? 1L << 10 : v.endsWith("m") ? 1L << 20 : 1;
            String digits = unit == 1 ? v : v.substring(0, v.length() - 1);
            if (digits.isEmpty() || !digits.chars().allMatch(Character::isDigit) || digits.length() > 10) {
                throw new CommandLine.TypeConversionException("'" + value + "' is not a size (bytes, or 64k, 1m)");
            }
            return Long.parseLong(digits) * unit; // at most 10 digits: no overflow; the option checks the range
        }

        /** {@return {@code n} as the options take it: 64k, 16m or plain bytes} */
        static String show(int n) {
            if (n >= 1 << 20 && n % (1 << 20) == 0) {
                return (n >> 20) + "m";
            }
            return n >= 1024 && n % 1024 == 0 ? (n >> 10) + "k" : Integer.toString(n);
        }
    }

    /** Runs one configuration: writers write until the time is up and close; the reader drains to EOF. */
    static Result run(Config c) throws Exception {
        Pipe pipe = Pipe.open(PipeOptions.builder().capacity(c.capacity()).maxCapacity(
                Math.max(c.capacity(), PipeOptions.DEFAULT_MAX_CAPACITY)).build());
        // The stream is the pattern 0,1,...,250 repeated within each write, so a reader can check any byte
        // from its position in its write only when there is one writer; with several, counts are checked.
        byte[] pattern = new byte[c.writeSize()];
        for (int i = 0; i < pattern.length; i++) {
            pattern[i] = (byte) (i % 251);
        }
        AtomicLong written = new AtomicLong();
        List<Thread> threads = new ArrayList<>();
        long deadline = System.nanoTime() + (long) (c.seconds() * 1e9);
        List<WriteEnd> ends = new ArrayList<>();
        ends.add(pipe.writer());
        for (int i = 1; i < c.writers(); i++) {
            ends.add(pipe.writer().dup());
        }
        Throwable[] failure = new Throwable[1];
        for (WriteEnd end : ends) {
            Runnable writer = () -> {
                long n = 0;
                try (end) {
                    for (int i = 0; ; i++) {
                        if ((i & 63) == 0 && System.nanoTime() > deadline) {
                            break;
                        }
                        n += end.write(pattern, 0, pattern.length);
                    }
                } catch (IOException e) {
                    failure[0] = e;
                } finally {
                    written.addAndGet(n);
                }
            };
            threads.add(c.virtual() ? Thread.ofVirtual().unstarted(writer) : Thread.ofPlatform().unstarted(writer));
        }
        long start = System.nanoTime();
        threads.forEach(Thread::start);
        long read = 0;
        byte[] buf = new byte[Math.max(65536, c.writeSize())];
        long pos = 0;
        try (ReadEnd in = pipe.reader()) {
            for (int n; (n = in.read(buf, 0, buf.length)) != -1; ) {
                if (c.verify() && c.writers() == 1) {
                    verify(buf, n, pos, pattern);
                }
                pos += n;
                read += n;
            }
        }
        double secs = (System.nanoTime() - start) / 1e9;
        for (Thread t : threads) {
            t.join();
        }
        if (failure[0] != null) {
            throw new IllegalStateException("writer failed", failure[0]);
        }
        if (read != written.get()) {
            throw new IllegalStateException("lost or duplicated bytes: wrote " + written.get() + ", read " + read);
        }
        return new Result(c, read, secs, pipe.counters());
    }

    private static void verify(byte[] buf, int n, long pos, byte[] pattern) {
        int w = pattern.length;
        int i = 0;
        while (i < n) {
            int at = (int) ((pos + i) % w);
            int k = Math.min(n - i, w - at);
            if (Arrays.mismatch(buf, i, i + k, pattern, at, at + k) >= 0) {
                throw new IllegalStateException("corrupt data at stream offset " + (pos + i));
            }
            i += k;
        }
    }
}
