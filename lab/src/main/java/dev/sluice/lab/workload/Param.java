package dev.sluice.lab.workload;

import java.util.List;

/**
 * A workload parameter. Values are lists: a workload runs once per combination of them (so
 * {@code --writers 1,2,5 --readers 1,5,10} is Breno Leitao's matrix).
 *
 * @param name        option name without dashes
 * @param description what it is, and where the default comes from
 * @param defaults    the original's default
 * @param quick       the small preset used by {@code --quick}
 */
public record Param(String name, String description, List<Long> defaults, List<Long> quick) {
    public static Param of(String name, String description, long dflt, long quick) {
        return new Param(name, description, List.of(dflt), List.of(quick));
    }
}
