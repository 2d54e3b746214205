package dev.sluice.bench;

import dev.sluice.kernel.KernelPipe;
import dev.sluice.kernel.KernelProcess;
import java.io.IOException;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandle;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The cost of the <em>first</em> child-process start in a fresh JVM, {@link KernelProcess} against
 * {@link ProcessBuilder}: what a short-lived tool pays once, dominated by linking native calls and
 * loading classes, which no warmed-up JMH iteration sees. Single shot: every sample is a new JVM that
 * starts one child, timed from just before the first call into the library to the return of
 * {@code start()} (the child has exec'd by then, for both); the JVM's own start-up is not counted. The
 * modes run interleaved, fork after fork, so that a change in the machine's load hits them alike; the
 * median of each is reported, and the ratio of the medians.
 *
 * <ul>
 *   <li>{@code jdk}: {@code new ProcessBuilder("true").start()} (its three pipes, the default);</li>
 *   <li>{@code kernel}: {@code KernelProcess.command("true").start()} (streams inherited);</li>
 *   <li>{@code kernel-pipe}: a {@code KernelPipe} opened, then a child started with its write end as stdout;</li>
 *   <li>{@code ffm-floor}: the FFM API's own first cost, {@code Linker.nativeLinker()} and one downcall of
 *       {@code getpid}: what any FFM library pays before its own code runs.</li>
 * </ul>
 *
 * <p>HOW TO RUN: {@code mvn -pl bench -am package -DskipTests}, then
 * {@code java -cp bench/target/benchmarks.jar dev.sluice.bench.FirstStartHarness [forks]} (default 11).
 */
public final class FirstStartHarness {
    private static final List<String> MODES = List.of("jdk", "kernel", "kernel-pipe", "ffm-floor");

    private FirstStartHarness() {
    }

    /**
     * Measures the modes over {@code forks} fresh JVMs and prints each median and the ratios; or, in a child
     * JVM, takes one sample.
     *
     * @param args {@code [forks]} to measure, or {@code child MODE} (one sample, printed in nanoseconds)
     * @throws Throwable if a child JVM or the sample fails
     */
    public static void main(String[] args) throws Throwable {
        if (args.length == 2 && args[0].equals("child")) {
            System.out.println(sample(args[1]));
            return;
        }
        int forks = args.length > 0 ? Integer.parseInt(args[0]) : 11;
        Map<String, long[]> samples = new LinkedHashMap<>();
        for (String m : MODES) {
            samples.put(m, new long[forks]);
        }
        for (int f = 0; f < forks; f++) {
            for (String m : MODES) {
                samples.get(m)[f] = fork(m);
            }
        }
        System.out.printf("first start in a fresh JVM, %d forks per mode, interleaved (ms)%n", forks);
        System.out.printf("%-12s %8s %8s %8s%n", "mode", "median", "min", "max");
        for (Map.Entry<String, long[]> e : samples.entrySet()) {
            long[] s = e.getValue().clone();
            Arrays.sort(s);
            System.out.printf("%-12s %8.1f %8.1f %8.1f%n", e.getKey(), median(s) / 1e6, s[0] / 1e6,
                    s[s.length - 1] / 1e6);
        }
        double jdk = median(sorted(samples.get("jdk")));
        System.out.printf("kernel / jdk = %.2f, kernel-pipe / jdk = %.2f, ffm-floor / jdk = %.2f%n",
                median(sorted(samples.get("kernel"))) / jdk, median(sorted(samples.get("kernel-pipe"))) / jdk,
                median(sorted(samples.get("ffm-floor"))) / jdk);
    }

    private static long[] sorted(long[] a) {
        long[] s = a.clone();
        Arrays.sort(s);
        return s;
    }

    private static double median(long[] sorted) {
        int n = sorted.length;
        return n % 2 == 1 ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2.0;
    }

    private static long fork(String mode) throws IOException, InterruptedException {
        String java = ProcessHandle.current().info().command().orElse("java");
        List<String> cmd = new ArrayList<>(List.of(java, "--enable-native-access=ALL-UNNAMED", "-cp",
                System.getProperty("java.class.path"), FirstStartHarness.class.getName(), "child", mode));
        Process p = new ProcessBuilder(cmd).redirectError(ProcessBuilder.Redirect.INHERIT).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.US_ASCII).strip();
        if (p.waitFor() != 0) {
            throw new IOException("child JVM for " + mode + " failed: " + out);
        }
        return Long.parseLong(out);
    }

    private static long sample(String mode) throws Throwable {
        long t0 = System.nanoTime();
        long t1;
        switch (mode) {
            case "jdk" -> {
                Process p = new ProcessBuilder("true").start();
                t1 = System.nanoTime();
                p.waitFor();
            }
            case "kernel" -> {
                KernelProcess p = KernelProcess.command("true").start();
                t1 = System.nanoTime();
                p.waitFor();
            }
            case "kernel-pipe" -> {
                KernelPipe pipe = KernelPipe.open();
                KernelProcess p = KernelProcess.command("true").stdout(pipe.writer()).start();
                t1 = System.nanoTime();
                pipe.reader().close();
                p.waitFor();
            }
            case "ffm-floor" -> {
                Linker linker = Linker.nativeLinker();
                MethodHandle getpid = linker.downcallHandle(linker.defaultLookup().find("getpid").orElseThrow(),
                        FunctionDescriptor.of(ValueLayout.JAVA_INT));
                int pid = (int) getpid.invokeExact();
                t1 = System.nanoTime();
                if (pid != ProcessHandle.current().pid()) {
                    throw new AssertionError("getpid");
                }
            }
            default -> throw new IllegalArgumentException("mode: one of " + MODES + ", not " + mode);
        }
        return t1 - t0;
    }
}
