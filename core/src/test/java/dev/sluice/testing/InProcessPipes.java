package dev.sluice.testing;

import dev.sluice.PageMemory;
import dev.sluice.Pipe;
import dev.sluice.PipeOptions;
import dev.sluice.policy.LockStrategy;
import dev.sluice.policy.SpinPolicy;
import dev.sluice.policy.WaitDiscipline;
import dev.sluice.policy.WakePolicy;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.function.UnaryOperator;

/**
 * Sluice's in-process pipe in every configuration the contract suite covers: the defaults at full stress
 * size; every wake policy × wait discipline (exclusive, broadcast) × lock (a mutex that parks at once, a spin
 * lock that spins 20 µs before parking), the coalescing discipline with two of them, the adaptive spin on a
 * plain mutex; pages in direct memory; no page pool; and two that change every pipe's shape, one page and
 * packet mode, which run only the tests that hold for any shape.
 */
public final class InProcessPipes implements PipeFactory.Source {
    /** Stress bytes of the reference configuration; the others run an eighth of it. */
    private static final long FULL = 64L << 20;
    private static final Duration SPIN = Duration.ofNanos(20_000);
    private static final Set<Capability> ALL = EnumSet.allOf(Capability.class);

    /** Creates the source (found by {@link java.util.ServiceLoader}). */
    public InProcessPipes() {
    }

    @Override
    public List<PipeFactory> pipes() {
        List<PipeFactory> all = new ArrayList<>();
        all.add(new Configured("default", UnaryOperator.identity(), ALL, false, FULL));
        for (WakePolicy wake : WakePolicy.values()) {
            for (WaitDiscipline wait : List.of(WaitDiscipline.EXCLUSIVE, WaitDiscipline.BROADCAST)) {
                all.add(policies(wake, wait, LockStrategy.MUTEX, Duration.ZERO, SpinPolicy.FIXED));
                all.add(policies(wake, wait, LockStrategy.SPIN, SPIN, SpinPolicy.FIXED));
            }
        }
        all.add(policies(WakePolicy.ALWAYS, WaitDiscipline.COALESCING, LockStrategy.SPIN, SPIN, SpinPolicy.FIXED));
        all.add(policies(WakePolicy.HALF_EMPTY, WaitDiscipline.COALESCING, LockStrategy.MUTEX, Duration.ZERO,
                SpinPolicy.FIXED));
        all.add(policies(WakePolicy.FULL_AND_FREED, WaitDiscipline.EXCLUSIVE, LockStrategy.MUTEX, SPIN,
                SpinPolicy.ADAPTIVE));
        all.add(new Configured("direct pages", b -> b.pageMemory(PageMemory.DIRECT), ALL, false, FULL / 8));
        all.add(new Configured("no page pool", b -> b.poolPages(0), without(Capability.PAGE_POOL), false, FULL / 8));
        all.add(new Configured("one page", b -> b.capacity(Pipe.PAGE_SIZE), without(Capability.AS_REQUESTED), true,
                FULL / 8));
        all.add(new Configured("packet mode", b -> b.packetMode(true),
                without(Capability.AS_REQUESTED, Capability.BYTE_STREAM), true,
                FULL / 8));
        return List.copyOf(all);
    }

    private static PipeFactory policies(WakePolicy wake, WaitDiscipline wait, LockStrategy lock, Duration spin,
            SpinPolicy spinPolicy) {
        String name = String.join("/", alias(wake), alias(wait), alias(lock))
                + (spin.isZero() ? "" : "/spin " + spin.toNanos() / 1000 + " µs " + alias(spinPolicy));
        Set<Capability> caps = wake == WakePolicy.HALF_EMPTY ? without(Capability.PROMPT_WRITER_WAKEUP) : ALL;
        return new Configured(name, b -> b.wakePolicy(wake).waitDiscipline(wait).lockStrategy(lock)
                .spinBeforePark(spin).spinPolicy(spinPolicy), caps, false, FULL / 8);
    }

    private static String alias(Enum<?> e) {
        return e.name().toLowerCase(Locale.ROOT).replace('_', '-');
    }

    private static Set<Capability> without(Capability... missing) {
        Set<Capability> s = EnumSet.allOf(Capability.class);
        s.removeAll(List.of(missing));
        return s;
    }

    /**
     * One configuration: its settings preset every test's options ({@code forced}: and go over whatever the
     * test asked for, for the shape-changing ones).
     */
    private record Configured(String name, UnaryOperator<PipeOptions.Builder> settings, Set<Capability> caps,
            boolean forced, long stressBytes) implements PipeFactory {
        @Override
        public boolean has(Capability capability) {
            return caps.contains(capability);
        }

        @Override
        public PipeOptions.Builder options() {
            return settings.apply(PipeOptions.builder());
        }

        @Override
        public Pipe open(PipeOptions options) {
            return Pipe.open(options == null || !forced ? options : settings.apply(options.toBuilder()).build());
        }

        @Override
        public String toString() {
            return name;
        }
    }
}
