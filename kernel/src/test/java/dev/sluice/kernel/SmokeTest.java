package dev.sluice.kernel;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class SmokeTest {
    @Test
    void writeThenRead() throws Exception {
        KernelPipe p = KernelPipe.open();
        assertThat(p.writer().write(new byte[] {1, 2, 3})).isEqualTo(3);
        byte[] b = new byte[10];
        assertThat(p.reader().read(b)).isEqualTo(3);
        assertThat(p.capacity()).isEqualTo(65536);
        p.writer().close();
        assertThat(p.reader().read(b)).isEqualTo(-1);
        p.reader().close();
    }
}
