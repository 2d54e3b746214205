package dev.sluice.examples;

import dev.sluice.Pipe;
import dev.sluice.PipeCounters;
import dev.sluice.PipeOptions;
import dev.sluice.ReadEnd;
import dev.sluice.WriteEnd;
import java.io.IOException;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Pumps bytes through a pipe between threads and prints the throughput and the pipe's counters.
 *
 * <p>With no arguments it runs a short tour: one writer and one reader at 64 KiB, 4 KiB and 100-byte
 * writes, on platform and on virtual threads, then four writers sharing one reader. Every run checks that
 * the reader received exactly the bytes the writers stored; {@code --verify} also checks their content.
 * This is a demo, not a benchmark: for numbers to compare, use the JMH benchmarks and the lab.
 */
public final class PumpDemo {

    /** One run's settings. */
    record Config(int writeSize, int writers, boolean virtual, double seconds, int capacity, boolean verify) {
    }

    /** One run's result. */
    record Result(Config config, long bytes, double seconds, PipeCounters counters) {
        double gbPerSecond() {
            return bytes / seconds / 1e9;
        }
    }

    private PumpDemo() {
    }

    /**
     * Runs the demo; {@code --help} lists the options.
     *
     * @param args options
     * @throws Exception if a run fails
     */
    public static void main(String[] args) throws Exception {
        PrintStream out = System.out;
        List<Config> runs = parse(args, out);
        if (runs == null) {
            return;
        }
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
        if (last != null) {
            out.println();
            out.println("Counters of the last run:");
            out.println(last.counters().toMultilineString());
        }
        out.println();
        out.println("Every run: bytes read == bytes written" + (runs.get(0).verify() ? ", content verified" : "")
                + ". Not a benchmark; see the bench module.");
    }

    static String size(int n) {
        return n % 1024 == 0 ? (n / 1024) + " KiB" : n + " B";
    }

    /** @return the runs to do, or null if help was printed */
    static List<Config> parse(String[] args, PrintStream out) {
        Integer writeSize = null;
        Integer writers = null;
        Boolean virtual = null;
        double seconds = 1.0;
        int capacity = PipeOptions.DEFAULT_CAPACITY;
        boolean verify = false;
        for (String a : args) {
            String[] kv = a.split("=", 2);
            String v = kv.length > 1 ? kv[1] : null;
            switch (kv[0]) {
                case "--help", "-h" -> {
                    out.println("""
                            usage: ./sluice demo [--write-size=BYTES] [--writers=N] [--threads=virtual|platform]
                                                 [--seconds=S] [--capacity=BYTES] [--verify]
                            With no options: a tour of write sizes and thread kinds, 1 s per run.""");
                    return null;
                }
                case "--write-size" -> writeSize = positive(a, v);
                case "--writers" -> writers = positive(a, v);
                case "--threads" -> {
                    if (!"virtual".equals(v) && !"platform".equals(v)) {
                        throw new IllegalArgumentException("--threads must be virtual or platform, was " + v);
                    }
                    virtual = "virtual".equals(v);
                }
                case "--seconds" -> {
                    seconds = Double.parseDouble(require(a, v));
                    if (!(seconds > 0 && seconds <= 3600)) {
                        throw new IllegalArgumentException("--seconds must be in (0, 3600], was " + v);
                    }
                }
                case "--capacity" -> capacity = positive(a, v);
                case "--verify" -> verify = true;
                default -> throw new IllegalArgumentException("unknown option " + a + " (try --help)");
            }
        }
        List<Config> runs = new ArrayList<>();
        if (writeSize == null && writers == null && virtual == null) {
            for (boolean vt : new boolean[] {false, true}) {
                for (int ws : new int[] {65536, 4096, 100}) {
                    runs.add(new Config(ws, 1, vt, seconds, capacity, verify));
                }
            }
            runs.add(new Config(4096, 4, true, seconds, capacity, verify));
        } else {
            runs.add(new Config(writeSize == null ? 65536 : writeSize, writers == null ? 1 : writers,
                    virtual != null && virtual, seconds, capacity, verify));
        }
        return runs;
    }

    private static String require(String opt, String v) {
        if (v == null || v.isEmpty()) {
            throw new IllegalArgumentException(opt + " needs a value, as " + opt + "=VALUE");
        }
        return v;
    }

    private static int positive(String opt, String v) {
        int n = Integer.parseInt(require(opt, v));
        if (n <= 0) {
            throw new IllegalArgumentException(opt + " must be positive, was " + v);
        }
        return n;
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
