package dev.sluice.model;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.sluice.testing.Capability;
import dev.sluice.testing.PipeFactory;
import dev.sluice.testing.TestPipes;
import dev.sluice.Pipe;
import dev.sluice.PipeOptions;
import java.util.List;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.ShrinkingMode;
import net.jqwik.api.statistics.Statistics;
import net.jqwik.api.Tuple;

/**
 * Property-based tests: random single-threaded sequences of operations on a real pipe and on
 * {@link PipeModel}, a reference model written from Linux's rules, compared after every step
 * ({@link ModelCheck}).
 */
class PipeModelTest {

    /** Cases every run of the property must have gone through several times, or the generators are off. */
    private static final List<String> REQUIRED = List.of(
            "write: merged", "write: merged remainder of a large write", "write: partial", "write: EAGAIN",
            "write: blocked", "write: blocked after storing some", "write: EPIPE",
            "read: packet truncated", "read: spans slots", "read: EAGAIN", "read: blocked", "read: EOF",
            "setCapacity: EINVAL", "setCapacity: EPERM", "setCapacity: EBUSY",
            "setCapacity: shrank a pipe holding data", "setCapacity: grew a full pipe",
            "close: last reader", "close: last writer", "close: last handle",
            "whenReady: completed by a later step", "mode: set through a shared description");

    @Property(tries = 2500, shrinking = ShrinkingMode.FULL)
    void pipeBehavesLikeTheLinuxModel(@ForAll("setups") ModelCheck.Setup setup, @ForAll("ops") List<Op> ops) {
        runAndCount(new ModelCheck(setup, true), ops, REQUIRED, 3); // packet writes merge as on Linux
    }

    /**
     * Runs the ops against the model and counts the cases they went through, each of {@code required} in at
     * least {@code least} of the property's runs.
     */
    static void runAndCount(ModelCheck check, List<Op> ops, List<String> required, int least) {
        try {
            check.run(ops);
        } finally {
            for (String e : check.events()) {
                Statistics.label("cases").collect(e);
            }
            Statistics.label("cases").coverage(c -> {
                for (String e : required) {
                    c.check(e).count(n -> n >= least);
                }
            });
        }
    }

    /** Capacities as PipeOptions rounds and checks them: round_pipe_size, capacity within maxCapacity. */
    @Property(tries = 300)
    void optionsRoundCapacitiesLikeLinux(@ForAll("sizes") int capacity, @ForAll("sizes") int maxCapacity) {
        boolean valid = capacity >= 0 && capacity <= PipeModel.ABSOLUTE_MAX && maxCapacity >= 0
                && maxCapacity <= PipeModel.ABSOLUTE_MAX
                && PipeModel.roundPipeSize(capacity) <= PipeModel.roundPipeSize(maxCapacity);
        if (!valid) {
            assertThatThrownBy(() -> PipeOptions.builder().capacity(capacity).maxCapacity(maxCapacity).build())
                    .isInstanceOf(IllegalArgumentException.class);
            return;
        }
        PipeOptions o = PipeOptions.builder().capacity(capacity).maxCapacity(maxCapacity).build();
        assertThat(o.capacity()).isEqualTo(PipeModel.roundPipeSize(capacity));
        assertThat(o.maxCapacity()).isEqualTo(PipeModel.roundPipeSize(maxCapacity));
        Pipe p = TestPipes.reference().open(o);
        assertThat(p.capacity()).isEqualTo(PipeModel.roundPipeSize(capacity));
        assertThat(p.stat().slots()).isEqualTo(PipeModel.roundPipeSize(capacity) / PipeModel.PAGE);
        p.reader().close();
        p.writer().close();
    }

    // ---- generators ----------------------------------------------------------------------------------

    @Provide
    Arbitrary<Integer> sizes() {
        return Arbitraries.frequencyOf(
                Tuple.of(3, Arbitraries.of(-1, 0, 1, 4095, 4096, 4097, 8192, 65536, 100000, 1 << 20, (1 << 20) + 1,
                        1 << 30, (1 << 30) + 1, Integer.MAX_VALUE, Integer.MIN_VALUE)),
                Tuple.of(1, Arbitraries.integers().between(0, 3_000_000)));
    }

    @Provide
    Arbitrary<ModelCheck.Setup> setups() {
        return setupArbitrary();
    }

    /**
     * A pipe under test, drawn afresh for every sequence (so one run of a property covers every configuration,
     * and its coverage statistics are checked once), and options as the model check opens pipes with them.
     *
     * @param needs what the property needs of the pipes beyond opening as requested
     */
    static Arbitrary<ModelCheck.Setup> setupArbitrary(Capability... needs) {
        Capability[] all = java.util.stream.Stream.concat(java.util.stream.Stream.of(Capability.AS_REQUESTED),
                java.util.Arrays.stream(needs)).toArray(Capability[]::new);
        return Arbitraries.of(TestPipes.underTest(all)).flatMap(PipeModelTest::setupArbitrary);
    }

    private static Arbitrary<ModelCheck.Setup> setupArbitrary(PipeFactory pipes) {
        Arbitrary<Integer> capacity = Arbitraries.of(0, 1, 4096, 4097, 8192, 16384, 65536, 100000);
        // A kernel pipe's maximum is the system's pipe-max-size (1 MiB here); other maxima are in-process only.
        Arbitrary<Integer> max = pipes.has(Capability.ANY_CAPACITY)
                ? Arbitraries.of(4096, 16384, 65536, 131072, 1 << 20) : Arbitraries.just(1 << 20);
        Arbitrary<Boolean> mostlyTrue = Arbitraries.frequency(Tuple.of(4, true), Tuple.of(1, false));
        return Combinators.combine(capacity, max, Arbitraries.of(false, true), mostlyTrue, mostlyTrue)
                .as((c, m, packet, nbRead, nbWrite) -> new ModelCheck.Setup(pipes, c, m, packet, nbRead, nbWrite))
                .filter(s -> PipeModel.roundPipeSize(s.capacity()) <= PipeModel.roundPipeSize(s.maxCapacity()));
    }

    @Provide
    Arbitrary<List<Op>> ops() {
        return oneOp().list().ofMinSize(1).ofMaxSize(60);
    }

    /** One op of a single pipe, in the proportions the sequences use. */
    static Arbitrary<Op> oneOp() {
        Arbitrary<Integer> handle = Arbitraries.integers().between(0, 5);
        Arbitrary<Boolean> side = Arbitraries.of(true, false);
        Arbitrary<Boolean> flag = Arbitraries.of(true, false);
        Arbitrary<Integer> writeSize = Arbitraries.frequencyOf(
                Tuple.of(3, Arbitraries.of(0, 1, 100, 4000, 4095, 4096, 4097, 8192, 10000, 70000)),
                Tuple.of(2, Arbitraries.integers().between(1, 300)),
                Tuple.of(1, Arbitraries.integers().between(1, 20000)));
        Arbitrary<Integer> readSize = Arbitraries.frequencyOf(
                Tuple.of(3, Arbitraries.of(0, 1, 100, 4095, 4096, 4097, 8192, 70000)),
                Tuple.of(1, Arbitraries.integers().between(1, 20000)));
        // F_SETPIPE_SZ's argument is an unsigned 32-bit size: the long sizes go up to 2^32 - 1 and beyond.
        Arbitrary<Long> capacity = Arbitraries.frequencyOf(
                Tuple.of(3, Arbitraries.of(-1L, 0L, 1L, 4096L, 4097L, 8192L, 16384L, 65536L, 100000L, 131072L,
                        1L << 20, (1L << 20) + 1, 1L << 30, (1L << 30) + 1, (long) Integer.MAX_VALUE,
                        (long) Integer.MIN_VALUE, 1L << 31, (1L << 32) - 1, 1L << 32, Long.MAX_VALUE, Long.MIN_VALUE)),
                Tuple.of(1, Arbitraries.longs().between(0, 300_000)));

        Arbitrary<Integer> shape = Arbitraries.integers().between(0, 3);
        Arbitrary<Op> write = Combinators.combine(handle, writeSize, Arbitraries.longs(), shape).as(Op.Write::new);
        Arbitrary<Op> read = Combinators.combine(handle, readSize, shape).as(Op.Read::new);
        Arbitrary<Op> setCapacity = capacity.map(Op.SetCapacity::new);
        Arbitrary<Op> dup = Combinators.combine(side, handle).as(Op.Dup::new);
        Arbitrary<Op> reopen = Combinators.combine(side, handle).as(Op.Reopen::new);
        Arbitrary<Op> close = Combinators.combine(side, handle).as(Op.Close::new);
        Arbitrary<Op> packet = Combinators.combine(handle, flag).as(Op.SetPacketMode::new);
        Arbitrary<Op> nonBlocking = Combinators.combine(side, handle, Arbitraries.frequency(
                Tuple.of(3, true), Tuple.of(1, false))).as(Op.SetNonBlocking::new);
        Arbitrary<Op> available = handle.map(Op.Available::new);
        Arbitrary<Op> whenReady = Combinators.combine(side, handle).as(Op.WhenReady::new);
        Arbitrary<Op> reset = Arbitraries.just(new Op.ResetCounters());

        return Arbitraries.frequencyOf(
                Tuple.of(30, write),
                Tuple.of(25, read),
                Tuple.of(8, setCapacity),
                Tuple.of(5, dup),
                Tuple.of(2, reopen),
                Tuple.of(4, close),
                Tuple.of(5, packet),
                Tuple.of(5, nonBlocking),
                Tuple.of(3, available),
                Tuple.of(4, whenReady),
                Tuple.of(1, reset));
    }
}
