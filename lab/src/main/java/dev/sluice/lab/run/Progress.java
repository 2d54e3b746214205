package dev.sluice.lab.run;

import java.io.PrintWriter;
import java.util.Locale;

/**
 * How the runner shows where it is: one line that updates in place (done/total and an ETA) when stderr is
 * a terminal, a plain line per run when it is not (a log, a CI job), nothing at all with {@code --quiet}.
 * A failure is always a line of its own, except with {@code --quiet}, where the tables say it.
 */
public interface Progress {
    /**
     * A run is about to start.
     *
     * @param done     runs finished so far
     * @param total    runs in the session
     * @param etaNanos estimated time left, or -1 when nothing has been timed yet
     * @param what     the run, e.g. {@code rep 2/5 pipen size=4096 on sluice (platform)}
     */
    void starting(int done, int total, long etaNanos, String what);

    /**
     * A run ended.
     *
     * @param what   the run
     * @param result its figure, or {@code FAILED: why}
     * @param failed whether it failed
     */
    void ended(String what, String result, boolean failed);

    /** Every run ended: clears the updating line. */
    void finish();

    /** {@return progress that shows nothing} */
    static Progress none() {
        return new Progress() {
            @Override
            public void starting(int done, int total, long etaNanos, String what) {
            }

            @Override
            public void ended(String what, String result, boolean failed) {
            }

            @Override
            public void finish() {
            }
        };
    }

    /**
     * The progress for a log or a pipe: one line when each run ends, with its place in the whole.
     *
     * @param err where the lines go
     * @return a plain line per run
     */
    static Progress lines(PrintWriter err) {
        return new Progress() {
            private String counter = "";

            @Override
            public void starting(int done, int total, long etaNanos, String what) {
                counter = "[" + (done + 1) + "/" + total + "] ";
            }

            @Override
            public void ended(String what, String result, boolean failed) {
                err.println("lab: " + counter + what + ": " + result);
                err.flush();
            }

            @Override
            public void finish() {
            }
        };
    }

    /**
     * The progress for a terminal: one status line with the count, percentage and ETA, redrawn in place; a
     * failed run leaves a line of its own above it.
     *
     * @param err   the terminal
     * @param width the line's width at most, in columns
     * @return one line redrawn in place before every run
     */
    static Progress terminal(PrintWriter err, int width) {
        return new Progress() {
            @Override
            public void starting(int done, int total, long etaNanos, String what) {
                String line = String.format(Locale.ROOT, "lab: %d/%d (%d%%), %s  %s", done, total,
                        total == 0 ? 100 : done * 100 / total, etaNanos < 0 ? "ETA -" : "ETA " + duration(etaNanos),
                        what);
                if (line.length() > width) {
                    line = line.substring(0, width - 1) + "…";
                }
                // Carriage return, the line, then erase whatever a longer previous line left to the right.
                err.print("\r" + line + "\u001b[K");
                err.flush();
            }

            @Override
            public void ended(String what, String result, boolean failed) {
                if (failed) {
                    err.print("\r\u001b[K");
                    err.println("lab: " + what + ": " + result);
                    err.flush();
                }
            }

            @Override
            public void finish() {
                err.print("\r\u001b[K");
                err.flush();
            }
        };
    }

    /**
     * Picks the progress display: none when quiet, the redrawn line on a terminal, plain lines otherwise.
     *
     * @param quiet    {@code --quiet}
     * @param terminal whether stderr is a terminal
     * @param err      stderr
     * @return the progress for those
     */
    static Progress choose(boolean quiet, boolean terminal, PrintWriter err) {
        if (quiet) {
            return none();
        }
        return terminal ? terminal(err, 119) : lines(err);
    }

    /**
     * Formats a duration for the ETA, to the second below an hour and to the minute above.
     *
     * @param nanos a duration
     * @return it as {@code 45s}, {@code 3m05s} or {@code 1h02m}
     */
    static String duration(long nanos) {
        long s = Math.max(0, Math.round(nanos / 1e9));
        if (s < 60) {
            return s + "s";
        }
        if (s < 3600) {
            return String.format(Locale.ROOT, "%dm%02ds", s / 60, s % 60);
        }
        return String.format(Locale.ROOT, "%dh%02dm", s / 3600, s % 3600 / 60);
    }
}
