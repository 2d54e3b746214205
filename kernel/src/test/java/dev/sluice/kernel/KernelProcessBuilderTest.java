package dev.sluice.kernel;

import static dev.sluice.kernel.KernelProcessTest.readAll;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.File;
import java.io.IOException;
import java.lang.ProcessBuilder.Redirect;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** What a ProcessBuilder user expects of KernelProcess (issue 14, section 3). */
class KernelProcessBuilderTest {
    @TempDir
    Path dir;

    /** Runs a blocking check on a platform or a virtual thread. */
    enum Kind {
        PLATFORM, VIRTUAL;

        <T> T run(Callable<T> body) throws Exception {
            AtomicReference<Object> result = new AtomicReference<>();
            Thread.Builder b = this == PLATFORM ? Thread.ofPlatform() : Thread.ofVirtual();
            Thread t = b.start(() -> {
                try {
                    result.set(body.call());
                } catch (Throwable e) {
                    result.set(e);
                }
            });
            t.join();
            if (result.get() instanceof Exception e) {
                throw e;
            }
            if (result.get() instanceof Error e) {
                throw e;
            }
            @SuppressWarnings("unchecked")
            T r = (T) result.get();
            return r;
        }
    }

    private static String output(KernelProcessBuilder b) throws Exception {
        KernelPipe p = KernelPipe.open();
        KernelProcess child = b.stdout(p.writer()).start();
        String out = readAll(p.reader());
        assertThat(child.waitFor()).as("exit status of %s", b.command()).isZero();
        return out;
    }

    // ---- environment ----------------------------------------------------------------------------------

    @Test
    void theEnvironmentIsInheritedPutRemovedAndCleared() throws Exception {
        String path = System.getenv("PATH");
        assertThat(output(KernelProcess.command("sh", "-c", "echo \"$PATH\""))).isEqualTo(path + "\n");
        assertThat(output(KernelProcess.command("sh", "-c", "echo \"$SLUICE_X|${PATH:+set}\"")
                .putEnv("SLUICE_X", "x y \u00e9"))).isEqualTo("x y \u00e9|set\n");
        assertThat(output(KernelProcess.command("env").removeEnv("PATH")).split("\n"))
                .as("PATH removed: the program is still found on the JVM's PATH").isNotEmpty()
                .noneMatch(line -> line.startsWith("PATH="));
        assertThat(output(KernelProcess.command("env").clearEnv().putEnv("A", "1").putEnv("B", "")))
                .isEqualTo("A=1\nB=\n");
        assertThat(output(KernelProcess.command("env").clearEnv().inheritEnv())).contains("PATH=" + path);
        KernelProcessBuilder b = KernelProcess.command("env").clearEnv();
        b.environment().put("C", "3");
        b.environment().remove("C");
        assertThat(output(b)).isEmpty();
    }

    @Test
    void environmentEntriesAChildCannotGetAreRefusedAndChangeNothing() {
        KernelProcessBuilder b = KernelProcess.command("env").clearEnv().putEnv("A", "1");
        Map<String, String> env = b.environment();
        assertThatThrownBy(() -> env.put("X=Y", "1")).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("'='");
        assertThatThrownBy(() -> env.put("", "1")).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> b.putEnv("N", "a\0b")).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("\"N\"").hasMessageContaining("NUL");
        assertThatThrownBy(() -> b.putEnv("S\uDC00", "v")).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("surrogate");
        assertThatThrownBy(() -> b.putEnv("L", "v".repeat(200_000))).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("MAX_ARG_STRLEN");
        assertThatThrownBy(() -> b.putEnv(null, "v")).isInstanceOf(NullPointerException.class);
        assertThat(env).containsExactly(Map.entry("A", "1"));
    }

    // ---- working directory ----------------------------------------------------------------------------

    @Test
    void theWorkingDirectoryIsTheChildsOwn() throws Exception {
        Path real = dir.toRealPath();
        assertThat(output(KernelProcess.command("pwd").directory(real))).isEqualTo(real + "\n");
        assertThat(KernelProcess.command("pwd").directory(real).directory()).isEqualTo(real);
        Path missing = dir.resolve("missing");
        KernelPipe p = KernelPipe.open();
        assertThatThrownBy(() -> KernelProcess.command("pwd").directory(missing).stdout(p.writer()).start())
                .isInstanceOf(IOException.class).hasMessageContaining(missing.toString())
                .hasMessageContaining("ENOENT").hasMessageContaining("directory does not exist");
        assertThat(p.writer().isOpen()).as("a refused start hands nothing over").isTrue();
        KernelDefectsTest.close(p);
    }

    // ---- redirects ------------------------------------------------------------------------------------

    @Test
    void standardStreamsComeFromAndGoToFiles() throws Exception {
        Path in = Files.writeString(dir.resolve("in.txt"), "b\na\n");
        Path out = dir.resolve("out.txt");
        KernelProcess sort = KernelProcess.command("sort").stdin(Redirect.from(in.toFile()))
                .stdout(Redirect.to(out.toFile())).start();
        assertThat(sort.waitFor()).isZero();
        assertThat(Files.readString(out)).isEqualTo("a\nb\n");
        Path log = dir.resolve("log.txt");
        for (String word : new String[] {"one", "two"}) {
            KernelProcess echo = KernelProcess.command("sh", "-c", "echo " + word + "; echo " + word + "! >&2")
                    .stdout(Redirect.appendTo(log.toFile())).stderr(Redirect.appendTo(log.toFile())).start();
            assertThat(echo.waitFor()).isZero();
        }
        assertThat(Files.readString(log)).isEqualTo("one\none!\ntwo\ntwo!\n");
        KernelProcess quiet = KernelProcess.command("sh", "-c", "echo lost; echo lost >&2")
                .stdout(Redirect.DISCARD).stderr(Redirect.DISCARD).start();
        assertThat(quiet.waitFor()).isZero();
        assertThat(output(KernelProcess.command("sh", "-c", "echo kept").stdin(Redirect.INHERIT)))
                .isEqualTo("kept\n");
    }

    @Test
    void redirectsThatMakeNoSenseAreRefused() throws Exception {
        File f = dir.resolve("f").toFile();
        KernelProcessBuilder b = KernelProcess.command("true");
        assertThatThrownBy(() -> b.stdin(Redirect.to(f))).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> b.stdout(Redirect.from(f))).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> b.stderr(Redirect.PIPE)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("kernel pipe");
        assertThatThrownBy(() -> b.stdout(Redirect.to(new File("a\0b")))).isInstanceOf(IllegalArgumentException.class);
        KernelPipe p = KernelPipe.open();
        Path missing = dir.resolve("no/such/file");
        assertThatThrownBy(() -> KernelProcess.command("cat").stdin(Redirect.from(missing.toFile()))
                .stdout(p.writer()).start()).isInstanceOf(IOException.class)
                .hasMessageContaining(missing.toString()).hasMessageContaining("standard input")
                .hasMessageContaining("ENOENT");
        assertThat(p.writer().isOpen()).isTrue();
        KernelDefectsTest.close(p);
    }

    @Test
    void standardErrorMergesIntoStandardOutput() throws Exception {
        KernelPipe p = KernelPipe.open();
        KernelPipe ignored = KernelPipe.open();
        KernelProcess sh = KernelProcess.command("sh", "-c", "echo out; echo err >&2; echo out2")
                .stdout(p.writer()).stderr(ignored.writer()).redirectErrorStream(true).start();
        assertThat(readAll(p.reader())).isEqualTo("out\nerr\nout2\n");
        assertThat(sh.waitFor()).isZero();
        assertThat(ignored.writer().isOpen()).as("what stderr() set is ignored, not handed over").isTrue();
        KernelDefectsTest.close(ignored);
        Path both = dir.resolve("both.txt");
        KernelProcess toFile = KernelProcess.command("sh", "-c", "echo a; echo b >&2")
                .stdout(Redirect.to(both.toFile())).redirectErrorStream(true).start();
        assertThat(toFile.waitFor()).isZero();
        assertThat(Files.readString(both)).isEqualTo("a\nb\n");
    }

    // ---- extra descriptors ----------------------------------------------------------------------------

    @Test
    void anyEndCanBeHandedToTheChildAsDescriptorN() throws Exception {
        KernelPipe toChild = KernelPipe.open();
        KernelPipe fromChild = KernelPipe.open();
        KernelPipe listing = KernelPipe.open();
        toChild.writer().write("ping\n".getBytes(StandardCharsets.US_ASCII));
        toChild.writer().close();
        // dash redirects only descriptors 0-9 itself: reach 100 through /proc.
        KernelProcess sh = KernelProcess.command("sh", "-c",
                        "read x <&7; echo \"$x pong\" > /proc/self/fd/100; ls /proc/self/fd")
                .fd(7, toChild.reader()).fd(100, fromChild.writer()).stdout(listing.writer()).start();
        assertThat(toChild.reader().isOpen()).as("handed over").isFalse();
        assertThat(readAll(fromChild.reader())).isEqualTo("ping pong\n");
        String fds = readAll(listing.reader());
        assertThat(sh.waitFor()).isZero();
        // 0-2, 7, 100, and the one ls opens to list the directory: no gap below 100 is left open.
        assertThat(fds.strip().split("\n")).contains("0", "1", "2", "7", "100").hasSizeLessThanOrEqualTo(6);
        assertThatThrownBy(() -> KernelProcess.command("true").fd(2, fromChild.reader()))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("stderr");
        assertThatThrownBy(() -> KernelProcess.command("true").fd(1 << 20, fromChild.reader()))
                .isInstanceOf(IllegalArgumentException.class);
    }

    // ---- exit, signals, handles -----------------------------------------------------------------------

    @ParameterizedTest
    @EnumSource(Kind.class)
    void destroyEndsTheChildAndWaitsEndOnItsExit(Kind kind) throws Exception {
        KernelProcess term = KernelProcess.command("sleep", "30").start();
        assertThat(term.isAlive()).isTrue();
        assertThatThrownBy(term::exitValue).isInstanceOf(IllegalThreadStateException.class);
        assertThat(kind.run(() -> term.waitFor(10, TimeUnit.MILLISECONDS))).isFalse();
        term.destroy();
        assertThat(kind.<Integer>run(term::waitFor)).as("SIGTERM").isEqualTo(128 + 15);
        assertThat(term.exitValue()).isEqualTo(128 + 15);
        KernelProcess kill = KernelProcess.command("sh", "-c", "trap '' TERM; sleep 30").start();
        assertThat(kill.supportsNormalTermination()).isTrue();
        assertThat(kill.destroyForcibly()).isSameAs(kill);
        assertThat(kind.run(() -> kill.waitFor(30, TimeUnit.SECONDS))).isTrue();
        assertThat(kill.exitValue()).as("SIGKILL").isEqualTo(128 + 9);
        kill.destroy(); // after the exit: nothing, and no signal to a process that reused the pid
    }

    @ParameterizedTest
    @EnumSource(Kind.class)
    void onExitCompletesOnAPoolThreadOnceTheChildIsReaped(Kind kind) throws Exception {
        KernelPipe go = KernelPipe.open();
        KernelProcess child = KernelProcess.command("sh", "-c", "read x; exit 7").stdin(go.reader()).start();
        AtomicReference<String> thread = new AtomicReference<>();
        CompletableFuture<Process> exit = child.onExit();
        CompletableFuture<Process> other = child.onExit();
        CompletableFuture<Integer> status = exit.thenApply(p -> {
            thread.set(Thread.currentThread().getName());
            return p.exitValue();
        });
        other.cancel(false);
        assertThat(exit).isNotDone();
        go.writer().write("\n".getBytes(StandardCharsets.US_ASCII));
        assertThat(kind.<Integer>run(status::get)).isEqualTo(7);
        assertThat(exit.get()).isSameAs(child);
        assertThat(thread.get()).doesNotStartWith("sluice-kernel-poller");
        assertThat(Files.exists(Path.of("/proc/" + child.pid()))).as("reaped without a waitFor: no zombie")
                .isFalse();
        assertThat(child.onExit().get()).as("after the exit").isSameAs(child);
        KernelDefectsTest.close(go);
    }

    @Test
    void pidAndToHandleNameTheChild() throws Exception {
        KernelPipe go = KernelPipe.open();
        KernelProcess child = KernelProcess.command("cat").stdin(go.reader()).start();
        ProcessHandle h = child.toHandle();
        assertThat(h.pid()).isEqualTo(child.pid()).isPositive();
        assertThat(h.isAlive()).isTrue();
        assertThat(h.parent().map(ProcessHandle::pid)).contains(ProcessHandle.current().pid());
        assertThat(child.info().command().orElse("cat")).endsWith("cat");
        Process asProcess = child;
        assertThat(asProcess.getInputStream().read()).isEqualTo(-1);
        assertThat(asProcess.getErrorStream().read()).isEqualTo(-1);
        assertThatThrownBy(() -> asProcess.getOutputStream().write(1)).isInstanceOf(IOException.class);
        go.writer().close();
        assertThat(asProcess.waitFor()).isZero();
        assertThat(h.isAlive()).isFalse();
        assertThat(child.toHandle()).isSameAs(h);
        assertThat(child.toString()).contains(String.valueOf(child.pid())).contains("exited 0");
    }
}
