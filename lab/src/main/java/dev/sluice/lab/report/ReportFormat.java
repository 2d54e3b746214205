package dev.sluice.lab.report;

import java.io.IOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * One way of laying out an {@link Analysis}: the terminal's text, the HTML report, the results JSON, JMH's
 * JSON. A format only arranges what the analysis worked out.
 */
public interface ReportFormat {

    /**
     * Writes the report in this format.
     *
     * @param analysis what the session's results say
     * @param out      where the report goes
     * @throws IOException if writing fails
     */
    void write(Analysis analysis, Writer out) throws IOException;

    /**
     * Writes the report to a file, creating its folder.
     *
     * @param analysis what the session's results say
     * @param file     the file
     * @throws IOException if writing fails
     */
    default void write(Analysis analysis, Path file) throws IOException {
        Path parent = file.toAbsolutePath().getParent();
        if (parent != null) {
            Files.createDirectories(parent);
        }
        try (Writer w = Files.newBufferedWriter(file, StandardCharsets.UTF_8)) {
            write(analysis, w);
        }
    }

    /**
     * Renders the report in memory, as {@link #write(Analysis, Writer)} would write it.
     *
     * @param analysis what the session's results say
     * @return the report as a string
     */
    default String render(Analysis analysis) {
        java.io.StringWriter w = new java.io.StringWriter();
        try {
            write(analysis, w);
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
        return w.toString();
    }
}
