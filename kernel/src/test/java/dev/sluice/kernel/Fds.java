package dev.sluice.kernel;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;

/** Counts this JVM's open descriptors through {@code /proc/self/fd}. */
final class Fds {
    private Fds() {
    }

    static long count() throws IOException {
        try (Stream<Path> s = Files.list(Path.of("/proc/self/fd"))) {
            return s.count() - 1; // the directory stream's own descriptor
        }
    }
}
