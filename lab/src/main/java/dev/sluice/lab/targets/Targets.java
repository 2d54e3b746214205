package dev.sluice.lab.targets;

import dev.sluice.Pipe;
import dev.sluice.PipeOptions;
import dev.sluice.policy.LockStrategy;
import dev.sluice.policy.WaitDiscipline;
import dev.sluice.policy.WakePolicy;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/** The known target families and how command-line names map to them. */
public final class Targets {
    private Targets() {
    }

    /** Families in the order tables show them. */
    public static final List<String> FAMILIES = List.of("sluice", "kernel", "nio", "jdk-piped", "okio", "perf");

    /** Kernel pipes: PIPE_BUF-atomic, nonblocking, F_SETPIPE_SZ up to pipe-max-size; counters not comparable. */
    static final Caps KERNEL_CAPS = new Caps(true, true, true, false, null, null);

    /**
     * The kernel pipe of the FFM module (issue 4), {@code dev.sluice.kernel.KernelPipe}, which implements
     * Sluice's {@link dev.sluice.Pipe} API. It is looked up by name so the lab builds and runs before that
     * module exists: put {@code sluice-kernel} on the lab's class path (a dependency in {@code lab/pom.xml})
     * and this target runs; until then it is "n/a" with the reason.
     */
    public static Target kernel() {
        java.lang.reflect.Method open;
        try {
            Class<?> c = Class.forName("dev.sluice.kernel.KernelPipe");
            open = c.getMethod("open", PipeOptions.class);
        } catch (ClassNotFoundException e) {
            return new UnavailableTarget("kernel", "kernel module not built yet");
        } catch (NoSuchMethodException | LinkageError e) {
            return new UnavailableTarget("kernel", "dev.sluice.kernel.KernelPipe has no open(PipeOptions): " + e);
        }
        return new PipeApiTarget("kernel", "kernel", Map.of(), KERNEL_CAPS, (capacity, nonBlocking) -> {
            PipeOptions.Builder b = PipeOptions.builder().nonBlocking(nonBlocking);
            if (capacity > 0) {
                b.maxCapacity(Math.max(capacity, PipeOptions.DEFAULT_MAX_CAPACITY)).capacity(capacity);
            }
            try {
                return (Pipe) open.invoke(null, b.build());
            } catch (java.lang.reflect.InvocationTargetException e) {
                Throwable t = e.getCause();
                if (t instanceof IOException io) {
                    throw io;
                }
                throw new IOException("kernel pipe: " + t, t);
            } catch (IllegalAccessException e) {
                throw new IOException("kernel pipe: " + e, e);
            }
        });
    }

    public static String describe(String family) {
        return switch (family) {
            case "sluice" -> "Sluice's in-process pipe; variants by --policy, --lock, --wait, --timestamps";
            case "kernel" -> "Linux kernel pipe through FFM (module kernel)";
            case "nio" -> "java.nio.channels.Pipe (a kernel pipe behind the JDK's channels; fixed 64 KiB)";
            case "jdk-piped" -> "java.io.PipedInputStream/PipedOutputStream";
            case "okio" -> "okio.Pipe (Okio 3)";
            case "perf" -> "perf bench sched messaging/pipe as native reference rows (hackbench, pingpong)";
            default -> "?";
        };
    }

    /**
     * Expands families and Sluice settings into targets: every combination of the given policies, wait
     * disciplines, locks and timestamp settings for {@code sluice}, one target for each other family.
     *
     * @throws IllegalArgumentException on an unknown name, with the choices in the message
     */
    public static List<Target> resolve(List<String> families, List<String> policies, List<String> waits,
                                       List<String> locks, List<String> timestamps) {
        List<Target> out = new ArrayList<>();
        for (String f : families) {
            switch (f.toLowerCase(Locale.ROOT)) {
                case "sluice" -> {
                    for (String p : policies) {
                        WakePolicy policy = WakePolicy.fromAlias(p);
                        for (String w : waits) {
                            WaitDiscipline wait = parseEnum(WaitDiscipline.values(), w, "wait discipline");
                            for (String l : locks) {
                                LockStrategy lock = parseEnum(LockStrategy.values(), l, "lock strategy");
                                for (String t : timestamps) {
                                    out.add(SluiceTarget.of(policy, wait, lock, parseOnOff(t)));
                                }
                            }
                        }
                    }
                }
                case "kernel" -> out.add(kernel());
                case "nio" -> out.add(new NioTarget());
                case "jdk-piped", "piped" -> out.add(new JdkPipedTarget());
                case "okio" -> out.add(new OkioTarget());
                case "perf" -> out.add(new PerfTarget());
                default -> throw new IllegalArgumentException(
                        "unknown target '" + f + "'; choose from " + String.join(", ", FAMILIES));
            }
        }
        return out;
    }

    static boolean parseOnOff(String s) {
        return switch (s.toLowerCase(Locale.ROOT)) {
            case "on", "true", "yes" -> true;
            case "off", "false", "no" -> false;
            default -> throw new IllegalArgumentException("timestamps must be on or off, was '" + s + "'");
        };
    }

    static <E extends Enum<E>> E parseEnum(E[] values, String alias, String what) {
        for (E e : values) {
            if (e.toString().equalsIgnoreCase(alias) || e.name().equalsIgnoreCase(alias)) {
                return e;
            }
        }
        throw new IllegalArgumentException("no " + what + " named '" + alias + "'; choose one of "
                + String.join(", ", Arrays.stream(values).map(Object::toString).toList()));
    }
}
