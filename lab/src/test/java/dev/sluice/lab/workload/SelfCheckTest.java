package dev.sluice.lab.workload;

import dev.sluice.lab.targets.Family;
import dev.sluice.lab.targets.JdkPipedTarget;
import dev.sluice.lab.targets.NioTarget;
import dev.sluice.lab.targets.OkioTarget;
import dev.sluice.lab.targets.SluiceTarget;
import dev.sluice.lab.targets.Targets;
import dev.sluice.lab.targets.Target;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Every workload passes its own check at tiny sizes on every target that can run it (at least Sluice and
 * nio each), and fails loudly when a target corrupts one write.
 */
class SelfCheckTest {

    /** Tiny parameters: enough to fill a pipe and make threads wait, small enough to be quick. */
    static Map<String, Long> tiny(String workload) {
        return switch (workload) {
            case "hackbench" -> Map.of("groups", 2L, "fds", 4L, "loops", 50L, "datasize", 100L);
            case "pingpong" -> Map.of("loops", 500L, "size", 3L);
            case "jobserver" -> Map.of("workers", 8L, "tokens", 3000L);
            case "nonblock" -> Map.of("loops", 20L, "size", 100L);
            case "pipebench" -> Map.of("writers", 1L, "readers", 1L, "write-size", 65536L, "pipe-size", 1L << 20,
                    "bytes", 4L << 20);
            case "pipen" -> Map.of("size", 4096L, "bytes", 2L << 20);
            case "tee" -> Map.of("records", 20_000L);
            default -> throw new IllegalArgumentException(workload);
        };
    }

    static List<Target> targets() {
        return List.of(SluiceTarget.defaults(), Targets.kernel(), new NioTarget(), new OkioTarget(),
                new JdkPipedTarget());
    }

    static Stream<Arguments> cases() {
        List<Arguments> out = new ArrayList<>();
        for (Workload w : Workloads.all()) {
            for (Target t : targets()) {
                out.add(Arguments.of(w.name(), t, ThreadKind.PLATFORM));
            }
            out.add(Arguments.of(w.name(), SluiceTarget.defaults(), ThreadKind.VIRTUAL));
        }
        return out.stream();
    }

    @ParameterizedTest(name = "{0} on {1} ({2})")
    @MethodSource("cases")
    void passesItsCheck(String name, Target target, ThreadKind threads) throws Exception {
        Workload w = Workloads.byName(name);
        Map<String, Long> p = tiny(name);
        if (w.unsupported(target, p, threads).isPresent()) {
            // Reported as n/a with a reason; Sluice and nio must run everything.
            assertThat(target.family()).isIn(Family.JDK_PIPED, Family.OKIO);
            assertThat(w.unsupported(target, p, threads).get()).isNotBlank();
            return;
        }
        Outcome o = w.run(target, p, threads);
        assertThat(o.nanos()).isPositive();
        assertThat(o.bytes()).isPositive();
        assertThat(o.metrics()).containsKey(w.primary().key());
        if (target.family() == Family.SLUICE) {
            assertThat(o.counters()).containsKeys("readerWakeups", "writerWakeups", "emptyWakeups");
        }
    }

    /** stress-ng's tee makes tee and splice calls; the lab does too wherever the pipe has them, and says so. */
    @ParameterizedTest(name = "tee on {0}")
    @MethodSource("teeTargets")
    void teeUsesTheTargetsOwnTeeWhereItHasOne(Target target, String expectedNote) throws Exception {
        Outcome o = Workloads.byName("tee").run(target, tiny("tee"), ThreadKind.PLATFORM);
        assertThat(o.note()).startsWith(expectedNote);
        assertThat(o.metrics().get("records/s")).isPositive();
    }

    static Stream<Arguments> teeTargets() {
        return Stream.of(Arguments.of(SluiceTarget.defaults(), "zero-copy: Splice.tee"),
                Arguments.of(Targets.kernel(), "zero-copy: tee(2)"),
                Arguments.of(new NioTarget(), "plain-copy fallback"));
    }

    @ParameterizedTest(name = "matrix writers={0} readers={1} on {2}")
    @MethodSource("matrix")
    void pipebenchMatrixChecksSums(long writers, long readers, Target target) throws Exception {
        Workload w = Workloads.byName("pipebench");
        Outcome o = w.run(target, Map.of("writers", writers, "readers", readers, "write-size", 65536L,
                "pipe-size", 1L << 20, "bytes", 4L << 20), ThreadKind.PLATFORM);
        assertThat(o.bytes()).isEqualTo((4L << 20) / writers / 65536 * 65536 * writers);
    }

    static Stream<Arguments> matrix() {
        return Stream.of(Arguments.of(2L, 5L, SluiceTarget.defaults()), Arguments.of(5L, 1L, new NioTarget()),
                Arguments.of(2L, 2L, Targets.kernel()));
    }

    /** Streaming peers flush only at the end, ping-pong flushes every message: both still pass their checks. */
    @ParameterizedTest(name = "{0} on {1}")
    @MethodSource("bufferedPeers")
    void bufferedPeersPassStreamingAndPingPong(String name, Target target) throws Exception {
        Workload w = Workloads.byName(name);
        Outcome o = w.run(target, tiny(name), ThreadKind.PLATFORM);
        assertThat(o.metrics().get(w.primary().key())).isPositive();
    }

    static Stream<Arguments> bufferedPeers() {
        return Stream.of("pipen", "pingpong", "tee").flatMap(n -> Stream.of(Arguments.of(n, new OkioTarget()),
                Arguments.of(n, new JdkPipedTarget())));
    }

    @org.junit.jupiter.api.Test
    void bufferedPeersFlushOnlyWhereLatencyIsThePoint() {
        for (Target t : List.of(new OkioTarget(), new JdkPipedTarget())) {
            assertThat(t.how(Workloads.byName("pingpong").traffic())).contains("flush() after every write");
            for (String streaming : List.of("pipen", "pipebench", "tee")) {
                assertThat(t.how(Workloads.byName(streaming).traffic())).doesNotContain("after every write");
            }
        }
    }

    static Stream<Arguments> corrupted() {
        return Workloads.all().stream().flatMap(w -> Stream.of(
                Arguments.of(w.name(), SluiceTarget.defaults()), Arguments.of(w.name(), new NioTarget())));
    }

    @ParameterizedTest(name = "corrupted {0} on {1} fails")
    @MethodSource("corrupted")
    void corruptedTransferFailsLoudly(String name, Target target) {
        Workload w = Workloads.byName(name);
        Target bad = new CorruptingTarget(target, 3);
        assertThatThrownBy(() -> w.run(bad, tiny(name), ThreadKind.PLATFORM))
                .isInstanceOf(CheckFailure.class);
    }
}
