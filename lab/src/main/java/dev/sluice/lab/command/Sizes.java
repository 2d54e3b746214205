package dev.sluice.lab.command;

import java.util.Locale;

/** Numbers on the command line, with the binary suffixes k, m and g, refusing what does not fit a long. */
public final class Sizes {
    private Sizes() {
    }

    /**
     * Reads a size or count given on the command line.
     *
     * @param option the option, for the message ({@code --bytes})
     * @param s      a number, optionally with k, m or g (64k = 65536), underscores allowed
     * @return the value
     * @throws IllegalArgumentException naming the option, for anything else or a value that overflows
     */
    public static long parse(String option, String s) {
        String t = s.trim().toLowerCase(Locale.ROOT).replace("_", "");
        int shift = 0;
        if (t.endsWith("k")) {
            shift = 10;
        } else if (t.endsWith("m")) {
            shift = 20;
        } else if (t.endsWith("g")) {
            shift = 30;
        }
        if (shift > 0) {
            t = t.substring(0, t.length() - 1);
        }
        long v;
        try {
            v = Long.parseLong(t);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(option + ": needs a number (k/m/g allowed), got '" + s + "'");
        }
        if (v < 0) {
            throw new IllegalArgumentException(option + ": must not be negative, got '" + s + "'");
        }
        if (v > (Long.MAX_VALUE >> shift)) {
            throw new IllegalArgumentException(option + ": '" + s + "' is too large (it overflows a 64-bit count)");
        }
        return v << shift;
    }
}
