package dev.sluice.bench;

import dev.sluice.PipeOptions;
import dev.sluice.policy.LockStrategy;
import dev.sluice.policy.WakePolicy;
import java.time.Duration;

/** Turns the benchmarks' string parameters into pipe options, with a clear error for a bad name. */
final class SluiceConfig {
    private SluiceConfig() {
    }

    static PipeOptions options(String policy, String lock, String spinMicros) {
        LockStrategy l = switch (lock) {
            case "mutex" -> LockStrategy.MUTEX;
            case "spin" -> LockStrategy.SPIN;
            default -> throw new IllegalArgumentException("unknown lock strategy " + lock + " (mutex, spin)");
        };
        return PipeOptions.builder()
                .wakePolicy(WakePolicy.fromAlias(policy))
                .lockStrategy(l)
                .spinBeforePark(Duration.ofNanos((long) (Double.parseDouble(spinMicros) * 1000)))
                .build();
    }
}
