package dev.sluice.internal;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class CpuCrowdingTest {
    @TempDir
    Path dir;

    private static int runnable(String text) {
        byte[] b = text.getBytes(StandardCharsets.US_ASCII);
        return CpuCrowding.runnable(b, b.length);
    }

    @Test
    void readsTheRunnableCountOfLoadavg() {
        assertThat(runnable("0.52 0.58 0.59 3/467 12345\n")).isEqualTo(3);
        assertThat(runnable("12.00 9.10 4.20 128/2048 1\n")).isEqualTo(128);
        assertThat(runnable("0.52 0.58 0.59 3")).as("cut before the slash").isEqualTo(-1);
        assertThat(runnable("0.52 0.58")).isEqualTo(-1);
        assertThat(runnable("a b c /4 5")).isEqualTo(-1);
        assertThat(runnable("a b c 99999999999/4 5")).as("no overflow").isEqualTo(-1);
        assertThat(runnable("")).isEqualTo(-1);
    }

    @Test
    void countsCpuLists() {
        assertThat(CpuCrowding.cpuListSize("0-1")).isEqualTo(2);
        assertThat(CpuCrowding.cpuListSize("0")).isEqualTo(1);
        assertThat(CpuCrowding.cpuListSize("0-3,8-11,16")).isEqualTo(9);
        assertThat(CpuCrowding.cpuListSize("3-1")).isEqualTo(-1);
        assertThat(CpuCrowding.cpuListSize("x")).isEqualTo(-1);
        assertThat(CpuCrowding.cpuListSize("")).isEqualTo(-1);
    }

    @Test
    void crowdedWhenMoreAreRunnableThanCpusAndRereadsWhenTheSampleIsOld() throws IOException {
        Path loadavg = Files.writeString(dir.resolve("loadavg"), "1.00 1.00 1.00 3/100 7\n");
        Path online = Files.writeString(dir.resolve("online"), "0-1\n");
        CpuCrowding c = new CpuCrowding(loadavg, online);
        for (int i = 1; i < CpuCrowding.STREAK; i++) {
            assertThat(c.isCrowded()).as("%d samples of 3 runnable on 2 CPUs are a moment, not a crowd", i)
                    .isFalse();
            awaitOlderThanASample(); // this thread is the only sampler: its next call samples again
        }
        assertThat(c.isCrowded()).as("a streak").isTrue();
        Files.writeString(loadavg, "1.00 1.00 1.00 2/100 7\n");
        assertThat(c.isCrowded()).as("the last sample is fresh: not read again").isTrue();
        awaitOlderThanASample();
        boolean crowded = c.isCrowded();
        assertThat(crowded).as("2 runnable on 2 CPUs").isFalse();
    }

    @Test
    void neverCrowdedWhereLoadavgCannotBeReadOrParsed() throws IOException {
        Path online = Files.writeString(dir.resolve("online"), "0\n");
        assertThat(new CpuCrowding(dir.resolve("missing"), online).isCrowded()).isFalse();
        Path garbage = Files.writeString(dir.resolve("loadavg"), "not a loadavg\n");
        CpuCrowding c = new CpuCrowding(garbage, online);
        assertThat(c.isCrowded()).isFalse();
        Files.writeString(garbage, "1.00 1.00 1.00 50/100 7\n");
        awaitOlderThanASample();
        assertThat(c.isCrowded()).as("gave up on the file for good").isFalse();
    }

    @Test
    void anUnreadableCpuListFallsBackToTheJvmsCount() {
        assertThat(CpuCrowding.onlineCpus(dir.resolve("missing")))
                .isEqualTo(Runtime.getRuntime().availableProcessors());
    }

    private static void awaitOlderThanASample() {
        long until = System.nanoTime() + 2 * CpuCrowding.REFRESH_NANOS;
        while (System.nanoTime() - until < 0) {
            Thread.onSpinWait();
        }
    }
}
