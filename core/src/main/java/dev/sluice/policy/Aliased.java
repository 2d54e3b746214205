package dev.sluice.policy;

import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/**
 * An option's constant with a short name for configuration, reports and the lab: its <em>alias</em>, the
 * constant's name in lower case with hyphens ({@code FULL_AND_FREED} is {@code full-and-freed}). Implemented
 * by Sluice's option enums ({@link WakePolicy}, {@link ReaderWakePolicy}, {@link WaitDiscipline},
 * {@link LockStrategy}, {@link SpinPolicy}, {@code PageMemory}), and by enums only.
 *
 * <pre>{@code
 * WakePolicy p = Aliased.parse(WakePolicy.class, "half-empty", "--wake");   // or "HALF_EMPTY"
 * }</pre>
 */
public interface Aliased {

    /** {@return the constant's alias, such as {@code "full-and-freed"}} */
    default String alias() {
        return ((Enum<?>) this).name().toLowerCase(Locale.ROOT).replace('_', '-');
    }

    /**
     * The constant named {@code text}: its alias or its name, in any case, surrounding blanks ignored.
     *
     * @param type the enum
     * @param text the name to look up
     * @param what what is being set, for the message (a property, an option, a parameter)
     * @param <E>  the enum type
     * @return the constant
     * @throws IllegalArgumentException naming {@code what}, {@code text} and every accepted alias, if no
     *                                  constant has that name
     */
    static <E extends Enum<E> & Aliased> E parse(Class<E> type, String text, String what) {
        String t = text == null ? "" : text.trim();
        for (E e : type.getEnumConstants()) {
            if (e.alias().equalsIgnoreCase(t) || e.name().equalsIgnoreCase(t)) {
                return e;
            }
        }
        throw new IllegalArgumentException(what + "=" + text + " names no " + describe(type) + "; choose one of "
                + aliases(type));
    }

    /**
     * {@return every alias of {@code type}, in declaration order}
     *
     * @param type the enum
     * @param <E>  the enum type
     */
    static <E extends Enum<E> & Aliased> List<String> aliases(Class<E> type) {
        return Arrays.stream(type.getEnumConstants()).map(Aliased::alias).toList();
    }

    private static String describe(Class<?> type) {
        // "WakePolicy" -> "wake policy"
        return type.getSimpleName().replaceAll("([a-z])([A-Z])", "$1 $2").toLowerCase(Locale.ROOT);
    }
}
