package dev.sluice.lab.workload;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Runs {@code perf bench sched ...} and reads its "Total time"; finds out once whether perf runs here. */
final class Perf {
    private static final Pattern TOTAL = Pattern.compile("Total time:\\s*([0-9.]+)\\s*\\[sec\\]");
    private static volatile Optional<String> probed;

    private Perf() {
    }

    /** {@return empty if {@code perf bench} runs here, else why not (asked once per lab run)} */
    static Optional<String> unavailable() {
        Optional<String> p = probed;
        if (p == null) {
            p = probe();
            probed = p;
        }
        return p;
    }

    private static Optional<String> probe() {
        try {
            Process proc = new ProcessBuilder("perf", "bench", "sched", "pipe", "-l", "10")
                    .redirectErrorStream(true).start();
            proc.getInputStream().readAllBytes();
            if (!proc.waitFor(30, TimeUnit.SECONDS)) {
                proc.destroyForcibly();
                return Optional.of("perf bench did not finish");
            }
            return proc.exitValue() == 0 ? Optional.empty()
                    : Optional.of("perf bench sched pipe exited with " + proc.exitValue());
        } catch (IOException e) {
            return Optional.of("perf is not installed");
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return Optional.of("interrupted");
        }
    }

    /** {@return perf's own measured time for {@code perf bench sched messaging -p -t -g groups -l loops}} */
    static long messaging(int groups, int loops) throws IOException, InterruptedException {
        return run(List.of("perf", "bench", "sched", "messaging", "-p", "-t", "-g", Integer.toString(groups),
                "-l", Integer.toString(loops)));
    }

    /** {@return perf's time for {@code perf bench sched pipe -T -l loops} (threads, 4-byte tokens)} */
    static long pipe(long loops) throws IOException, InterruptedException {
        return run(List.of("perf", "bench", "sched", "pipe", "-T", "-l", Long.toString(loops)));
    }

    private static long run(List<String> cmd) throws IOException, InterruptedException {
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (!p.waitFor(Crew.DEADLINE_SECONDS, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            throw new CheckFailure(String.join(" ", cmd) + " did not finish");
        }
        if (p.exitValue() != 0) {
            throw new CheckFailure(String.join(" ", cmd) + " exited with " + p.exitValue() + ": " + out.strip());
        }
        Matcher m = TOTAL.matcher(out);
        if (!m.find()) {
            throw new CheckFailure("no 'Total time' in the output of " + String.join(" ", cmd) + ": " + out.strip());
        }
        long nanos = Math.round(Double.parseDouble(m.group(1)) * 1e9);
        if (nanos <= 0) {
            // perf prints milliseconds; a run that short has no figure worth reporting.
            throw new CheckFailure(String.join(" ", cmd) + " reported 0.000 s: give it more loops");
        }
        return nanos;
    }
}
