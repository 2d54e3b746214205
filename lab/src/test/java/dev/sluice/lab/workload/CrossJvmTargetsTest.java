package dev.sluice.lab.workload;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.lab.run.Contender;
import dev.sluice.lab.targets.CrossJvmTarget;
import dev.sluice.lab.targets.Target;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** The targets whose peer is a child JVM: pingpong and pipen run and pass their checks; the rest are n/a. */
class CrossJvmTargetsTest {

    static Stream<Arguments> cases() {
        return Stream.of(CrossJvmTarget.shm(), CrossJvmTarget.kernelJvm()).flatMap(t -> Stream.of(
                Arguments.of(t, "pingpong", Map.of("loops", 300L, "size", 100L), ThreadKind.PLATFORM),
                Arguments.of(t, "pipen", Map.of("size", 65536L, "bytes", 8L << 20), ThreadKind.VIRTUAL)));
    }

    @ParameterizedTest(name = "{1} on {0}")
    @MethodSource("cases")
    void runsWithThePeerInAChildJvm(Target target, String workload, Map<String, Long> params, ThreadKind threads)
            throws Exception {
        assertThat(target.unavailable()).isEmpty();
        Workload w = Workloads.byName(workload);
        assertThat(new Contender.OnTarget(target).cannotRun(w, params, threads)).isEmpty();
        Outcome o = w.run(target, params, threads);
        assertThat(o.metrics().get(w.primary().key())).isPositive();
        assertThat(o.bytes()).isEqualTo(workload.equals("pipen") ? 8L << 20 : 2 * 300 * 100L);
    }

    @Test
    void theOtherWorkloadsSayWhyNot() {
        for (Workload w : Workloads.all()) {
            if (!List.of("pingpong", "pipen").contains(w.name())) {
                assertThat(new Contender.OnTarget(CrossJvmTarget.shm()).cannotRun(w, SelfCheckTest.tiny(w.name()),
                        ThreadKind.PLATFORM)).contains(CrossJvmTarget.whyNot());
            }
        }
    }
}
