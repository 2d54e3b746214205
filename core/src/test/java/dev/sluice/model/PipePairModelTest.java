package dev.sluice.model;

import dev.sluice.testing.Capability;
import dev.sluice.testing.Requires;
import dev.sluice.testing.RequiresHook;
import java.util.List;
import java.util.Map;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.ShrinkingMode;
import net.jqwik.api.Tuple;
import net.jqwik.api.lifecycle.AddLifecycleHook;
import net.jqwik.api.statistics.Statistics;

/**
 * The model check of {@link PipeModelTest} on two pipes at once, with splice, tee and transfers to a failing
 * channel in among every op of a single pipe (writes of every shape, reads, resizes, dups, closes, packet and
 * nonblocking modes, readiness): after every step both pipes must agree with their models in results, bytes,
 * slots, counters and readiness. The model's splice and tee follow Linux's {@code splice_pipe_to_pipe} and
 * {@code link_pipe} as {@link dev.sluice.Splice} documents them, so this pins down how the zero-copy paths
 * change the slots a later write may merge into, the packets a later read returns, and end-of-stream, EAGAIN
 * and broken pipe as the normal calls see them. In-process pipes only (kernel pipes have no in-process splice).
 */
@Requires({Capability.SPLICE, Capability.CHANNEL_TRANSFER})
@AddLifecycleHook(RequiresHook.class)
class PipePairModelTest {

    /**
     * Cases every run of the property must have gone through, or the generators are off. At least once, not
     * three times as in {@link PipeModelTest}: the two-pipe cases are spread thinner, several come in only 6 to
     * 12 of 600 runs, and demanding three then fails by chance in about one suite in a few (the suite runs
     * this property 22 times).
     */
    private static final List<String> REQUIRED = List.of(
            "splice: moved", "splice: cut the first slot", "splice: EAGAIN, empty source",
            "splice: EAGAIN, full target", "splice: blocked on an empty source", "splice: blocked on a full target",
            "splice: EPIPE", "splice: EINVAL", "tee: shared", "tee: cut the first slot", "tee: EAGAIN, empty source",
            "tee: blocked on a full target", "transferTo: one slot", "transferTo: several slots",
            "transferTo: the channel failed at once", "transferTo: the channel failed part way",
            "transferTo: left part of a packet", "transferTo: EAGAIN, empty source",
            "transferTo: blocked on an empty source", "write: merged",
            "read: packet truncated", "read: spans slots", "setCapacity: EBUSY", "close: last writer",
            "close: last reader");
    /**
     * Rarer cases, counted over splice, tee and transfers together, with the fewest runs each must appear in:
     * end-of-stream of a source (about 60 runs in 600), and a splice or tee cut short by a full target (about
     * a dozen: asking for more would fail by chance now and then).
     */
    private static final Map<String, Integer> RARE = Map.of("EOF", 3, "stopped by a full target", 1);
    /**
     * Cases too rare to demand, only reported: a tee into a pipe with no reader comes in a handful of runs in
     * 600, so demanding even one fails by chance in about 1 of 150 runs of this test, which the suite runs
     * 22 times (it did fail so in CI). {@code Rule16TeeTest} covers it deterministically.
     */
    private static final List<String> REPORTED = List.of("tee: EPIPE");

    @Property(tries = 1200, shrinking = ShrinkingMode.FULL)
    void twoPipesWithSpliceTeeAndTransfersBehaveLikeTheModel(@ForAll("setups") List<ModelCheck.Setup> setups,
            @ForAll("ops") List<Op> ops) {
        ModelCheck check = new ModelCheck(setups, true);
        try {
            PipeModelTest.runAndCount(check, ops, REQUIRED, 1);
        } finally {
            for (String rare : RARE.keySet()) {
                if (check.events().stream().anyMatch(e -> e.equals(rare) || !e.startsWith("read") && e.endsWith(": "
                        + rare))) {
                    Statistics.label("rare").collect(rare);
                }
            }
            for (String reported : REPORTED) {
                if (check.events().contains(reported)) {
                    Statistics.label("reported").collect(reported);
                }
            }
            Statistics.label("rare").coverage(c -> RARE.forEach((rare, least) -> c.check(rare).count(n -> n >= least)));
        }
    }

    @Provide
    Arbitrary<List<ModelCheck.Setup>> setups() {
        return PipeModelTest.setupArbitrary(Capability.SPLICE, Capability.CHANNEL_TRANSFER).list().ofSize(2);
    }

    @Provide
    Arbitrary<List<Op>> ops() {
        Arbitrary<Integer> pipe = Arbitraries.integers().between(0, 1);
        Arbitrary<Integer> handle = Arbitraries.integers().between(0, 5);
        Arbitrary<Long> max = Arbitraries.frequencyOf(
                Tuple.of(12, Arbitraries.of(0L, 1L, 100L, 4095L, 4096L, 4097L, 10_000L, Long.MAX_VALUE)),
                Tuple.of(8, Arbitraries.longs().between(1, 20_000)),
                Tuple.of(1, Arbitraries.just(-1L)));
        Arbitrary<Long> budget = Arbitraries.frequencyOf(
                Tuple.of(3, Arbitraries.just(Long.MAX_VALUE)),
                Tuple.of(1, Arbitraries.just(0L)),
                Tuple.of(2, Arbitraries.longs().between(1, 10_000)));
        // Mostly between the two pipes; sometimes a pipe into itself, which is refused.
        Arbitrary<Integer> to = Arbitraries.frequency(Tuple.of(9, 1), Tuple.of(1, 0));
        Arbitrary<Op> spliceTee = Combinators.combine(pipe, handle, to, handle, max, Arbitraries.of(false, true))
                .as((f, r, d, w, m, tee) -> new Op.SpliceTee(f, r, f + d, w, m, tee));
        Arbitrary<Op> transferTo = Combinators.combine(pipe, handle, max, budget).as(Op.TransferTo::new);
        Arbitrary<Op> on = Combinators.combine(pipe, PipeModelTest.oneOp()).as(Op.On::new);
        // Closing writers a little more often than the ops of one pipe do, so sources reach end-of-stream.
        Arbitrary<Op> closeWriter = Combinators.combine(pipe, handle).as((p, h) -> new Op.On(p, new Op.Close(false,
                h)));
        return Arbitraries.frequencyOf(
                Tuple.of(12, on),
                Tuple.of(1, closeWriter),
                Tuple.of(4, spliceTee),
                Tuple.of(2, transferTo)).list().ofMinSize(1).ofMaxSize(60);
    }
}
