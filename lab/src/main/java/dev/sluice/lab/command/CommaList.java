package dev.sluice.lab.command;

import picocli.CommandLine.IParameterPreprocessor;
import picocli.CommandLine.Model.ArgSpec;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;
import picocli.CommandLine.ParameterException;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Stack;

/**
 * Comma-separated values on the command line ({@code --size 4096,64k}, {@code --target sluice,kernel}, {@code run
 * pipen,tee}): the one rule for every list the lab takes. An empty element (a leading, trailing or doubled comma,
 * or only blanks between two) is refused, naming the option, rather than dropped: {@code --size 4096,} is more
 * likely a value cut off than a list of one.
 */
public final class CommaList {
    private CommaList() {
    }

    /**
     * Splits a list value.
     *
     * @param option the option, for the message ({@code --size}, or {@code WORKLOAD})
     * @param value  what was given
     * @return the elements, trimmed, in order; empty for a blank value (the caller says what it needs)
     * @throws IllegalArgumentException naming the option and the value, if an element is empty
     */
    public static List<String> split(String option, String value) {
        List<String> out = new ArrayList<>();
        if (value.isBlank()) {
            return out;
        }
        for (String s : value.split(",", -1)) { // -1: keep trailing empty elements, to refuse them
            if (s.isBlank()) {
                throw new IllegalArgumentException(option + ": '" + value + "' has an empty element (separate the "
                        + "values with single commas)");
            }
            out.add(s.trim());
        }
        return out;
    }

    /**
     * Checks a list option's value before picocli splits it ({@code split = ","} drops a trailing empty element
     * and keeps others, so neither reaches the command reliably): a parameter error naming the option.
     */
    public static final class Check implements IParameterPreprocessor {
        /** Created by picocli, once per option that names it. */
        public Check() {
            // nothing to set up
        }

        @Override
        public boolean preprocess(Stack<String> args, CommandSpec spec, ArgSpec arg, Map<String, Object> info) {
            if (!args.isEmpty()) { // no value: picocli reports the missing parameter itself
                // A positional's label shows the list ("WORKLOAD[,WORKLOAD...]"); the message names its element.
                String name = arg instanceof OptionSpec o ? o.longestName()
                        : arg.paramLabel().replaceFirst("\\[.*", "");
                try {
                    split(name, args.peek());
                } catch (IllegalArgumentException e) {
                    throw new ParameterException(spec.commandLine(), e.getMessage(), e, arg, args.peek());
                }
            }
            return false; // checked only: picocli goes on to split and convert the value as usual
        }
    }
}
