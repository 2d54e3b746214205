package dev.sluice;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** {@code Pipe} is {@code AutoCloseable}: it closes the two handles it was opened with, not their duplicates. */
class PipeCloseTest {

    @Test
    void closingThePipeClosesItsOwnHandlesOnly() throws Exception {
        Pipe p = Pipe.open();
        ReadEnd keptReader = p.reader().dup();
        WriteEnd keptWriter = p.writer().dup();
        keptWriter.write(new byte[] {1, 2, 3});
        p.close();
        assertThat(p.reader().isOpen()).isFalse();
        assertThat(p.writer().isOpen()).isFalse();
        assertThat(p.stat().readers()).isEqualTo(1);
        assertThat(p.stat().writers()).isEqualTo(1);
        keptWriter.close(); // the last writer: end-of-stream after the queued bytes
        assertThat(keptReader.read(new byte[10])).isEqualTo(3);
        assertThat(keptReader.read(new byte[10])).isEqualTo(-1);
        p.close(); // twice: nothing
    }

    @Test
    void aTryWithResourcesBlockLeavesNothingOpen() throws Exception {
        Pipe outside;
        try (Pipe p = Pipe.open()) {
            outside = p;
            p.writer().write(new byte[100]);
        }
        assertThat(outside.stat().readers()).isZero();
        assertThat(outside.stat().writers()).isZero();
    }

    @Test
    void countersPrintOnOneLineAndOnSeveralForPeople() throws Exception {
        Pipe p = Pipe.open();
        p.writer().write(new byte[5000]);
        assertThat(p.counters().toString()).doesNotContain("\n").contains("bytes in 5,000").startsWith("PipeCounters[");
        assertThat(p.counters().toMultilineString().lines()).hasSize(6).anyMatch(l -> l.contains("written 5,000"));
    }
}
