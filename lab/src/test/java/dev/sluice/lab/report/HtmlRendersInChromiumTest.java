package dev.sluice.lab.report;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * The report renders in a headless Chromium (a screenshot of it is a real PNG with content). Skipped where
 * no Chromium is installed, so the build does not depend on a browser.
 */
class HtmlRendersInChromiumTest {

    static Path chromium() {
        for (String dir : System.getenv().getOrDefault("PATH", "").split(java.io.File.pathSeparator)) {
            for (String name : List.of("chromium", "chromium-browser", "google-chrome")) {
                Path p = Path.of(dir, name);
                if (Files.isExecutable(p)) {
                    return p;
                }
            }
        }
        return null;
    }

    @Test
    void screenshotOfTheReportIsAnImage(@TempDir Path dir) throws Exception {
        Path browser = chromium();
        assumeTrue(browser != null, "no chromium on PATH");
        Path html = dir.resolve("report.html");
        Html.write(ReportTest.sample(), html);
        Path png = dir.resolve("shot.png");
        Process p = new ProcessBuilder(browser.toString(), "--headless", "--no-sandbox", "--disable-gpu",
                "--disable-background-networking", "--user-data-dir=" + dir.resolve("profile"),
                "--window-size=1000,800", "--screenshot=" + png, html.toUri().toString())
                .redirectErrorStream(true).redirectOutput(dir.resolve("chromium.log").toFile()).start();
        // A safety net against a wedged browser, not a timing assertion.
        if (!p.waitFor(120, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            throw new AssertionError("chromium did not exit: " + Files.readString(dir.resolve("chromium.log")));
        }
        assertThat(png).as(Files.readString(dir.resolve("chromium.log"))).exists();
        byte[] img = Files.readAllBytes(png);
        assertThat(img.length).isGreaterThan(5_000);
        assertThat(new String(img, 1, 3, java.nio.charset.StandardCharsets.US_ASCII)).isEqualTo("PNG");
    }
}
