package dev.sluice.lab.run;

import dev.sluice.lab.report.Results;

import java.io.IOException;
import java.io.InputStream;
import java.lang.management.ManagementFactory;
import java.util.List;
import java.util.Properties;

/** Which Sluice and which JVM produced a session's figures, for every results file. */
public final class Provenance {
    private Provenance() {
    }

    /** {@return the lab's version and the git commit it was built from, "unknown" where the build did not say} */
    public static Results.Build build() {
        Properties p = new Properties();
        try (InputStream in = Provenance.class.getResourceAsStream("/dev/sluice/lab/build.properties")) {
            if (in != null) {
                p.load(in);
            }
        } catch (IOException e) {
            // reported as unknown
        }
        String version = known(p.getProperty("version"));
        String commit = known(p.getProperty("commit"));
        if (!commit.equals("unknown") && "true".equals(p.getProperty("dirty"))) {
            commit += "+dirty";
        }
        return new Results.Build(version, commit);
    }

    private static String known(String s) {
        return s == null || s.isBlank() || s.startsWith("${") ? "unknown" : s;
    }

    /** {@return this JVM, with the arguments it was started with} */
    public static Results.Jvm jvm() {
        List<String> args;
        try {
            args = List.copyOf(ManagementFactory.getRuntimeMXBean().getInputArguments());
        } catch (RuntimeException | LinkageError e) {
            args = List.of();
        }
        return new Results.Jvm(System.getProperty("java.vm.name", "?"), System.getProperty("java.vm.vendor", "?"),
                System.getProperty("java.vm.version", "?"), System.getProperty("java.home", "?"), args);
    }
}
