package dev.sluice.lab.targets;

import dev.sluice.PageMemory;
import dev.sluice.policy.LockStrategy;
import dev.sluice.policy.ReaderWakePolicy;
import dev.sluice.policy.SpinPolicy;
import dev.sluice.policy.WaitDiscipline;
import dev.sluice.policy.WakePolicy;

import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/**
 * The one place where the lab turns the policies' aliases ({@code full-and-freed}, {@code coalescing},
 * {@code direct}, ...) into core's enums. Core's constants all answer their alias from {@code toString()};
 * when core gains its own alias parser this class becomes a call to it.
 */
public final class Aliases {
    private Aliases() {
    }

    /**
     * @param type   the enum whose constants' {@code toString()} is their alias
     * @param alias  the alias, or the constant's name, case-insensitive
     * @param option the command-line option it came from, for the message
     * @return the constant
     * @throws IllegalArgumentException naming the option and the choices
     */
    public static <E extends Enum<E>> E parse(Class<E> type, String alias, String option) {
        String a = alias.trim();
        for (E e : type.getEnumConstants()) {
            if (e.toString().equalsIgnoreCase(a) || e.name().equalsIgnoreCase(a)) {
                return e;
            }
        }
        throw new IllegalArgumentException(option + ": unknown value '" + alias + "'; choose from " + choices(type));
    }

    /** {@return every alias of the enum, comma-separated} */
    public static <E extends Enum<E>> String choices(Class<E> type) {
        return String.join(", ", names(type));
    }

    /** {@return every alias of the enum, in declaration order} */
    public static <E extends Enum<E>> List<String> names(Class<E> type) {
        return Arrays.stream(type.getEnumConstants()).map(Object::toString).toList();
    }

    /** {@return the wake policy of that alias ({@code --policy})} */
    public static WakePolicy wakePolicy(String alias) {
        return parse(WakePolicy.class, alias, "--policy");
    }

    /** {@return the reader wake policy of that alias ({@code --reader-wake})} */
    public static ReaderWakePolicy readerWakePolicy(String alias) {
        return parse(ReaderWakePolicy.class, alias, "--reader-wake");
    }

    /** {@return the wait discipline of that alias ({@code --wait})} */
    public static WaitDiscipline waitDiscipline(String alias) {
        return parse(WaitDiscipline.class, alias, "--wait");
    }

    /** {@return the lock strategy of that alias ({@code --lock})} */
    public static LockStrategy lockStrategy(String alias) {
        return parse(LockStrategy.class, alias, "--lock");
    }

    /** {@return the page memory of that alias ({@code --page-memory})} */
    public static PageMemory pageMemory(String alias) {
        return parse(PageMemory.class, alias, "--page-memory");
    }

    /** {@return the spin policy of that alias (the {@code a} prefix of {@code --spin} picks adaptive)} */
    public static SpinPolicy spinPolicy(String alias) {
        return parse(SpinPolicy.class, alias, "--spin");
    }

    /** {@return {@code on}/{@code off} (also true/false, yes/no) as a boolean ({@code --timestamps})} */
    public static boolean onOff(String s, String option) {
        return switch (s.trim().toLowerCase(Locale.ROOT)) {
            case "on", "true", "yes" -> true;
            case "off", "false", "no" -> false;
            default -> throw new IllegalArgumentException(option + ": must be on or off, got '" + s + "'");
        };
    }
}
