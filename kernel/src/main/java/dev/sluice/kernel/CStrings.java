package dev.sluice.kernel;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_BYTE;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.charset.StandardCharsets;
import java.util.List;

/**
 * Java strings as the C strings a child process gets (arguments, environment, paths): UTF-8 with a
 * terminating NUL. A string that a C string cannot carry unchanged is refused rather than altered: an
 * embedded NUL would cut it short, and a lone surrogate has no UTF-8 form (the JDK's encoder would write
 * {@code ?} for it).
 */
final class CStrings {
    /** Linux {@code MAX_ARG_STRLEN}: the longest argument or environment string, its NUL included. */
    static final int MAX_ARG_STRLEN = 32 * 4096;

    private CStrings() {
    }

    /**
     * Checks that {@code s} survives as a C string and returns its UTF-8 bytes (without the NUL).
     *
     * @param s    the string
     * @param what what it is, for the message: {@code "argument 2 of the command"}
     * @return the UTF-8 encoding
     * @throws IllegalArgumentException naming {@code what} if it holds a NUL or a lone surrogate
     * @throws NullPointerException     if {@code s} is null
     */
    static byte[] encode(String s, String what) {
        if (s == null) {
            throw new NullPointerException(what + " is null");
        }
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c == 0) {
                throw new IllegalArgumentException(what + " " + preview(s) + " contains a NUL character (at index "
                        + i + "), which a C string cannot carry");
            }
            if (Character.isHighSurrogate(c) && i + 1 < s.length() && Character.isLowSurrogate(s.charAt(i + 1))) {
                i++;
            } else if (Character.isSurrogate(c)) {
                throw new IllegalArgumentException(what + " " + preview(s) + " contains a lone surrogate (U+"
                        + Integer.toHexString(c).toUpperCase(java.util.Locale.ROOT) + " at index " + i
                        + "), which UTF-8 cannot encode");
            }
        }
        return s.getBytes(StandardCharsets.UTF_8);
    }

    /**
     * As {@link #encode}, for a string the kernel copies into a new program (argument, environment
     * entry): refuses one longer than {@link #MAX_ARG_STRLEN}, which {@code execve} would refuse with
     * {@code E2BIG}, with a short message.
     */
    static byte[] encodeArg(String s, String what) {
        byte[] b = encode(s, what);
        if (b.length >= MAX_ARG_STRLEN) {
            throw new IllegalArgumentException(what + " " + preview(s) + " is " + b.length + " bytes in UTF-8; Linux "
                    + "passes at most " + (MAX_ARG_STRLEN - 1) + " bytes per argument or environment entry "
                    + "(MAX_ARG_STRLEN)");
        }
        return b;
    }

    /** @return a NUL-terminated copy of {@code b} in {@code arena} */
    static MemorySegment toC(Arena arena, byte[] b) {
        MemorySegment s = arena.allocate(b.length + 1L);
        MemorySegment.copy(b, 0, s, JAVA_BYTE, 0, b.length);
        return s; // allocate zeroes, so the last byte is the NUL
    }

    /** @return a NULL-terminated {@code char *[]} of the strings, in {@code arena} */
    static MemorySegment toArray(Arena arena, List<byte[]> strings) {
        MemorySegment a = arena.allocate(ADDRESS, strings.size() + 1L);
        for (int i = 0; i < strings.size(); i++) {
            a.setAtIndex(ADDRESS, i, toC(arena, strings.get(i)));
        }
        a.setAtIndex(ADDRESS, strings.size(), MemorySegment.NULL);
        return a;
    }

    /** @return the start of {@code s}, quoted, with control characters escaped, for messages */
    static String preview(String s) {
        StringBuilder b = new StringBuilder("\"");
        int n = Math.min(s.length(), 40);
        for (int i = 0; i < n; i++) {
            char c = s.charAt(i);
            if (c < 0x20 || c == 0x7f || Character.isSurrogate(c)) {
                b.append(String.format("\\u%04x", (int) c));
            } else {
                b.append(c);
            }
        }
        return b.append(s.length() > n ? "\"..." : "\"").toString();
    }
}
