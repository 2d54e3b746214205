package dev.sluice.shm;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The README's "Between JVMs" example, run as written there: a child started with {@link ProcessBuilder}, the
 * read handle handed over to it, the parent's bytes streamed through and end-of-stream on close. The one change
 * is that the child's standard output is captured instead of inherited, to compare it with what was written.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class ReadmeExampleTest {

    /** The README's consumer: claims the read handle named by its argument and copies it to standard output. */
    public static final class Consumer {
        private Consumer() {
        }

        /**
         * @param args the pipe's path
         * @throws IOException if the pipe cannot be claimed or read
         */
        public static void main(String[] args) throws IOException {
            try (InputStream in = ShmPipe.claim(Path.of(args[0]), Duration.ofSeconds(30)).reader()
                    .asInputStream()) {
                in.transferTo(System.out);
            }
        }
    }

    @Test
    void aParentStreamsToAChildJvmThatSeesEndOfStreamAfterTheClose() throws Exception {
        byte[] data = Child.pattern(300_000); // several rings' worth, and not a multiple of a page
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        String cp = System.getProperty("java.class.path");
        ShmPipe pipe = ShmPipe.create();
        Process child = new ProcessBuilder(List.of(java, "--enable-native-access=ALL-UNNAMED", "-cp", cp,
                Consumer.class.getName(), pipe.path().toString()))
                .redirectError(ProcessBuilder.Redirect.INHERIT).start();
        try {
            // Drained beside the writes: the child blocks on a full standard output otherwise, and so would we.
            CompletableFuture<byte[]> out = CompletableFuture.supplyAsync(() -> {
                try {
                    return child.getInputStream().readAllBytes();
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            });
            pipe.handOver(pipe.reader(), child.toHandle());
            try (OutputStream o = pipe.writer().asOutputStream()) {
                o.write(data);
            }
            assertThat(out.get(30, TimeUnit.SECONDS)).isEqualTo(data);
            assertThat(child.waitFor(30, TimeUnit.SECONDS)).as("the child exits at end-of-stream").isTrue();
            assertThat(child.exitValue()).isZero();
            assertThat(pipe.reader().isOpen()).as("handed over: ours is closed").isFalse();
        } finally {
            child.destroyForcibly();
            pipe.close();
        }
    }
}
