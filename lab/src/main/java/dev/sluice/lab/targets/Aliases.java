package dev.sluice.lab.targets;

import dev.sluice.PageMemory;
import dev.sluice.policy.Aliased;
import dev.sluice.policy.LockStrategy;
import dev.sluice.policy.ReaderWakePolicy;
import dev.sluice.policy.SpinPolicy;
import dev.sluice.policy.WaitDiscipline;
import dev.sluice.policy.WakePolicy;

import java.util.List;
import java.util.Locale;

/**
 * The one place where the lab turns the policies' aliases ({@code full-and-freed}, {@code coalescing},
 * {@code direct}, ...) into core's enums, through core's one parser ({@link Aliased}).
 */
public final class Aliases {
    private Aliases() {
    }

    /**
     * Core's parser ({@link Aliased#parse}), with the option's name in its message.
     *
     * @param type   the option's enum
     * @param alias  the alias, or the constant's name, case-insensitive
     * @param option the command-line option it came from, for the message
     * @param <E>    the enum type
     * @return the constant
     * @throws IllegalArgumentException naming the option and the choices
     */
    public static <E extends Enum<E> & Aliased> E parse(Class<E> type, String alias, String option) {
        return Aliased.parse(type, alias, option);
    }

    /**
     * {@return every alias of the enum, in declaration order}
     *
     * @param type the option's enum
     * @param <E>  the enum type
     */
    public static <E extends Enum<E> & Aliased> List<String> names(Class<E> type) {
        return Aliased.aliases(type);
    }

    /**
     * {@return the wake policy of that alias ({@code --policy})}
     *
     * @param alias the alias, or the constant's name, case-insensitive
     * @throws IllegalArgumentException naming {@code --policy} and the choices, for anything else
     */
    public static WakePolicy wakePolicy(String alias) {
        return parse(WakePolicy.class, alias, "--policy");
    }

    /**
     * {@return the reader wake policy of that alias ({@code --reader-wake})}
     *
     * @param alias the alias, or the constant's name, case-insensitive
     * @throws IllegalArgumentException naming {@code --reader-wake} and the choices, for anything else
     */
    public static ReaderWakePolicy readerWakePolicy(String alias) {
        return parse(ReaderWakePolicy.class, alias, "--reader-wake");
    }

    /**
     * {@return the wait discipline of that alias ({@code --wait})}
     *
     * @param alias the alias, or the constant's name, case-insensitive
     * @throws IllegalArgumentException naming {@code --wait} and the choices, for anything else
     */
    public static WaitDiscipline waitDiscipline(String alias) {
        return parse(WaitDiscipline.class, alias, "--wait");
    }

    /**
     * {@return the lock strategy of that alias ({@code --lock})}
     *
     * @param alias the alias, or the constant's name, case-insensitive
     * @throws IllegalArgumentException naming {@code --lock} and the choices, for anything else
     */
    public static LockStrategy lockStrategy(String alias) {
        return parse(LockStrategy.class, alias, "--lock");
    }

    /**
     * {@return the page memory of that alias ({@code --page-memory})}
     *
     * @param alias the alias, or the constant's name, case-insensitive
     * @throws IllegalArgumentException naming {@code --page-memory} and the choices, for anything else
     */
    public static PageMemory pageMemory(String alias) {
        return parse(PageMemory.class, alias, "--page-memory");
    }

    /**
     * {@return the spin policy of that alias (the {@code a} prefix of {@code --spin} picks adaptive)}
     *
     * @param alias the alias, or the constant's name, case-insensitive
     * @throws IllegalArgumentException naming {@code --spin} and the choices, for anything else
     */
    public static SpinPolicy spinPolicy(String alias) {
        return parse(SpinPolicy.class, alias, "--spin");
    }

    /**
     * {@return {@code on}/{@code off} (also true/false, yes/no) as a boolean ({@code --timestamps})}
     *
     * @param s      the value, case-insensitive
     * @param option the command-line option it came from, for the message
     * @throws IllegalArgumentException naming the option, for any other value
     */
    public static boolean onOff(String s, String option) {
        return switch (s.trim().toLowerCase(Locale.ROOT)) {
            case "on", "true", "yes" -> true;
            case "off", "false", "no" -> false;
            default -> throw new IllegalArgumentException(option + ": must be on or off, got '" + s + "'");
        };
    }
}
