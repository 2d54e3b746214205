package dev.sluice.lab.targets;

import dev.sluice.Pipe;
import dev.sluice.PipeOptions;
import dev.sluice.ReadEnd;
import dev.sluice.WriteEnd;
import dev.sluice.kernel.KernelFile;
import dev.sluice.kernel.KernelPipe;
import dev.sluice.kernel.KernelSplice;
import dev.sluice.policy.LockStrategy;
import dev.sluice.policy.WaitDiscipline;
import dev.sluice.policy.WakePolicy;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumSet;
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
     * Linux kernel pipes through the FFM module ({@link KernelPipe}), which implements Sluice's
     * {@link dev.sluice.Pipe} API, with the kernel's own {@code tee(2)} and a {@code splice(2)} to
     * {@code /dev/null} for the tee workload. Off Linux it is "n/a" with the module's reason.
     */
    public static Target kernel() {
        try {
            KernelPipe probe = KernelPipe.open();
            probe.reader().close();
            probe.writer().close();
        } catch (UnsupportedOperationException | IOException | LinkageError e) {
            return new UnavailableTarget("kernel", "kernel pipes cannot be opened here: " + e.getMessage());
        }
        return new PipeApiTarget("kernel", "kernel", Map.of(), KERNEL_CAPS, (capacity, nonBlocking) -> {
            PipeOptions.Builder b = PipeOptions.builder().nonBlocking(nonBlocking);
            if (capacity > 0) {
                b.maxCapacity(Math.max(capacity, PipeOptions.DEFAULT_MAX_CAPACITY)).capacity(capacity);
            }
            return KernelPipe.open(b.build());
        }, KERNEL_ZERO_COPY);
    }

    /** tee(2) between kernel pipes, and splice(2) into /dev/null, opened once for the whole lab run. */
    private static final PipeApiTarget.ZeroCopyCalls KERNEL_ZERO_COPY = new PipeApiTarget.ZeroCopyCalls() {
        @Override
        public long tee(ReadEnd from, WriteEnd to, long max) throws IOException {
            return KernelSplice.tee(from, to, max, EnumSet.noneOf(KernelSplice.Flag.class));
        }

        @Override
        public long discard(ReadEnd from, long max) throws IOException {
            return KernelSplice.splice(from, DevNull.FILE, max, EnumSet.of(KernelSplice.Flag.MOVE));
        }

        @Override
        public String how() {
            return "zero-copy: tee(2), then splice(2) to /dev/null";
        }
    };

    /** /dev/null for writing, opened when the tee workload first discards (the holder idiom: lazy, no lock). */
    private static final class DevNull {
        static final KernelFile FILE;

        static {
            try {
                FILE = KernelFile.open(Path.of("/dev/null"), StandardOpenOption.WRITE);
            } catch (IOException e) {
                throw new UncheckedIOException("cannot open /dev/null: " + e.getMessage(), e);
            }
        }
    }

    public static String describe(String family) {
        return switch (family) {
            case "sluice" -> "Sluice's in-process pipe; variants by --policy, --lock, --wait, --timestamps, --spin";
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
        return resolve(families, policies, waits, locks, timestamps, List.of(Spin.DEFAULT.alias()));
    }

    /**
     * {@link #resolve(List, List, List, List, List)} with spin settings too ({@link Spin#parse}).
     *
     * @throws IllegalArgumentException on an unknown name, with the choices in the message
     */
    public static List<Target> resolve(List<String> families, List<String> policies, List<String> waits,
                                       List<String> locks, List<String> timestamps, List<String> spins) {
        List<Spin> spinSettings = spins.stream().map(Spin::parse).toList();
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
                                    for (Spin spin : spinSettings) {
                                        out.add(SluiceTarget.of(policy, wait, lock, parseOnOff(t), spin));
                                    }
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
