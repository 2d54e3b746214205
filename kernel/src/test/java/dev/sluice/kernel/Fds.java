package dev.sluice.kernel;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Function;
import java.util.stream.Collectors;
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

    /**
     * The descriptors open now that were not open at {@code before}, judged by what they refer to, not by
     * their numbers: a pipe first seen now, or one more of a kind of file than before (a pidfd, an epoll
     * instance, a path). Numbers are not compared because earlier tests' leftovers come and go beside a test:
     * the cleaner closes what they dropped (their numbers are then reused), and their threads may still hold
     * a second descriptor of their own pipes, which this test never made.
     *
     * @return the new descriptors and their targets; empty when the test left none behind
     */
    static List<String> newSince(Map<Integer, String> before) throws IOException {
        Map<String, Long> had = before.values().stream()
                .collect(Collectors.groupingBy(Function.identity(), TreeMap::new, Collectors.counting()));
        Map<String, Long> seen = new TreeMap<>();
        return snapshot().entrySet().stream().filter(e -> {
            String target = e.getValue();
            long n = seen.merge(target, 1L, Long::sum);
            Long h = had.get(target);
            return h == null || (!target.startsWith("pipe:") && n > h);
        }).map(e -> e.getKey() + "=" + e.getValue()).toList();
    }
}
