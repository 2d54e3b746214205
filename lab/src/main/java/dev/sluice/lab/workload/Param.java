package dev.sluice.lab.workload;

import java.util.List;
import java.util.Locale;

/**
 * A workload parameter. Values are lists: a workload runs once per combination of them (so
 * {@code --writers 1,2,5 --readers 1,5,10} is Breno Leitao's matrix). Every value is checked against
 * {@code min..max} before anything runs.
 *
 * @param name        option name without dashes
 * @param description what it is, and where the default comes from
 * @param defaults    the original's default
 * @param quick       the small preset used by {@code --quick}
 * @param min         the smallest value accepted
 * @param max         the largest value accepted
 * @param bytes       whether the value is a size in bytes (shown with k/m/g)
 */
public record Param(String name, String description, List<Long> defaults, List<Long> quick, long min, long max,
                    boolean bytes) {
    /**
     * A parameter that counts something (threads, loops, groups), with one default and one quick value.
     *
     * @param name        option name without dashes
     * @param description what it is
     * @param dflt        the default
     * @param quick       the {@code --quick} value
     * @param min         the smallest value accepted
     * @param max         the largest value accepted
     * @return a count parameter
     */
    public static Param count(String name, String description, long dflt, long quick, long min, long max) {
        return new Param(name, description, List.of(dflt), List.of(quick), min, max, false);
    }

    /**
     * A parameter that is a size in bytes, given and shown with k/m/g suffixes.
     *
     * @param name        option name without dashes
     * @param description what it is
     * @param dflt        the default
     * @param quick       the {@code --quick} value
     * @param min         the smallest value accepted
     * @param max         the largest value accepted
     * @return a size parameter, in bytes
     */
    public static Param size(String name, String description, long dflt, long quick, long min, long max) {
        return new Param(name, description, List.of(dflt), List.of(quick), min, max, true);
    }

    /**
     * Checks one value against this parameter's range.
     *
     * @param value a value given on the command line
     * @throws IllegalArgumentException naming the option and the accepted range, if it is outside
     */
    public void check(long value) {
        if (value < min || value > max) {
            throw new IllegalArgumentException("--" + name + ": must be " + range() + ", got " + show(value));
        }
    }

    /** {@return the accepted range, e.g. {@code 1..1m bytes (k/m/g allowed)}} */
    public String range() {
        return show(min) + ".." + show(max) + (bytes ? " bytes (k/m/g allowed)" : "");
    }

    /** {@return {@code v} with the largest binary suffix that divides it, for sizes; plain otherwise} */
    String show(long v) {
        if (!bytes || v == 0) {
            return Long.toString(v);
        }
        for (String s : List.of("g", "m", "k")) {
            long unit = switch (s) {
                case "g" -> 1L << 30;
                case "m" -> 1L << 20;
                default -> 1L << 10;
            };
            if (v % unit == 0) {
                return String.format(Locale.ROOT, "%d%s", v / unit, s);
            }
        }
        return Long.toString(v);
    }
}
