package dev.sluice.kernel;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.Pipe;
import dev.sluice.PipeSelector;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** One {@link PipeSelector} over kernel pipes and in-process pipes mixed. */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class KernelSelectorTest {

    @Test
    void kernelAndInProcessEndsAreSelectedTogether() throws Exception {
        try (PipeSelector s = PipeSelector.open(); KernelPipe k = KernelPipe.open(); Pipe p = Pipe.open()) {
            s.register(k.reader(), "kernel");
            s.register(p.reader(), "in-process");
            s.register(k.writer(), "kernel-write");
            assertThat(s.select(Duration.ofSeconds(10))).extracting(PipeSelector.Key::attachment)
                    .containsExactly("kernel-write"); // an empty kernel pipe is writable
            s.keys().stream().filter(key -> "kernel-write".equals(key.attachment())).forEach(PipeSelector.Key::cancel);
            assertThat(s.selectNow()).isEmpty();
            k.writer().write(new byte[] {1, 2});
            assertThat(s.select(Duration.ofSeconds(10))).extracting(PipeSelector.Key::attachment)
                    .containsExactly("kernel");
            p.writer().write(new byte[] {3});
            assertThat(s.select(Duration.ofSeconds(10))).extracting(PipeSelector.Key::attachment)
                    .containsExactlyInAnyOrder("kernel", "in-process");
            k.reader().read(new byte[2]);
            assertThat(s.select(Duration.ofSeconds(10))).extracting(PipeSelector.Key::attachment)
                    .containsExactly("in-process");
        }
    }
}
