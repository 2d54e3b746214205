package dev.sluice.lab.command;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class OutputsTest {

    /**
     * Opening a FIFO for writing blocks until a reader opens it, and a reader that is there sees end-of-file when
     * the check closes it again: the check must not open one at all. Before, {@code ./sluice lab run --json FIFO}
     * hung in the check when nobody read the FIFO yet.
     */
    @Test
    void aFifoIsNotOpenedByTheCheck(@TempDir Path dir) throws Exception {
        Path fifo = dir.resolve("report.fifo");
        assumeTrue(new ProcessBuilder("mkfifo", fifo.toString()).start().waitFor() == 0, "mkfifo");
        // A daemon thread: a check blocked in open(2) cannot be interrupted, and must not keep the JVM alive.
        CompletableFuture<Void> check = new CompletableFuture<>();
        Thread t = new Thread(() -> {
            try {
                Outputs.checkWritable(fifo, "--json");
                check.complete(null);
            } catch (Throwable e) {
                check.completeExceptionally(e);
            }
        });
        t.setDaemon(true);
        t.start();
        // Generous: the check does no waiting of its own, so only a blocked open can take this long.
        check.get(30, TimeUnit.SECONDS);
        assertThat(Files.isRegularFile(fifo)).as("still the FIFO, not replaced").isFalse();
        assertThat(Files.exists(fifo)).isTrue();
    }

    @Test
    void aFileInAFolderThatIsAFileIsRefused(@TempDir Path dir) throws Exception {
        Path file = Files.writeString(dir.resolve("plain"), "x");
        assertThatThrownBy(() -> Outputs.checkWritable(file.resolve("r.json"), "--json"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("--json: cannot create");
        assertThat(Files.readString(file)).isEqualTo("x");
    }
}
