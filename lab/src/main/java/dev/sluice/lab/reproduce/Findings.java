package dev.sluice.lab.reproduce;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** The closing line of {@code lab reproduce}: how many findings got each verdict. */
public final class Findings {
    private Findings() {
    }

    /**
     * Counts the findings by verdict, naming the experiments of each, for the last line of {@code lab reproduce}.
     *
     * @param findings the findings
     * @return e.g. {@code Reproduced 2 of 7 (6, 7); same direction, within noise 2 (4, 5); not reproduced 3 (1, 2, 3).}
     */
    public static String summary(List<Finding> findings) {
        Map<String, List<Integer>> by = new LinkedHashMap<>();
        for (Verdict v : Verdict.values()) {
            by.put(v.words(), new java.util.ArrayList<>());
        }
        findings.forEach(f -> by.computeIfAbsent(f.verdict(), k -> new java.util.ArrayList<>()).add(f.number()));
        StringBuilder sb = new StringBuilder();
        by.forEach((verdict, numbers) -> {
            if (!numbers.isEmpty()) {
                sb.append(sb.isEmpty() ? Character.toUpperCase(verdict.charAt(0)) + verdict.substring(1) : "; "
                        + verdict).append(' ').append(numbers.size()).append(" of ").append(findings.size())
                        .append(" (").append(String.join(", ", numbers.stream().map(String::valueOf).toList()))
                        .append(')');
            }
        });
        return sb.append('.').toString();
    }
}
