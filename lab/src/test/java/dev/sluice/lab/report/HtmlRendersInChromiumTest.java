package dev.sluice.lab.report;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import javax.imageio.ImageIO;
import java.awt.image.BufferedImage;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * The report as a browser shows it: headless Chromium parses it (its DOM has the summary table with a row
 * per workload, and a whisker with real extent per bar) and paints it (the screenshot has the baseline's
 * grey, the first palette colour and the whiskers' black at the top of the page, where the summary and the
 * first chart are). Skipped where no Chromium is installed, so the build does not depend on a browser.
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

    private static String chrome(Path browser, Path dir, String... args) throws Exception {
        List<String> cmd = new ArrayList<>(List.of(browser.toString(), "--headless", "--no-sandbox",
                "--disable-gpu", "--disable-background-networking", "--user-data-dir=" + dir.resolve("profile")));
        cmd.addAll(List.of(args));
        Path log = dir.resolve("chromium-" + System.nanoTime() + ".log");
        Process p = new ProcessBuilder(cmd).redirectError(log.toFile()).start();
        byte[] out = p.getInputStream().readAllBytes();
        // A safety net against a wedged browser, not a timing assertion.
        if (!p.waitFor(120, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            throw new AssertionError("chromium did not exit: " + Files.readString(log));
        }
        return new String(out, StandardCharsets.UTF_8);
    }

    @Test
    void theSummaryAndTheWhiskersAreDrawn(@TempDir Path dir) throws Exception {
        Path browser = chromium();
        assumeTrue(browser != null, "no chromium on PATH");
        Path html = dir.resolve("report.html");
        new HtmlFormat().write(Analysis.of(ReportTest.withReps()), html);

        String dom = chrome(browser, dir, "--dump-dom", html.toUri().toString());
        Matcher summary = Pattern.compile("<table id=\"summary\">(.*?)</table>", Pattern.DOTALL).matcher(dom);
        assertThat(summary.find()).as(dom).isTrue();
        assertThat(summary.group(1).split("<tr>", -1)).as("header and one row per workload").hasSize(1 + 1 + 2);
        Matcher whisker = Pattern.compile("<line class=\"whisker\" x1=\"([0-9.]+)\" y1=\"[0-9]+\" x2=\"([0-9.]+)\"")
                .matcher(dom);
        int whiskers = 0;
        while (whisker.find()) {
            whiskers++;
            assertThat(Double.parseDouble(whisker.group(2))).isGreaterThanOrEqualTo(Double.parseDouble(
                    whisker.group(1)));
        }
        assertThat(whiskers).as("one per bar: 5 in hackbench, 2 in pipen").isEqualTo(7);

        Path png = dir.resolve("shot.png");
        chrome(browser, dir, "--window-size=1000,1400", "--screenshot=" + png, html.toUri().toString());
        BufferedImage img = ImageIO.read(png.toFile());
        assertThat(img).as("a PNG").isNotNull();
        assertThat(count(img, HtmlFormat.BASELINE)).as("the baseline's grey bar").isGreaterThan(200);
        assertThat(count(img, HtmlFormat.PALETTE[0])).as("the first target's bar").isGreaterThan(200);
        assertThat(count(img, HtmlFormat.WHISKER)).as("the whiskers' black").isGreaterThan(50);
    }

    private static int count(BufferedImage img, String hex) {
        int rgb = Integer.parseInt(hex.substring(1), 16);
        int n = 0;
        for (int y = 0; y < img.getHeight(); y++) {
            for (int x = 0; x < img.getWidth(); x++) {
                if ((img.getRGB(x, y) & 0xffffff) == rgb) {
                    n++;
                }
            }
        }
        return n;
    }
}
