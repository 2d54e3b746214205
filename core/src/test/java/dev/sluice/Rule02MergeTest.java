package dev.sluice;

import dev.sluice.testing.Capability;

import static dev.sluice.ConformanceSupport.filled;
import static dev.sluice.ConformanceSupport.pattern;
import static dev.sluice.ConformanceSupport.readFully;
import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Rule 2, Linux {@code pipe_write} merge step (fs/pipe.c; linux-pipe.md §1.6): capacity is counted in page
 * slots, not bytes. A write first appends its sub-page remainder ({@code len & 4095}) to the newest page
 * if that page allows merging and has room after its last byte, so small writes share a slot; bytes
 * already read from the front of a page do not make room for merging. Packet-mode ({@code O_DIRECT})
 * writes never merge and are never merged into.
 */
@Timeout(value = 10, unit = TimeUnit.SECONDS)
class Rule02MergeTest extends ConformanceTest {

    @Test
    void sixteenOneByteWritesShareOneSlot() throws Exception {
        Pipe p = open();
        for (int i = 0; i < 16; i++) {
            assertThat(p.writer().write(new byte[] {(byte) i})).isEqualTo(1);
        }
        if (has(Capability.OCCUPANCY)) assertThat(p.stat().slotsUsed()).isEqualTo(1);
        assertThat(p.stat().bytesQueued()).isEqualTo(16);
        byte[] got = new byte[32];
        assertThat(p.reader().read(got)).isEqualTo(16);
        for (int i = 0; i < 16; i++) {
            assertThat(got[i]).isEqualTo((byte) i);
        }
    }

    @Test
    void sixteenWritesOf4000BytesFillTheRing() throws Exception {
        Pipe p = openNonBlocking(PipeOptions.DEFAULT_CAPACITY);
        for (int i = 0; i < 16; i++) {
            assertThat(p.writer().write(filled(4000, i))).as("write %d", i).isEqualTo(4000);
        }
        if (has(Capability.OCCUPANCY)) {
            assertThat(p.stat().slotsUsed()).as("4000 + 4000 > 4096: each write takes its own slot").isEqualTo(16);
        }
        assertThat(p.stat().bytesQueued()).isEqualTo(64000);

        assertThat(p.writer().write(filled(4000, 99))).as("17th: ring full although 1536 bytes are unused")
                .isZero();
        assertThat(p.stat().bytesQueued()).isEqualTo(64000);
        assertThat(p.writer().write(filled(96, 99))).as("but 96 bytes still merge into the last page")
                .isEqualTo(96);
        if (has(Capability.OCCUPANCY)) assertThat(p.stat().slotsUsed()).isEqualTo(16);
    }

    @Test
    void writeAfterPartialReadMergesOnlyIntoTheRoomAfterTheLastByte() throws Exception {
        Pipe p = openNonBlocking(PipeOptions.DEFAULT_CAPACITY);
        assertThat(p.writer().write(pattern(3000))).isEqualTo(3000);
        assertThat(p.reader().read(new byte[1000])).isEqualTo(1000); // page now holds bytes 1000..2999

        assertThat(p.writer().write(filled(1096, 5))).as("3000 + 1096 = 4096: merges").isEqualTo(1096);
        if (has(Capability.OCCUPANCY)) assertThat(p.stat().slotsUsed()).isEqualTo(1);
        assertThat(p.stat().bytesQueued()).isEqualTo(3096);

        assertThat(p.writer().write(filled(1, 6))).isEqualTo(1);
        if (has(Capability.OCCUPANCY)) assertThat(p.stat().slotsUsed())
                .as("the 1000 bytes read from the front do not count as room: a new slot").isEqualTo(2);

        byte[] got = readFully(p.reader(), 3097);
        assertThat(java.util.Arrays.copyOfRange(got, 0, 2000)).isEqualTo(java.util.Arrays.copyOfRange(pattern(3000),
                1000, 3000));
        assertThat(java.util.Arrays.copyOfRange(got, 2000, 3096)).isEqualTo(filled(1096, 5));
        assertThat(got[3096]).isEqualTo((byte) 6);
    }

    @Test
    void remainderOfALargeWriteMergesFirstAndTheRestLandsPageAligned() throws Exception {
        Pipe p = open();
        byte[] first = filled(100, 1);
        byte[] second = pattern(5000); // 5000 & 4095 = 904 bytes of remainder
        p.writer().write(first);
        p.writer().write(second);

        if (has(Capability.OCCUPANCY)) {
            assertThat(p.stat().slotsUsed()).as("100 + 904 bytes in the first page, 4096 in the second").isEqualTo(2);
        }
        ByteArrayOutputStream want = new ByteArrayOutputStream();
        want.write(first);
        want.write(second);
        assertThat(readFully(p.reader(), 5100)).as("merging keeps the byte order").isEqualTo(want.toByteArray());
    }

    @Test
    void writeIntoAnEmptyPipeNeverMergesIntoAReadPage() throws Exception {
        Pipe p = openNonBlocking(PipeOptions.DEFAULT_CAPACITY);
        p.writer().write(filled(10, 1));
        assertThat(p.reader().read(new byte[10])).isEqualTo(10);
        if (has(Capability.OCCUPANCY)) assertThat(p.stat().slotsUsed()).isZero();
        p.writer().write(filled(10, 2));
        if (has(Capability.OCCUPANCY)) assertThat(p.stat().slotsUsed()).isEqualTo(1);
        assertThat(p.stat().bytesQueued()).isEqualTo(10);
    }

    @Test
    void packetModeWritesNeverMerge() throws Exception {
        Pipe p = open(options().packetMode(true).nonBlocking(true).build());
        for (int i = 0; i < 16; i++) {
            assertThat(p.writer().write(new byte[] {(byte) i})).isEqualTo(1);
        }
        if (has(Capability.OCCUPANCY)) assertThat(p.stat().slotsUsed()).as("one slot per packet").isEqualTo(16);
        assertThat(p.stat().bytesQueued()).isEqualTo(16);
        assertThat(p.writer().write(new byte[] {16})).as("16 one-byte packets fill the ring").isZero();

        byte[] buf = new byte[100];
        assertThat(p.reader().read(buf)).as("a read returns one packet").isEqualTo(1);
        assertThat(buf[0]).isEqualTo((byte) 0);
    }

    /**
     * Linux's merge step looks only at the newest page's CAN_MERGE flag, never at the writer's mode: nothing
     * merges into a packet, but a packet-mode write's bytes do join a page a normal write left mergeable.
     */
    @Test
    void mergingFollowsTheNewestPagesFlagNotTheWritersMode() throws Exception {
        Pipe p = open();
        WriteEnd normal = p.writer();
        WriteEnd packets = p.writer().reopen(); // a description of its own: a dup would share packet mode
        packets.setPacketMode(true);

        packets.write(filled(10, 2));
        if (has(Capability.OCCUPANCY)) assertThat(p.stat().slotsUsed()).isEqualTo(1);
        normal.write(filled(10, 1));
        if (has(Capability.OCCUPANCY)) {
            assertThat(p.stat().slotsUsed()).as("nothing is appended to a packet").isEqualTo(2);
        }
        packets.write(filled(10, 3));
        if (has(Capability.OCCUPANCY)) {
            assertThat(p.stat().slotsUsed()).as("a packet write joins a mergeable normal page").isEqualTo(2);
        }
        normal.write(filled(10, 4));
        if (has(Capability.OCCUPANCY)) assertThat(p.stat().slotsUsed()).isEqualTo(2);
        assertThat(p.stat().bytesQueued()).isEqualTo(40);
        byte[] buf = new byte[100];
        assertThat(p.reader().read(buf)).as("the packet, alone").isEqualTo(10);
        assertThat(p.reader().read(buf)).as("the normal page with the merged packet write").isEqualTo(30);
    }

    @Test
    void blockingWriteThatMergesNeedsNoFreeSlot() throws Exception {
        Pipe p = open();
        p.writer().write(pattern(15 * 4096 + 1000)); // ring full, 3096 bytes of room in the last page
        assertThat(p.writer().write(filled(3096, 1))).as("returns at once: the bytes merge").isEqualTo(3096);
        assertThat(p.counters().writerWaits()).isZero();
        assertThat(p.stat().bytesQueued()).isEqualTo(65536);
    }
}
