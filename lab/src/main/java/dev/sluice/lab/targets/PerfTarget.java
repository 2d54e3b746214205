package dev.sluice.lab.targets;

import java.io.IOException;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

/**
 * The native reference rows: {@code perf bench sched messaging} and {@code perf bench sched pipe}, run as a
 * child process on kernel pipes the way the kernel list measures. Only the workloads that have a perf
 * equivalent (hackbench, pingpong) accept it; they run perf themselves instead of opening pipes.
 */
public final class PerfTarget implements Target {
    private static volatile Optional<String> probed;

    @Override
    public String family() {
        return "perf";
    }

    @Override
    public String id() {
        return "perf";
    }

    @Override
    public Caps caps() {
        return new Caps(false, false, false, false, "perf runs its own benchmark", "perf runs its own benchmark");
    }

    @Override
    public Optional<String> unavailable() {
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

    @Override
    public PipeHandle open(int capacity, boolean nonBlocking) throws IOException {
        throw new IOException("perf runs its own pipes");
    }
}
