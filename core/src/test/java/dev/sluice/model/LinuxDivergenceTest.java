package dev.sluice.model;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.testing.Capability;
import dev.sluice.testing.PipeContract;
import dev.sluice.testing.Requires;
import dev.sluice.Pipe;
import dev.sluice.PipeOptions;
import dev.sluice.WriteEnd;
import java.io.IOException;
import org.junit.jupiter.api.Test;

/**
 * Corners where Linux's behaviour surprised us, each pinned down as Sluice now follows it. They were found
 * by {@link PipeModel}, written from Linux's rules, disagreeing with Sluice.
 */
@Requires(Capability.AS_REQUESTED)
class LinuxDivergenceTest extends PipeContract {

    /**
     * anon_pipe_write's merge step looks only at the newest buffer's CAN_MERGE flag, not at the writer's
     * O_DIRECT: a packet-mode write of n bytes appends its first {@code n % 4096} bytes to a page a normal
     * write left mergeable, and only the rest becomes packets. Sluice once kept every packet-mode write a
     * packet (and linux-pipe.md §1.6 says "no merging"); the model property with {@code packetWritesMerge =
     * true} shrank the difference to exactly this sequence, and Sluice now does what Linux does.
     */
    @Test
    void packetModeWriteMergesIntoAPrecedingNormalPageAsOnLinux() throws IOException {
        Pipe p = open(options().capacity(Pipe.PAGE_SIZE).nonBlocking(true).build());
        WriteEnd w = p.writer();
        assertThat(w.write(new byte[] {1})).isEqualTo(1);
        w.setPacketMode(true);
        // The byte joins the first page (returns 1), where a packet would need a free slot (EAGAIN, 0).
        assertThat(w.write(new byte[] {2})).isEqualTo(1);
        if (has(Capability.OCCUPANCY)) assertThat(p.stat().slotsUsed()).isEqualTo(1);
        byte[] b = new byte[16];
        assertThat(p.reader().read(b)).as("both bytes come back in one read: they share a page").isEqualTo(2);
    }

    /**
     * dup(2) shares the open file description, and O_DIRECT and O_NONBLOCK are flags of the description:
     * a program that duplicates its write end and turns packet mode on through one descriptor writes packets
     * through both. Sluice's dup once copied the mode instead, and in a differential check of random programs
     * against Linux that one choice accounted for nearly every divergent result (the byte counts of every
     * later read drift). Run by the kernel module against real pipes, this checks the kernel says the same.
     */
    @Test
    void aModeSetThroughADupHoldsForTheOriginalAsOnLinux() throws IOException {
        Pipe p = open(options().capacity(2 * Pipe.PAGE_SIZE).build());
        WriteEnd copy = p.writer().dup();
        copy.setPacketMode(true);
        copy.setNonBlocking(true);
        assertThat(p.writer().write(new byte[10])).isEqualTo(10);
        assertThat(p.writer().write(new byte[20])).isEqualTo(20);
        assertThat(p.writer().write(new byte[30])).as("EAGAIN: two packets fill two slots").isZero();
        byte[] b = new byte[100];
        assertThat(p.reader().read(b)).as("the original wrote packets").isEqualTo(10);
        assertThat(p.reader().read(b)).isEqualTo(20);
        WriteEnd own = p.writer().reopen(); // open("/proc/self/fd/N"): a description of its own
        own.setPacketMode(false);
        assertThat(p.writer().isPacketMode()).isTrue();
        own.write(new byte[5]);
        own.write(new byte[6]);
        assertThat(p.reader().read(b)).as("the reopened handle's normal writes merged").isEqualTo(11);
    }
}
