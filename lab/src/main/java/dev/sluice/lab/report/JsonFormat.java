package dev.sluice.lab.report;

import java.io.IOException;
import java.io.Writer;

/** The results file (schema {@code sluice-lab-results} v1, {@code lab/schema/results-v1.md}): every repetition. */
public final class JsonFormat implements ReportFormat {
    /** Creates the format. */
    public JsonFormat() {
        // nothing to set up
    }

    @Override
    public void write(Analysis analysis, Writer out) throws IOException {
        out.write(analysis.results().toJson());
        out.write(System.lineSeparator());
    }
}
