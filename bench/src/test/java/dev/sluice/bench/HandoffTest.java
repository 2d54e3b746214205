package dev.sluice.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** The floor's hand-off must carry every token once and in order, or its round trip measures nothing. */
class HandoffTest {

    @ParameterizedTest
    @ValueSource(strings = {"platform", "virtual"})
    @Timeout(value = 60, unit = TimeUnit.SECONDS)
    void bouncesEveryTokenOnceAndEndsAtTheClose(String threads) throws Exception {
        Handoff there = new Handoff();
        Handoff back = new Handoff();
        int[] echoed = new int[1];
        Thread echo = Threads.start(threads, () -> {
            byte[] b = new byte[1];
            while (there.read(b, 0, 1) > 0) {
                b[0]++;
                back.write(b, 0, 1);
                echoed[0]++;
            }
        });
        byte[] token = new byte[1];
        for (int i = 0; i < 20_000; i++) {
            byte sent = token[0];
            there.write(token, 0, 1);
            assertThat(back.read(token, 0, 1)).isEqualTo(1);
            assertThat(token[0]).isEqualTo((byte) (sent + 1));
        }
        there.closeWriter();
        echo.join();
        assertThat(echoed[0]).isEqualTo(20_000);
        assertThat(there.read(token, 0, 1)).isEqualTo(-1);
    }

    @ParameterizedTest
    @ValueSource(ints = {0, 2})
    void refusesAnythingButOneByteReadBeforeTheNext(int len) {
        Handoff h = new Handoff();
        assertThatThrownBy(() -> h.write(new byte[2], 0, len)).isInstanceOf(IllegalStateException.class);
        h.write(new byte[1], 0, 1);
        assertThatThrownBy(() -> h.write(new byte[1], 0, 1)).isInstanceOf(IllegalStateException.class);
    }
}
