package dev.sluice.lab.targets;

import dev.sluice.Pipe;
import dev.sluice.PipeOptions;
import dev.sluice.ReadEnd;
import dev.sluice.WriteEnd;
import dev.sluice.kernel.KernelFile;
import dev.sluice.kernel.KernelPipe;
import dev.sluice.kernel.KernelSplice;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/** The known target families and how command-line names map to them. */
public final class Targets {
    private Targets() {
    }

    /** Kernel pipes: PIPE_BUF-atomic, nonblocking, F_SETPIPE_SZ up to pipe-max-size; counters not comparable. */
    static final Caps KERNEL_CAPS = new Caps(true, true, true, false, null, null);

    /**
     * Linux kernel pipes through the FFM module ({@link KernelPipe}), which implements Sluice's
     * {@link dev.sluice.Pipe} API, with the kernel's own {@code tee(2)} and a {@code splice(2)} to
     * {@code /dev/null} for the tee workload. Off Linux it is "n/a" with the module's reason.
     *
     * @return the kernel target, or an unavailable one saying why kernel pipes cannot be opened here
     */
    public static Target kernel() {
        try {
            KernelPipe probe = KernelPipe.open();
            probe.reader().close();
            probe.writer().close();
        } catch (UnsupportedOperationException | IOException | LinkageError e) {
            return new UnavailableTarget(Family.KERNEL, "kernel pipes cannot be opened here: " + e.getMessage());
        }
        return new PipeApiTarget(Family.KERNEL, "kernel", "pipe2 (+ F_SETPIPE_SZ), blocking calls park in Java",
                Map.of(), KERNEL_CAPS, (capacity, nonBlocking) -> {
            PipeOptions.Builder b = PipeOptions.builder().nonBlocking(nonBlocking);
            if (capacity > 0) {
                b.maxCapacity(Math.max(capacity, PipeOptions.DEFAULT_MAX_CAPACITY)).capacity(capacity);
            }
            return KernelPipe.open(b.build());
        }, KERNEL_ZERO_COPY);
    }

    /**
     * Whether the kernel can run without timestamps when asked, as Oleg Nesterov's O_NOATIME patch proposed:
     * tries {@code pipe2(O_NOATIME)} once.
     *
     * @return empty if the kernel accepted the flag, else what it said
     */
    public static Optional<String> kernelNoAtime() {
        try {
            KernelPipe p = KernelPipe.openNoAtime();
            p.reader().close();
            p.writer().close();
            return Optional.empty();
        } catch (UnsupportedOperationException | IOException | LinkageError e) {
            return Optional.of(e.getMessage());
        }
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

    /**
     * Expands families into targets: one per variant for {@link Family#SLUICE}, one for each other pipe
     * family. {@link Family#PERF} is not a target (it is a reference run) and is skipped here.
     *
     * @param families the families, in the order the tables show them
     * @param variants the Sluice variants
     * @return the targets
     */
    public static List<Target> resolve(List<Family> families, List<SluiceVariant> variants) {
        List<Target> out = new ArrayList<>();
        for (Family f : families) {
            switch (f) {
                case SLUICE -> variants.forEach(v -> out.add(SluiceTarget.of(v)));
                case KERNEL -> out.add(kernel());
                case SHM -> out.add(CrossJvmTarget.shm());
                case KERNEL_JVM -> out.add(CrossJvmTarget.kernelJvm());
                case NIO -> out.add(new NioTarget());
                case JDK_PIPED -> out.add(new JdkPipedTarget());
                case OKIO -> out.add(new OkioTarget());
                case PERF -> {
                    // a reference run, planned by the runner beside the targets
                }
                default -> throw new IllegalStateException(f.toString());
            }
        }
        return out;
    }
}
