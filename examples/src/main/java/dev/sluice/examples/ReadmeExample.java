package dev.sluice.examples;

import dev.sluice.BrokenPipeException;
import dev.sluice.Pipe;
import dev.sluice.ReadEnd;
import dev.sluice.WriteEnd;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.List;

/**
 * The README's usage example, kept here so that it compiles and is tested: a virtual-thread producer
 * writes lines into a pipe and a reader consumes them through an {@code InputStream}.
 */
public final class ReadmeExample {
    private ReadmeExample() {
    }

    /**
     * Writes {@code count} lines through a pipe and returns what the reader got.
     *
     * @param count lines to write
     * @return the lines read
     * @throws Exception if the producer or the reader fails
     */
    public static List<String> lines(int count) throws Exception {
        Pipe pipe = Pipe.open();                                  // pipe(2): 16 pages = 64 KiB, blocking
        WriteEnd out = pipe.writer();
        ReadEnd in = pipe.reader();

        Thread producer = Thread.ofVirtual().start(() -> {
            try (out) {                                           // the last writer's close is the reader's EOF
                for (int i = 0; i < count; i++) {
                    out.write(("line " + i + "\n").getBytes(StandardCharsets.UTF_8)); // <= 4096 bytes: atomic
                }
            } catch (BrokenPipeException e) {                     // every reader closed (EPIPE)
                System.err.println("reader went away after " + e.bytesTransferred() + " bytes of the last write");
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        });

        List<String> result;
        try (in; var lines = new BufferedReader(new InputStreamReader(in.asInputStream(), StandardCharsets.UTF_8))) {
            result = lines.lines().toList();
        }
        producer.join();
        return result;
    }

    /**
     * Prints ten lines that went through a pipe.
     *
     * @param args ignored
     * @throws Exception if the example fails
     */
    public static void main(String[] args) throws Exception {
        lines(10).forEach(System.out::println);
    }
}
