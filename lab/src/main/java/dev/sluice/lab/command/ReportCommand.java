package dev.sluice.lab.command;

import dev.sluice.lab.report.Analysis;
import dev.sluice.lab.report.Results;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

import java.io.IOException;
import java.nio.file.Path;
import java.util.concurrent.Callable;

/** {@code lab report RESULTS.json}: the tables again, and the HTML or JMH report, from a results file. */
@Command(name = "report", description = "Reads results JSON, prints the tables and writes the HTML or JMH report.")
public final class ReportCommand implements Callable<Integer> {
    /** Creates the command; picocli fills in its options. */
    public ReportCommand() {
        // nothing to set up
    }

    @Spec
    CommandLine.Model.CommandSpec spec;
    @Parameters(index = "0", paramLabel = "RESULTS.json")
    Path input;
    @CommandLine.Mixin
    ReportOptions reports = new ReportOptions();

    @Override
    public Integer call() throws IOException {
        reports.check();
        Results r = Results.read(input);
        reports.emit(Analysis.of(r), spec.commandLine().getOut(), spec.commandLine().getErr());
        return 0;
    }
}
