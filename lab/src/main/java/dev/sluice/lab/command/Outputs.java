package dev.sluice.lab.command;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * Checks, before anything runs, that a report can be written where the user asked. A FIFO (or a socket) is not
 * opened here: opening one for writing waits for a reader, and a reader already there would take the check's
 * close for the end of the report. It is opened once, when the report is written, as a shell redirection would.
 */
final class Outputs {
    private static final int S_IFMT = 0170000;
    private static final int S_IFIFO = 0010000;
    private static final int S_IFSOCK = 0140000;

    private Outputs() {
    }

    /**
     * @param file   the file asked for, or null
     * @param option the option it came from
     * @throws IllegalArgumentException naming the option, if the file cannot be written there
     */
    static void checkWritable(Path file, String option) {
        if (file == null) {
            return;
        }
        Path abs = file.toAbsolutePath();
        if (Files.isDirectory(abs)) {
            throw new IllegalArgumentException(option + ": " + file + " is a directory, not a file");
        }
        Path dir = abs.getParent();
        Path existing = dir;
        while (existing != null && !Files.exists(existing)) {
            existing = existing.getParent();
        }
        if (existing == null || !Files.isDirectory(existing)) {
            throw new IllegalArgumentException(option + ": cannot create " + dir + " (" + existing
                    + " is not a directory)");
        }
        try {
            Files.createDirectories(dir);
        } catch (IOException | SecurityException e) {
            throw new IllegalArgumentException(option + ": cannot create the folder " + dir + " (" + e + ")");
        }
        if (isFifoOrSocket(abs)) {
            return;
        }
        // Try it: permissions alone say nothing for root, nor for read-only or special file systems.
        boolean existed = Files.exists(abs);
        try (var out = Files.newOutputStream(abs, StandardOpenOption.CREATE, StandardOpenOption.APPEND)) {
            out.flush();
        } catch (IOException | SecurityException e) {
            throw new IllegalArgumentException(option + ": cannot write " + file + " (" + e.getClass().getSimpleName()
                    + (e.getMessage() == null ? "" : ": " + e.getMessage()) + ")");
        }
        // A device can open and still refuse every write (/dev/full): found now, not after the runs.
        String refused = WriteProbe.refusal(abs);
        if (refused != null) {
            throw new IllegalArgumentException(option + ": cannot write " + file + " (a write of it fails: " + refused
                    + ")");
        }
        if (!existed) {
            try {
                Files.deleteIfExists(abs);
            } catch (IOException e) {
                // an empty file left behind is harmless; it is overwritten at the end
            }
        }
    }

    private static boolean isFifoOrSocket(Path file) {
        try {
            int type = (Integer) Files.getAttribute(file, "unix:mode") & S_IFMT;
            return type == S_IFIFO || type == S_IFSOCK;
        } catch (IOException | RuntimeException e) {
            return false; // no such file yet, or no unix view: the open below is the check
        }
    }
}
