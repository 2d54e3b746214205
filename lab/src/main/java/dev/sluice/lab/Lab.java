package dev.sluice.lab;

import dev.sluice.lab.command.CompareCommand;
import dev.sluice.lab.command.ListCommand;
import dev.sluice.lab.command.ReportCommand;
import dev.sluice.lab.command.ReproduceCommand;
import dev.sluice.lab.command.RunCommand;
import dev.sluice.lab.report.Results;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Spec;

import java.io.IOException;
import java.io.PrintWriter;
import java.util.concurrent.Callable;

/** The lab's command line: {@code list}, {@code run}, {@code compare}, {@code report}, {@code reproduce}. */
// INHERIT hands -h/--help and -V/--version to every subcommand, so a new subcommand cannot forget them.
@Command(name = "lab", scope = CommandLine.ScopeType.INHERIT, mixinStandardHelpOptions = true,
        version = "sluice lab, results schema v" + Results.VERSION,
        description = "Runs the kernel list's pipe workloads on Sluice, kernel, JDK and Okio pipes, prints the "
                + "comparison, and re-runs the kernel-list findings (lab reproduce).",
        subcommands = {ListCommand.class, RunCommand.class, CompareCommand.class, ReportCommand.class,
            ReproduceCommand.class})
public final class Lab implements Callable<Integer> {
    /** Creates the top command; picocli fills in its options. */
    public Lab() {
        // nothing to set up
    }

    /** Exit code for bad arguments: one line on stderr, before anything ran. */
    public static final int USAGE = 2;
    /** Exit code when a run failed its self-check, or a report could not be written. */
    public static final int FAILED = 1;

    @Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() {
        spec.commandLine().usage(spec.commandLine().getOut());
        return 0;
    }

    /**
     * Runs the lab from the command line ({@code java -jar sluice-lab-*-all.jar}) and exits with its code.
     *
     * @param args the command line
     */
    public static void main(String[] args) {
        System.exit(execute(args, new PrintWriter(System.out, true), new PrintWriter(System.err, true)));
    }

    /**
     * Runs the command line with the given output streams.
     *
     * @param args the command line
     * @param out  stdout
     * @param err  stderr
     * @return the exit code
     */
    public static int execute(String[] args, PrintWriter out, PrintWriter err) {
        CommandLine cl = new CommandLine(new Lab());
        cl.setOut(out);
        cl.setErr(err);
        cl.setCaseInsensitiveEnumValuesAllowed(true);
        cl.getSubcommands().get("run").getCommandSpec().usageMessage().footer(RunCommand.footer());
        // A bad argument is one line naming the option and what it accepts, never a stack trace or a usage dump.
        cl.setParameterExceptionHandler((ex, a) -> {
            ex.getCommandLine().getErr().println("lab: " + ex.getMessage().lines().findFirst().orElse("")
                    + " (" + ex.getCommandLine().getCommandSpec().qualifiedName() + " --help)");
            return USAGE;
        });
        cl.setExecutionExceptionHandler((ex, c, parsed) -> {
            if (ex instanceof IllegalArgumentException) {
                c.getErr().println("lab: " + ex.getMessage());
                return USAGE;
            }
            c.getErr().println("lab: " + (ex instanceof IOException ? ex.getMessage() : ex.toString()));
            return FAILED;
        });
        return cl.execute(args);
    }
}
