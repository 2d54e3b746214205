package dev.sluice.lab.command;

import dev.sluice.lab.report.Analysis;
import dev.sluice.lab.report.HtmlFormat;
import dev.sluice.lab.report.JmhJsonFormat;
import dev.sluice.lab.report.JsonFormat;
import dev.sluice.lab.report.ReportFormat;
import dev.sluice.lab.report.TextFormat;
import dev.sluice.lab.run.Progress;
import picocli.CommandLine.Option;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;

/** Where a session's reports go and how the terminal shows it; shared by every command that runs or reports. */
public class ReportOptions {
    /** Creates the options, at their defaults. */
    public ReportOptions() {
        // nothing to set up
    }

    @Option(names = "--json", paramLabel = "FILE", description = "write the results as JSON (schema v1)")
    Path json;
    @Option(names = "--html", paramLabel = "FILE", description = "write a self-contained HTML report")
    Path html;
    @Option(names = "--jmh-json", paramLabel = "FILE",
            description = "write the results in JMH's JSON result format (for JMH tools and jmh.morethan.io)")
    Path jmhJson;
    @Option(names = "--jfr", paramLabel = "FILE",
            description = "record the runs with JDK Flight Recorder, Sluice's events (dev.sluice.*) enabled, into FILE")
    Path jfr;
    @Option(names = "--quiet", description = "no progress on stderr")
    boolean quiet;
    @Option(names = "--wide", description = "the wide tables: means, medians and context switches, a column per "
            + "target (may exceed 120 columns)")
    boolean wide;

    /** @throws IllegalArgumentException naming the option, if a report file cannot be written */
    void check() {
        Outputs.checkWritable(json, "--json");
        Outputs.checkWritable(html, "--html");
        Outputs.checkWritable(jmhJson, "--jmh-json");
        Outputs.checkWritable(jfr, "--jfr");
    }

    /** Work whose result a session reports. */
    @FunctionalInterface
    interface Work<T> {
        /** @return the result */
        T run() throws IOException;
    }

    /**
     * Does {@code work} under a Flight Recorder recording if {@code --jfr} asks for one: the JDK's default
     * settings with Sluice's events enabled (waits of 10 µs and longer, wake-ups, resizes, broken pipes),
     * written to the file afterwards, also if the work fails.
     *
     * @param err  stderr, for the "wrote" line
     * @param work the runs
     * @param <T>  what they give
     * @return what they gave
     * @throws IOException if the work fails, or the recording cannot be set up or written
     */
    <T> T recorded(PrintWriter err, Work<T> work) throws IOException {
        if (jfr == null) {
            return work.run();
        }
        try (jdk.jfr.Recording r = new jdk.jfr.Recording(jdk.jfr.Configuration.getConfiguration("default"))) {
            for (String event : new String[] {"PipeWait", "PipeWakeup", "PipeCapacityChange", "PipeBroken"}) {
                r.enable("dev.sluice." + event);
            }
            r.start();
            try {
                return work.run();
            } finally {
                r.stop();
                r.dump(jfr);
                if (!quiet) {
                    err.println("lab: wrote " + jfr);
                }
            }
        } catch (java.text.ParseException e) {
            throw new IOException("the JDK's default Flight Recorder settings cannot be read", e);
        }
    }

    /** {@return one updating line on a terminal, plain lines otherwise, nothing with --quiet} */
    Progress progress(PrintWriter err) {
        String tty = System.getProperty("sluice.lab.stderrIsTerminal");
        boolean terminal = tty != null ? Boolean.parseBoolean(tty)
                : System.console() != null && System.console().isTerminal();
        return Progress.choose(quiet, terminal, err);
    }

    /**
     * Prints the text report and writes the files asked for.
     *
     * @param a   the analysis
     * @param out stdout
     * @param err stderr, for the "wrote" lines
     * @throws IOException if a file cannot be written
     */
    void emit(Analysis a, PrintWriter out, PrintWriter err) throws IOException {
        new TextFormat(wide).write(a, out);
        out.flush();
        Map<Path, ReportFormat> files = new LinkedHashMap<>();
        if (json != null) {
            files.put(json, new JsonFormat());
        }
        if (html != null) {
            files.put(html, new HtmlFormat());
        }
        if (jmhJson != null) {
            files.put(jmhJson, new JmhJsonFormat());
        }
        for (Map.Entry<Path, ReportFormat> f : files.entrySet()) {
            f.getValue().write(a, f.getKey());
            if (!quiet) {
                err.println("lab: wrote " + f.getKey());
            }
        }
    }
}
