package dev.sluice.lab.targets;

import dev.sluice.PipeOptions;
import dev.sluice.policy.SpinPolicy;

import java.time.Duration;
import java.util.Locale;

/**
 * How a Sluice target's waiting threads spin before they park ({@code --spin}): {@code 0} parks at once,
 * {@code 20us} spins 20 µs on every wait ({@link SpinPolicy#FIXED}), {@code a20} spins at most 20 µs while
 * spinning works ({@link SpinPolicy#ADAPTIVE}). The same notation as the JMH benchmarks' {@code spinMicros}.
 *
 * @param policy fixed or adaptive
 * @param nanos  the longest spin; 0 never spins
 */
public record Spin(SpinPolicy policy, long nanos) {
    /** The library's default. */
    public static final Spin DEFAULT = new Spin(PipeOptions.DEFAULT_SPIN_POLICY,
            PipeOptions.DEFAULT_SPIN_BEFORE_PARK.toNanos());
    /** No spin: park at once, as the kernel does. */
    public static final Spin NONE = new Spin(SpinPolicy.FIXED, 0);

    /**
     * Checks the range.
     *
     * @throws IllegalArgumentException if {@code nanos} is negative or above the library's longest spin
     */
    public Spin {
        if (nanos < 0 || nanos > PipeOptions.MAX_SPIN_BEFORE_PARK.toNanos()) {
            throw new IllegalArgumentException("--spin: " + nanos / 1000 + " µs is out of range; must be 0.."
                    + PipeOptions.MAX_SPIN_BEFORE_PARK.toNanos() / 1000 + " µs");
        }
    }

    /**
     * Reads the {@code --spin} notation.
     *
     * @param s {@code 0}, a number of microseconds with or without {@code us}, or {@code a} and a number
     * @return the setting
     * @throws IllegalArgumentException with the accepted forms, for anything else
     */
    public static Spin parse(String s) {
        String t = s.trim().toLowerCase(Locale.ROOT);
        boolean adaptive = t.startsWith("a");
        String n = adaptive ? t.substring(1) : t;
        if (n.endsWith("us")) {
            n = n.substring(0, n.length() - 2);
        }
        long micros;
        try {
            micros = Long.parseLong(n);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("--spin: unknown value '" + s + "'; use 0 (park at once), 20us (spin "
                    + "20 µs on every wait) or a20 (adaptive, at most 20 µs)");
        }
        long max = PipeOptions.MAX_SPIN_BEFORE_PARK.toNanos() / 1000;
        if (micros < 0 || micros > max) {
            throw new IllegalArgumentException("--spin: " + s + " is out of range; must be 0.." + max + " µs");
        }
        return new Spin(adaptive ? SpinPolicy.ADAPTIVE : SpinPolicy.FIXED, micros * 1000L);
    }

    /** {@return the notation {@link #parse} reads: {@code 0}, {@code 20us} or {@code a20}} */
    public String alias() {
        if (nanos == 0) {
            return "0";
        }
        long micros = nanos / 1000;
        return policy == SpinPolicy.ADAPTIVE ? "a" + micros : micros + "us";
    }

    /** {@return the longest spin as a duration} */
    public Duration duration() {
        return Duration.ofNanos(nanos);
    }

    /**
     * Compares what two settings do: two settings that never spin are the same setting, whatever their policy.
     *
     * @param o the other setting
     * @return whether both spin alike (the same {@link #alias})
     */
    public boolean same(Spin o) {
        return alias().equals(o.alias());
    }
}
