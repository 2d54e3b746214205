package dev.sluice.bench;

import dev.sluice.PipeOptions;
import dev.sluice.policy.Aliased;
import dev.sluice.policy.LockStrategy;
import dev.sluice.policy.SpinPolicy;
import dev.sluice.policy.WakePolicy;
import java.time.Duration;

/** Turns the benchmarks' string parameters into pipe options, with a clear error for a bad name. */
final class SluiceConfig {
    private SluiceConfig() {
    }

    static PipeOptions options(String policy, String lock, String spinMicros) {
        // "a20": the adaptive spin policy with a longest spin of 20 µs; a bare number spins that long every time.
        boolean adaptive = spinMicros.startsWith("a");
        String micros = adaptive ? spinMicros.substring(1) : spinMicros;
        return PipeOptions.builder()
                .spinPolicy(adaptive ? SpinPolicy.ADAPTIVE : SpinPolicy.FIXED)
                .wakePolicy(Aliased.parse(WakePolicy.class, policy, "policy"))
                .lockStrategy(Aliased.parse(LockStrategy.class, lock, "lock"))
                .spinBeforePark(Duration.ofNanos((long) (Double.parseDouble(micros) * 1000)))
                .build();
    }
}
