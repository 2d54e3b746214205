package dev.sluice.lab.measure;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;

/** The facts about the machine that move the figures, read where Linux exposes them; "n/a" otherwise. */
public final class Machine {
    private Machine() {
    }

    /**
     * The load per core.
     *
     * @param facts the machine facts
     * @return the 1-minute load average divided by the cores, or NaN if unknown
     */
    public static double loadPerCore(Map<String, String> facts) {
        try {
            return Double.parseDouble(facts.get("loadavg")) / Double.parseDouble(facts.get("cores"));
        } catch (RuntimeException e) {
            return Double.NaN;
        }
    }

    /** {@return the facts that move the figures: cores, cpu, jdk, kernel, cpuidle, halt-polling, load} */
    public static Map<String, String> facts() {
        Map<String, String> m = new LinkedHashMap<>();
        m.put("cores", Integer.toString(Runtime.getRuntime().availableProcessors()));
        m.put("cpu", cpuModel());
        m.put("jdk", System.getProperty("java.vm.vendor", "?") + " " + System.getProperty("java.runtime.version",
                System.getProperty("java.version", "?")));
        m.put("os", System.getProperty("os.name") + " " + System.getProperty("os.arch"));
        m.put("kernel", read("/proc/sys/kernel/osrelease"));
        m.put("cpuidle", read("/sys/devices/system/cpu/cpuidle/current_driver"));
        m.put("haltPollNs", read("/sys/module/kvm/parameters/halt_poll_ns"));
        m.put("governor", read("/sys/devices/system/cpu/cpu0/cpufreq/scaling_governor"));
        m.put("virtualization", read("/sys/class/dmi/id/sys_vendor"));
        // Other work on the machine moves every figure; the 1-minute load average says how much there was.
        String load = read("/proc/loadavg");
        m.put("loadavg", load.equals("n/a") ? load : load.split(" ")[0]);
        return m;
    }

    private static String cpuModel() {
        try {
            for (String line : Files.readAllLines(Path.of("/proc/cpuinfo"))) {
                if (line.startsWith("model name")) {
                    return line.substring(line.indexOf(':') + 1).trim();
                }
            }
        } catch (IOException | RuntimeException ignored) {
            // not Linux, or not readable
        }
        return "n/a";
    }

    private static String read(String path) {
        try {
            String s = Files.readString(Path.of(path)).trim();
            return s.isEmpty() ? "n/a" : s;
        } catch (IOException | RuntimeException e) {
            return "n/a";
        }
    }
}
