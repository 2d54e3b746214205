package dev.sluice.lab.command;

import dev.sluice.PageMemory;
import dev.sluice.lab.report.Text;
import dev.sluice.lab.targets.Aliases;
import dev.sluice.lab.targets.Family;
import dev.sluice.lab.targets.Targets;
import dev.sluice.lab.workload.Param;
import dev.sluice.lab.workload.Workload;
import dev.sluice.lab.workload.Workloads;
import dev.sluice.policy.LockStrategy;
import dev.sluice.policy.ReaderWakePolicy;
import dev.sluice.policy.WaitDiscipline;
import dev.sluice.policy.WakePolicy;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Spec;

import java.io.PrintWriter;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;

/** {@code lab list}: the workloads with their parameters, defaults and ranges, the targets, the Sluice options. */
@Command(name = "list", description = "Lists workloads with their parameters and defaults, and the targets.")
public final class ListCommand implements Callable<Integer> {
    /** Creates the command. */
    public ListCommand() {
        // nothing to set up
    }

    @Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() {
        PrintWriter out = spec.commandLine().getOut();
        out.println("Workloads (parameter: default; --quick preset; accepted range):");
        for (Workload w : Workloads.all()) {
            print(w.description(), String.format(Locale.ROOT, "  %-10s ", w.name()), 13, out);
            for (Param p : w.params()) {
                print(p.description(), String.format(Locale.ROOT, "      --%-11s %s; %s; %s  ", p.name(),
                        join(p.defaults()), join(p.quick()), p.range()), 12, out);
            }
        }
        out.println("Targets (--target):");
        for (Family f : Family.values()) {
            String na = f == Family.KERNEL ? Targets.kernel().unavailable().map(w -> " [n/a: " + w + "]").orElse("")
                    : "";
            print(f.description() + na, String.format(Locale.ROOT, "  %-10s ", f.alias()), 13, out);
        }
        out.println("Sluice settings (comma-separated values run each):");
        for (String setting : List.of("--policy " + String.join(",", Aliases.names(WakePolicy.class)),
                "--reader-wake " + String.join(",", Aliases.names(ReaderWakePolicy.class)),
                "--wait " + String.join(",", Aliases.names(WaitDiscipline.class)),
                "--lock " + String.join(",", Aliases.names(LockStrategy.class)),
                "--timestamps on,off", "--spin 0,20us,a20",
                "--page-memory " + String.join(",", Aliases.names(PageMemory.class)),
                "--pool-pages -1,0,2,...", "--capacity 64k,...")) {
            print(setting, "  ", 4, out);
        }
        out.println("Threads: --threads platform,virtual");
        return 0;
    }

    /** Prints {@code text} within the lab's width, the first line after {@code first}, the rest indented. */
    private static void print(String text, String first, int indent, PrintWriter out) {
        Text.wrap(text, Text.WIDTH, first, " ".repeat(indent)).forEach(out::println);
    }

    private static String join(List<Long> v) {
        return String.join(",", v.stream().map(String::valueOf).toList());
    }
}
