package dev.sluice.kernel;

import static java.nio.file.StandardOpenOption.CREATE;
import static java.nio.file.StandardOpenOption.TRUNCATE_EXISTING;
import static java.nio.file.StandardOpenOption.WRITE;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.sluice.ReadEnd;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Child processes whose standard streams are kernel pipe ends. */
class KernelProcessTest {
    @TempDir
    Path dir;

    static String readAll(ReadEnd in) throws IOException {
        ByteArrayOutputStream all = new ByteArrayOutputStream();
        byte[] buf = new byte[8192];
        for (int n; (n = in.read(buf)) != -1; ) {
            all.write(buf, 0, n);
        }
        in.close();
        return all.toString(StandardCharsets.UTF_8);
    }

    @Test
    void aChildWritesIntoAPipeAndItsExitIsTheReadersEndOfStream() throws Exception {
        KernelPipe p = KernelPipe.open();
        KernelProcess child = KernelProcess.command("printf", "hello\\nworld\\n").stdout(p.writer()).start();
        assertThat(p.writer().isOpen()).as("handed over: the parent's copy is closed").isFalse();
        assertThat(readAll(p.reader())).isEqualTo("hello\nworld\n");
        assertThat(child.waitFor()).isZero();
        assertThat(child.isAlive()).isFalse();
    }

    @Test
    void aChildReadsFromAPipeUntilTheParentCloses() throws Exception {
        KernelPipe in = KernelPipe.open();
        KernelPipe out = KernelPipe.open();
        KernelProcess tr = KernelProcess.command("tr", "a-z", "A-Z").stdin(in.reader()).stdout(out.writer()).start();
        in.writer().write("sluice pipes\n".getBytes(StandardCharsets.UTF_8));
        in.writer().close(); // EOF for tr
        assertThat(readAll(out.reader())).isEqualTo("SLUICE PIPES\n");
        assertThat(tr.waitFor()).isZero();
    }

    @Test
    void twoChildrenConnectedThroughASluicePipeFormAPipeline() throws Exception {
        // printf ... | sort | (this JVM)
        KernelPipe between = KernelPipe.open();
        KernelPipe result = KernelPipe.open();
        KernelProcess producer = KernelProcess.command("printf", "pear\\napple\\nfig\\n")
                .stdout(between.writer()).start();
        KernelProcess sort = KernelProcess.command("sort").stdin(between.reader()).stdout(result.writer()).start();
        assertThat(readAll(result.reader())).isEqualTo("apple\nfig\npear\n");
        assertThat(producer.waitFor()).isZero();
        assertThat(sort.waitFor()).isZero();
    }

    @Test
    void aChildsOutputIsSplicedIntoAFileWithoutPassingThroughJava() throws Exception {
        KernelPipe p = KernelPipe.open();
        // 200 000 lines, far more than a pipe holds.
        KernelProcess seq = KernelProcess.command("seq", "1", "200000").stdout(p.writer()).start();
        Path file = dir.resolve("seq.txt");
        try (KernelFile f = KernelFile.open(file, WRITE, CREATE, TRUNCATE_EXISTING)) {
            KernelSplice.drain(p.reader(), f);
        }
        assertThat(seq.waitFor()).isZero();
        StringBuilder expected = new StringBuilder();
        for (int i = 1; i <= 200_000; i++) {
            expected.append(i).append('\n');
        }
        assertThat(Files.readString(file)).isEqualTo(expected.toString());
    }

    @Test
    void stderrCanShareStdoutsPipe() throws Exception {
        KernelPipe p = KernelPipe.open();
        KernelProcess sh = KernelProcess.command("sh", "-c", "echo out; echo err 1>&2")
                .stdout(p.writer()).stderr(p.writer()).start();
        assertThat(readAll(p.reader())).isEqualTo("out\nerr\n");
        assertThat(sh.waitFor()).isZero();
    }

    @Test
    void theExitStatusIsReportedAsAShellDoes() throws Exception {
        assertThat(KernelProcess.command("sh", "-c", "exit 3").start().waitFor()).isEqualTo(3);
        KernelProcess sleeper = KernelProcess.command("sleep", "30").start();
        assertThat(sleeper.waitFor(Duration.ofMillis(10))).as("still running").isFalse();
        sleeper.kill(9);
        assertThat(sleeper.waitFor()).as("killed by SIGKILL").isEqualTo(128 + 9);
    }

    @Test
    void aWriterIntoAClosedPipeDiesOfSigpipeAsUnderAShell() throws Exception {
        // yes | head -c 5: head exits, yes gets SIGPIPE (the JVM's own SIGPIPE handling is not inherited).
        KernelPipe p = KernelPipe.open();
        KernelPipe out = KernelPipe.open();
        KernelProcess yes = KernelProcess.command("yes").stdout(p.writer()).start();
        KernelProcess head = KernelProcess.command("head", "-c", "5").stdin(p.reader()).stdout(out.writer()).start();
        assertThat(readAll(out.reader())).isEqualTo("y\ny\ny");
        assertThat(head.waitFor()).isZero();
        assertThat(yes.waitFor()).as("128 + SIGPIPE").isEqualTo(128 + 13);
    }

    @Test
    void theChildHoldsOnlyTheDescriptorsItWasGiven() throws Exception {
        KernelPipe p = KernelPipe.open();
        KernelPipe unrelated = KernelPipe.open(); // must not leak into the child
        KernelProcess ls = KernelProcess.command("sh", "-c", "ls /proc/self/fd").stdout(p.writer()).start();
        String fds = readAll(p.reader());
        assertThat(ls.waitFor()).isZero();
        // 0, 1, 2, and the descriptor ls opened for the directory it lists.
        assertThat(fds.strip().split("\n")).hasSizeLessThanOrEqualTo(4).contains("0", "1", "2");
        unrelated.reader().close();
        unrelated.writer().close();
    }

    @Test
    void badInputStartsNothing() throws Exception {
        KernelPipe p = KernelPipe.open();
        assertThatThrownBy(() -> KernelProcess.command("/no/such/program").stdout(p.writer()).start())
                .isInstanceOf(IOException.class).hasMessageContaining("ENOENT");
        KernelPipe q = KernelPipe.open();
        q.writer().close();
        assertThatThrownBy(() -> KernelProcess.command("true").stdout(q.writer()).start())
                .isInstanceOf(java.nio.channels.ClosedChannelException.class);
        assertThatThrownBy(() -> KernelProcess.command("true").stdout(dev.sluice.Pipe.open().writer()))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("kernel pipe");
        assertThatThrownBy(KernelProcess::command).isInstanceOf(IllegalArgumentException.class);
        p.reader().close();
        q.reader().close();
    }
}
