package dev.sluice.shm;

import dev.sluice.ReadEnd;
import dev.sluice.WriteEnd;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;

/**
 * The peer process of the cross-process tests, a JVM of its own. Modes:
 * <ul>
 *   <li>{@code write PATH WRITER COUNT}: claims a write handle and writes COUNT records (-1: until killed);</li>
 *   <li>{@code stall PATH}: claims a read handle and never reads;</li>
 *   <li>{@code copy IN OUT}: claims IN's read handle and OUT's write handle, copies until end-of-stream.</li>
 * </ul>
 */
public final class Child {
    private Child() {
    }

    public static void main(String[] args) throws Exception {
        Duration wait = Duration.ofSeconds(30);
        switch (args[0]) {
            case "write" -> {
                ShmPipe p = ShmPipe.claim(Path.of(args[1]), wait);
                int writer = Integer.parseInt(args[2]);
                long count = Long.parseLong(args[3]);
                try (WriteEnd out = p.writer()) {
                    for (int seq = 0; count < 0 || seq < count; seq++) {
                        out.write(Records.make(writer, seq));
                    }
                }
            }
            case "stall" -> {
                ShmPipe p = ShmPipe.claim(Path.of(args[1]), wait);
                if (!p.reader().isOpen()) {
                    throw new IllegalStateException("no read handle was handed over");
                }
                Thread.sleep(Long.MAX_VALUE);
            }
            case "copy" -> {
                ShmPipe in = ShmPipe.claim(Path.of(args[1]), wait);
                ShmPipe out = ShmPipe.claim(Path.of(args[2]), wait);
                copy(in.reader(), out.writer());
            }
            default -> throw new IllegalArgumentException(args[0]);
        }
    }

    private static void copy(ReadEnd in, WriteEnd out) throws IOException {
        try (in; out) {
            byte[] buf = new byte[5000];
            for (int n; (n = in.read(buf)) != -1; ) {
                out.write(buf, 0, n);
            }
        } catch (IOException e) {
            System.err.println(new String(("child copy failed: " + e).getBytes(StandardCharsets.UTF_8),
                    StandardCharsets.UTF_8));
            throw e;
        }
    }
}
