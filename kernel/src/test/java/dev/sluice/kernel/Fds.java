package dev.sluice.kernel;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;

/** Counts this JVM's open descriptors through {@code /proc/self/fd}. */
final class Fds {
    private Fds() {
    }

    /**
     * @return this JVM's open descriptors and what each refers to ({@code pipe:[1234]}, a path); a
     *         descriptor closed while the directory is read is left out
     */
    static java.util.Map<Integer, String> snapshot() throws IOException {
        java.util.Map<Integer, String> m = new java.util.TreeMap<>();
        String self = "/proc/" + ProcessHandle.current().pid() + "/fd";
        try (var dir = Files.newDirectoryStream(Path.of("/proc/self/fd"))) {
            for (Path fd : dir) {
                try {
                    String target = Files.readSymbolicLink(fd).toString();
                    if (!target.equals(self)) { // the directory stream's own descriptor
                        m.put(Integer.parseInt(fd.getFileName().toString()), target);
                    }
                } catch (IOException gone) {
                    // one another thread closed meanwhile
                }
            }
        }
        return m;
    }

    static long count() throws IOException {
        try (Stream<Path> s = Files.list(Path.of("/proc/self/fd"))) {
            return s.count() - 1; // the directory stream's own descriptor
        }
    }
}
