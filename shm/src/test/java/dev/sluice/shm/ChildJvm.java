package dev.sluice.shm;

import dev.sluice.PipeEnd;
import dev.sluice.ReadEnd;
import dev.sluice.WriteEnd;
import dev.sluice.kernel.KernelPipe;
import dev.sluice.kernel.KernelProcess;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A {@link Child} JVM started through {@link KernelProcess}, with kernel pipes on its standard input (commands,
 * for {@code serve} mode) and output (answers and results, a line each); its standard error is this JVM's.
 * Handles of a shared pipe reach it by {@link ShmPipe#handOver} and {@link ShmPipe#claim} (the child opens the
 * parent's memfd through {@code /proc/<pid>/fd/<n>}: {@code KernelProcess.fd(n, end)} takes kernel pipe ends
 * only). Closing kills it if it still runs, and reaps it.
 */
final class ChildJvm implements AutoCloseable {
    /** The longest a test waits for an answer or an exit: a hung child fails the test rather than hanging it. */
    static final Duration PATIENCE = Duration.ofSeconds(30);

    private final KernelProcess process;
    private final WriteEnd commands;
    private final ReadEnd output;
    private final BufferedReader lines;

    private ChildJvm(KernelProcess process, WriteEnd commands, ReadEnd output) {
        this.process = process;
        this.commands = commands;
        this.output = output;
        this.lines = new BufferedReader(new InputStreamReader(output.asInputStream(), StandardCharsets.UTF_8));
    }

    /**
     * Starts a child JVM running {@link Child#main} with {@code args}.
     *
     * @param args the mode and its arguments
     * @return the running child
     */
    static ChildJvm start(String... args) throws IOException {
        List<String> cmd = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC", "-Xmx64m", "-Xshare:auto",
                "--enable-native-access=ALL-UNNAMED", "-cp", System.getProperty("java.class.path"),
                Child.class.getName()));
        cmd.addAll(List.of(args));
        KernelPipe in = KernelPipe.open();
        KernelPipe out = KernelPipe.open();
        try {
            KernelProcess p = KernelProcess.command(cmd).stdin(in.reader()).stdout(out.writer()).start();
            out.reader().setTimeout(PATIENCE);
            return new ChildJvm(p, in.writer(), out.reader());
        } catch (IOException | RuntimeException e) {
            in.close();
            out.close();
            throw e;
        }
    }

    /** @return a child in {@code serve} mode, waiting for commands */
    static ChildJvm serve() throws IOException {
        return start("serve");
    }

    KernelProcess process() {
        return process;
    }

    ProcessHandle handle() {
        return process.toHandle();
    }

    /**
     * Hands {@code ends} of {@code p} over to this child (a {@code serve} one) and has it claim them.
     *
     * @return the number the child's commands name the pipe by
     */
    int claim(ShmPipe p, PipeEnd... ends) throws IOException {
        for (PipeEnd e : ends) {
            p.handOver(e, handle());
        }
        String[] a = ask("claim " + p.path()).split(" ");
        return Integer.parseInt(a[0]);
    }

    /** Sends a command without waiting for its answer (for a command that blocks until this JVM acts). */
    void send(String command) throws IOException {
        commands.write((command + "\n").getBytes(StandardCharsets.UTF_8));
    }

    /** @return the child's next line of output; fails if none comes within {@link #PATIENCE} */
    String reply() throws IOException {
        String line = lines.readLine();
        if (line == null) {
            throw new AssertionError("the child's output ended (exit status " + exitCode() + ")");
        }
        return line;
    }

    /** @return the child's lines of output up to the line {@code last} (which it leaves out) */
    List<String> linesUntil(String last) throws IOException {
        List<String> out = new ArrayList<>();
        for (String line; !(line = reply()).equals(last); ) {
            out.add(line);
        }
        return out;
    }

    /** @return the answer to {@code command} */
    String ask(String command) throws IOException {
        send(command);
        return reply();
    }

    /** @return the child's exit status (128 + signal if a signal ended it), waiting for it to exit */
    int exitCode() {
        try {
            if (!process.waitFor(PATIENCE.toMillis(), TimeUnit.MILLISECONDS)) {
                throw new AssertionError("child " + process.pid() + " did not exit within " + PATIENCE);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError("interrupted while waiting for child " + process.pid(), e);
        }
        return process.exitValue();
    }

    /** Kills the child with SIGKILL, as {@code kill -9}, and reaps it. */
    void kill() {
        process.destroyForcibly();
        exitCode();
    }

    @Override
    public void close() {
        commands.close();
        if (process.isAlive()) {
            kill();
        }
        exitCode();
        output.close();
    }

    /** Waits until every process entry other than this one's is claimed (no longer pending). */
    static void awaitClaimed(ShmPipe p) throws InterruptedException {
        long end = System.nanoTime() + PATIENCE.toNanos();
        for (;;) {
            boolean pending = false;
            for (int i = 0; i < p.region.layout.procs; i++) {
                long e = Layout.entry(i);
                pending |= p.region.getLong(e + Layout.E_ID) != 0 && p.region.getInt(e + Layout.E_PENDING) != 0;
            }
            if (!pending) {
                return;
            }
            if (System.nanoTime() > end) {
                throw new AssertionError("a child never claimed its handles");
            }
            Thread.sleep(5);
        }
    }
}
