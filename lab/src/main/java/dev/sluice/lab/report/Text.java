package dev.sluice.lab.report;

import java.util.ArrayList;
import java.util.List;

/** Plain-text helpers: wrapping at a width, clipping. */
public final class Text {
    /** The terminal's width: every line the lab prints by default fits. */
    public static final int WIDTH = 120;

    private Text() {
    }

    /**
     * Breaks text into lines of at most {@code width} columns.
     *
     * @param s      text
     * @param width  columns per line at most
     * @param first  prefix of the first line
     * @param indent prefix of the following lines
     * @return the lines, broken at spaces (a word longer than a line is cut)
     */
    public static List<String> wrap(String s, int width, String first, String indent) {
        List<String> out = new ArrayList<>();
        StringBuilder line = new StringBuilder(first);
        boolean empty = true;
        for (String word : s.split(" ")) {
            if (word.isEmpty()) {
                continue;
            }
            if (!empty && line.length() + 1 + word.length() > width) {
                out.add(line.toString());
                line = new StringBuilder(indent);
                empty = true;
            }
            if (!empty) {
                line.append(' ');
            }
            while (line.length() + word.length() > width) {
                int room = Math.max(1, width - line.length());
                out.add(line + word.substring(0, room));
                word = word.substring(room);
                line = new StringBuilder(indent);
            }
            line.append(word);
            empty = false;
        }
        out.add(line.toString());
        return out;
    }

    /** {@return {@code s} cut to {@code width} with an ellipsis} */
    static String clip(String s, int width) {
        return s.length() <= width ? s : s.substring(0, width - 1) + "…";
    }
}
