package dev.sluice.kernel;

import static dev.sluice.kernel.KernelProcessTest.readAll;
import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.sluice.kernel.KernelProcessBuilderTest.Kind;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * A real client of pipes passed by number: GNU make's jobserver. A kernel pipe holds the job tokens, and
 * {@code make} (and its recursive sub-make) get it as descriptors 3 and 4, named by
 * {@code MAKEFLAGS=-jN --jobserver-auth=3,4}, as a parent make would hand them over.
 *
 * <p>The protocol: every make has one implicit token (for a top make it is the job slot the user gave
 * it; for a sub-make, the token its parent holds for the recipe that runs it), and takes one more from
 * the pipe for each further job it runs at once, writing it back when that job ends. So this JVM plays
 * the parent: it fills the pipe with N tokens and takes one for the job that runs make, which is make's
 * implicit token; at most N jobs then run at once in make and its sub-makes together, and once make has
 * exited and this JVM has put its own token back, the pipe holds N tokens again.
 *
 * <p>Each job appends a start line and an end line to one log ({@code O_APPEND}, so the file's order is
 * the order the lines were written in); a job writes its start after it began and its end before it ended,
 * so the most jobs between a start and an end in that order is at most the most that ran at once. A
 * barrier of N jobs, each waiting (up to a minute) until all N have started, shows that N do run at once:
 * the log must show exactly N, never N + 1.
 */
class MakeJobserverTest {
    private static final int N = 3;
    private static final int JOBS = 12;
    private static final int SUB_JOBS = 6;

    @TempDir
    Path dir;

    @BeforeAll
    static void needsGnuMake() throws Exception {
        assumeTrue(Platform.OS.toLowerCase(Locale.ROOT).startsWith("linux"),
                "the jobserver test needs Linux (kernel pipes), not " + Platform.OS);
        String version;
        try {
            Process p = new ProcessBuilder("make", "--version").redirectErrorStream(true).start();
            version = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            p.waitFor();
        } catch (java.io.IOException e) {
            version = "";
        }
        assumeTrue(version.startsWith("GNU Make"), "the jobserver test needs GNU make on PATH (.ci/run installs "
                + "it; apt-get install make): 'make --version' gave " + (version.isEmpty() ? "nothing" : version));
    }

    @ParameterizedTest
    @EnumSource(Kind.class)
    void makeAndItsSubMakeRunAtMostNJobsAndGiveEveryTokenBack(Kind kind) throws Exception {
        writeMakefiles();
        KernelPipe tokens = KernelPipe.open();
        tokens.writer().write("+".repeat(N).getBytes(StandardCharsets.US_ASCII));
        byte[] mine = new byte[1];
        assertThat(tokens.reader().read(mine)).as("this JVM's token for the job that runs make").isEqualTo(1);
        KernelPipe out = KernelPipe.open();
        KernelProcess make = KernelProcess.command("make", "--no-print-directory").directory(dir)
                .putEnv("MAKEFLAGS", "-j" + N + " --jobserver-auth=3,4")
                .fd(3, tokens.reader().dup()).fd(4, tokens.writer().dup())
                .stdout(out.writer()).redirectErrorStream(true).start();
        String output = kind.run(() -> readAll(out.reader()));
        assertThat(kind.<Integer>run(make::waitFor)).as("make's status; it said:%n%s", output).isZero();
        assertThat(output).as("make used the jobserver it was given").doesNotContainIgnoringCase("warning")
                .doesNotContain("jobserver unavailable").doesNotContain("resetting jobserver");

        tokens.writer().write(mine);
        tokens.reader().setNonBlocking(true);
        byte[] back = new byte[2 * N];
        int n = tokens.reader().read(back);
        assertThat(new String(back, 0, Math.max(n, 0), StandardCharsets.US_ASCII)).as("every token came back")
                .isEqualTo("+".repeat(N));

        List<String> log = Files.readAllLines(dir.resolve("log"));
        assertThat(maxAtOnce(log)).as("most jobs at once, by the log:%n%s", log).isEqualTo(N);
        assertThat(log).as("every job of make and of its sub-make ran").hasSize(2 * (JOBS + N + SUB_JOBS));
        assertThat(Files.readString(dir.resolve("subflags"))).as("the sub-make was handed the same pipe")
                .contains("--jobserver-auth=3,4");
        KernelDefectsTest.close(tokens);
    }

    /** Sweeps the log in file order: +1 at each start, -1 at each end. */
    private static int maxAtOnce(List<String> log) {
        int now = 0;
        int max = 0;
        Set<String> running = new HashSet<>();
        for (String line : log) {
            String job = line.substring(2);
            if (line.startsWith("+ ")) {
                assertThat(running.add(job)).as("%s started twice", job).isTrue();
                max = Math.max(max, ++now);
            } else {
                assertThat(running.remove(job)).as("%s ended before it started", job).isTrue();
                now--;
            }
        }
        assertThat(running).as("jobs that never ended").isEmpty();
        return max;
    }

    private void writeMakefiles() throws Exception {
        // Each recipe line is one shell; $$ is a $ for the shell. A barrier job waits (at most a minute)
        // until all N barrier jobs have started; the rest sleep a little so that jobs overlap.
        String job = "\t@echo \"+ $@\" >> log; sleep 0.05; echo \"- $@\" >> log\n";
        String barrier = "\t@echo \"+ $@\" >> log; touch barrier/$@; i=0; "
                + "while [ $$(ls barrier | wc -l) -lt " + N + " ]; do i=$$((i+1)); [ $$i -lt 6000 ] || exit 1; "
                + "sleep 0.01; done; echo \"- $@\" >> log\n";
        StringBuilder top = new StringBuilder(".PHONY: all sub\n");
        top.append("JOBS := $(foreach i,$(shell seq 1 ").append(JOBS).append("),job$(i))\n");
        top.append("BARRIER := $(foreach i,$(shell seq 1 ").append(N).append("),barrier$(i))\n");
        top.append("all: $(BARRIER) $(JOBS) sub\n");
        top.append("$(JOBS):\n").append(job);
        top.append("$(BARRIER):\n").append(barrier);
        top.append("sub:\n\t@echo \"$$MAKEFLAGS\" > subflags\n\t+@$(MAKE) -f sub.mk\n");
        Files.createDirectories(dir.resolve("barrier"));
        Files.writeString(dir.resolve("Makefile"), top.toString());
        String sub = "SUB := $(foreach i,$(shell seq 1 " + SUB_JOBS + "),subjob$(i))\nall: $(SUB)\n$(SUB):\n" + job;
        Files.writeString(dir.resolve("sub.mk"), sub);
    }
}
