package dev.sluice.lab.run;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.sluice.lab.report.Results;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * The commit a results file records is the one this checkout's HEAD names, also in a linked worktree (where
 * the build used to record the main worktree's HEAD instead).
 */
class ProvenanceTest {

    @Test
    void theRecordedCommitIsThisCheckoutsHead() throws Exception {
        Path root = Path.of("").toAbsolutePath().getParent();
        assumeTrue(Files.exists(root.resolve(".git")), "not a git checkout: the build records no commit");
        String head = git(root, "rev-parse", "--short=7", "HEAD");
        assumeTrue(head != null, "no git to ask");
        Results.Build build = Provenance.build();
        assertThat(build.version()).isNotEqualTo("unknown");
        assertThat(build.commit()).as("the commit in build.properties").startsWith(head)
                .matches("[0-9a-f]{7}(\\+dirty)?");
    }

    /** {@return what git printed, trimmed, or null if it could not run or failed} */
    private static String git(Path dir, String... args) throws InterruptedException {
        String[] cmd = new String[args.length + 1];
        cmd[0] = "git";
        System.arraycopy(args, 0, cmd, 1, args.length);
        try {
            Process p = new ProcessBuilder(cmd).directory(dir.toFile()).redirectError(ProcessBuilder.Redirect.DISCARD)
                    .start();
            String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim();
            // A safety net against a wedged git, not a timing assertion.
            return p.waitFor(60, TimeUnit.SECONDS) && p.exitValue() == 0 ? out : null;
        } catch (IOException e) {
            return null;
        }
    }
}
