package dev.sluice;

import dev.sluice.testing.Capability;

import static dev.sluice.FeatureSupport.sequence;
import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.FeatureSupport.ThreadKind;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.util.Arrays;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Rule 11, packet mode ({@code pipe2(O_DIRECT)}): each write of at most {@code PIPE_BUF} bytes is one
 * packet, larger writes are cut into 4096-byte packets, packets never merge, and a read returns at most
 * one packet, discarding whatever of it does not fit the caller's buffer.
 *
 * <p>Linux (linux-pipe.md §1.6, §4 "packet mode"): {@code pipe_write()} skips the merge step and flags
 * each new buffer {@code PIPE_BUF_FLAG_PACKET} when the writing file has {@code O_DIRECT} (tested per
 * write); {@code pipe_read()}, on reaching a packet buffer, sets {@code buf->len = 0} and stops after it.
 * Bytes written without packet mode before the packet are still returned in the same read, as the kernel's
 * loop does.
 */
@Timeout(30)
class Rule11PacketModeTest extends ConformanceTest {

    private Pipe packetPipe() {
        return open(options().packetMode(true).build());
    }

    private Pipe nonBlockingPacketPipe() {
        return open(options().packetMode(true).nonBlocking(true).build());
    }

    @Test
    void theOptionAndTheSetterBothTurnPacketModeOn() throws IOException {
        assertThat(packetPipe().writer().isPacketMode()).isTrue();
        Pipe p = open();
        assertThat(p.writer().isPacketMode()).isFalse();
        p.writer().setPacketMode(true);
        assertThat(p.writer().isPacketMode()).isTrue();
        assertThat(p.writer().dup().isPacketMode()).as("a dup shares the description").isTrue();
        assertThat(p.writer().reopen().isPacketMode()).as("a reopen starts with a copy").isTrue();

        p.writer().write(new byte[] {1});
        p.writer().write(new byte[] {2});
        if (has(Capability.OCCUPANCY)) assertThat(p.stat().slotsUsed()).isEqualTo(2);
        assertThat(p.reader().read(new byte[10])).isEqualTo(1);
    }

    @Test
    void aReadReturnsAtMostOnePacketEvenWithRoomForMore() throws IOException {
        Pipe p = packetPipe();
        p.writer().write(sequence(10, 0));
        p.writer().write(sequence(20, 100));
        p.writer().write(sequence(30, 200));
        assertThat(p.stat().bytesQueued()).isEqualTo(60);

        byte[] buf = new byte[4096];
        assertThat(p.reader().read(buf)).isEqualTo(10);
        assertThat(Arrays.copyOf(buf, 10)).isEqualTo(sequence(10, 0));
        assertThat(p.reader().read(buf)).isEqualTo(20);
        assertThat(Arrays.copyOf(buf, 20)).isEqualTo(sequence(20, 100));
        assertThat(p.reader().read(buf)).isEqualTo(30);
        assertThat(Arrays.copyOf(buf, 30)).isEqualTo(sequence(30, 200));
        assertThat(p.stat().bytesQueued()).isZero();
    }

    @Test
    void aShortReadDiscardsTheRestOfThePacket() throws IOException {
        Pipe p = packetPipe();
        p.writer().write(sequence(100, 0));
        p.writer().write(sequence(50, 100));

        byte[] small = new byte[30];
        assertThat(p.reader().read(small)).isEqualTo(30);
        assertThat(small).isEqualTo(sequence(30, 0));
        assertThat(p.stat().bytesQueued()).as("the other 70 bytes of the first packet are gone").isEqualTo(50);
        if (has(Capability.OCCUPANCY)) assertThat(p.stat().slotsUsed()).isEqualTo(1);

        byte[] buf = new byte[100];
        assertThat(p.reader().read(buf)).isEqualTo(50);
        assertThat(Arrays.copyOf(buf, 50)).as("the next read gets the next packet").isEqualTo(sequence(50, 100));
    }

    @Test
    void aShortReadDiscardsThroughEveryKindOfDestination() throws IOException {
        Pipe p = packetPipe();
        for (int i = 0; i < 4; i++) {
            p.writer().write(sequence(40, i * 40));
        }
        ByteBuffer heap = ByteBuffer.allocate(8);
        assertThat(p.reader().read(heap)).isEqualTo(8);
        ByteBuffer direct = ByteBuffer.allocateDirect(8);
        assertThat(p.reader().read(direct)).isEqualTo(8);
        ByteBuffer[] scatter = {ByteBuffer.allocate(3), ByteBuffer.allocate(5)};
        assertThat(p.reader().read(scatter)).as("one packet per read, across the buffers").isEqualTo(8);
        InputStream in = p.reader().asInputStream();
        assertThat(in.read()).as("a one-byte read takes a whole packet").isEqualTo(120);
        assertThat(p.stat().bytesQueued()).isZero();

        assertThat(heap.array()).isEqualTo(sequence(8, 0));
        assertThat(direct.flip().get(0)).isEqualTo((byte) 40);
        assertThat(scatter[0].array()).isEqualTo(sequence(3, 80));
        assertThat(scatter[1].array()).isEqualTo(sequence(5, 83));
    }

    @Test
    void aWriteOf10000BytesBecomesPacketsOf4096And4096And1808() throws IOException {
        Pipe p = packetPipe();
        byte[] data = FeatureSupport.randomBytes(10_000, 11);
        assertThat(p.writer().write(data)).isEqualTo(10_000);
        if (has(Capability.OCCUPANCY)) assertThat(p.stat().slotsUsed()).isEqualTo(3);

        byte[] buf = new byte[16_384];
        assertThat(p.reader().read(buf)).isEqualTo(4096);
        assertThat(Arrays.copyOf(buf, 4096)).isEqualTo(Arrays.copyOfRange(data, 0, 4096));
        assertThat(p.reader().read(buf)).isEqualTo(4096);
        assertThat(Arrays.copyOf(buf, 4096)).isEqualTo(Arrays.copyOfRange(data, 4096, 8192));
        assertThat(p.reader().read(buf)).isEqualTo(1808);
        assertThat(Arrays.copyOf(buf, 1808)).isEqualTo(Arrays.copyOfRange(data, 8192, 10_000));
        assertThat(p.stat().bytesQueued()).isZero();
    }

    @Test
    void aGatheringWriteOfAtMostPipeBufIsOnePacket() throws IOException {
        Pipe p = packetPipe();
        ByteBuffer[] srcs = {ByteBuffer.wrap(sequence(1000, 0)), ByteBuffer.wrap(sequence(3096, 1000))};
        assertThat(p.writer().write(srcs)).isEqualTo(4096);
        p.writer().write(ByteBuffer.wrap(sequence(10, 7)));
        if (has(Capability.OCCUPANCY)) assertThat(p.stat().slotsUsed()).isEqualTo(2);
        byte[] buf = new byte[8192];
        assertThat(p.reader().read(buf)).isEqualTo(4096);
        assertThat(Arrays.copyOf(buf, 4096)).isEqualTo(sequence(4096, 0));
    }

    @Test
    void packetsDoNotMerge() throws IOException {
        Pipe p = packetPipe();
        for (int i = 0; i < 3; i++) {
            assertThat(p.writer().write(new byte[] {(byte) i})).isEqualTo(1);
        }
        if (has(Capability.OCCUPANCY)) {
            assertThat(p.stat().slotsUsed()).as("3 one-byte packets take 3 slots").isEqualTo(3);
        }
        assertThat(p.stat().bytesQueued()).isEqualTo(3);

        Pipe normal = open();
        for (int i = 0; i < 3; i++) {
            normal.writer().write(new byte[] {(byte) i});
        }
        if (has(Capability.OCCUPANCY)) {
            assertThat(normal.stat().slotsUsed()).as("without packet mode they merge into one").isEqualTo(1);
        }
    }

    @Test
    void sixteenTinyPacketsFillTheRing() throws IOException {
        Pipe p = nonBlockingPacketPipe();
        for (int i = 0; i < 16; i++) {
            assertThat(p.writer().write(new byte[] {(byte) i})).isEqualTo(1);
        }
        assertThat(p.writer().write(new byte[] {99})).as("full: EAGAIN, though 16 bytes are queued").isZero();
        assertThat(p.writer().poll().writable()).isFalse();
        byte[] buf = new byte[64];
        for (int i = 0; i < 16; i++) {
            assertThat(p.reader().read(buf)).isEqualTo(1);
            assertThat(buf[0]).isEqualTo((byte) i);
        }
        assertThat(p.reader().read(buf)).isZero();
    }

    @Test
    void aNormalWriteNeverMergesIntoAPacketButAPacketWriteJoinsANormalPage() throws IOException {
        Pipe p = open();
        p.writer().setPacketMode(true);
        p.writer().write(new byte[] {3, 4});        // packet: its own slot
        p.writer().setPacketMode(false);
        p.writer().write(new byte[] {1, 2});        // normal: not merged into the packet
        p.writer().setPacketMode(true);
        p.writer().write(new byte[] {5, 6});        // packet mode, but joins the normal page, as on Linux
        if (has(Capability.OCCUPANCY)) assertThat(p.stat().slotsUsed()).isEqualTo(2);

        byte[] buf = new byte[64];
        assertThat(p.reader().read(buf)).as("one packet per read").isEqualTo(2);
        assertThat(Arrays.copyOf(buf, 2)).containsExactly(3, 4);
        assertThat(p.reader().read(buf)).isEqualTo(4);
        assertThat(Arrays.copyOf(buf, 4)).containsExactly(1, 2, 5, 6);
    }

    @Test
    void aShortReadThatEndsInsideNormalBytesDoesNotReachThePacket() throws IOException {
        Pipe p = open();
        p.writer().write(new byte[] {1, 2, 3});
        p.writer().setPacketMode(true);
        byte[] packet = new byte[Pipe.PIPE_BUF]; // a whole page: nothing to merge, so it is a packet
        packet[0] = 4;
        packet[1] = 5;
        p.writer().write(packet);
        byte[] two = new byte[2];
        assertThat(p.reader().read(two)).isEqualTo(2);
        assertThat(two).containsExactly(1, 2);
        byte[] buf = new byte[2];
        assertThat(p.reader().read(buf)).as("1 normal byte, then 1 byte of the packet, rest discarded")
                .isEqualTo(2);
        assertThat(buf).containsExactly(3, 4);
        assertThat(p.stat().bytesQueued()).isZero();
    }

    @Test
    void aNonblockingPacketWriteLargerThanTheRoomStoresWholePacketsOnly() throws IOException {
        Pipe p = nonBlockingPacketPipe();
        for (int i = 0; i < 14; i++) {
            p.writer().write(new byte[] {(byte) i});
        }
        // Two slots left: 10000 bytes would be 3 packets; only the first two fit.
        assertThat(p.writer().write(new byte[10_000])).isEqualTo(8192);
        if (has(Capability.OCCUPANCY)) assertThat(p.stat().slotsUsed()).isEqualTo(16);
    }

    @ParameterizedTest
    @EnumSource(ThreadKind.class)
    void packetBoundariesSurviveABlockingWriterAndAConcurrentReader(ThreadKind kind) throws Exception {
        Pipe p = packetPipe();
        int packets = 200;
        var writer = kind.run("packet-writer", () -> {
            for (int i = 0; i < packets; i++) {
                int len = 1 + (i * 37) % 4096;
                byte[] b = new byte[len];
                Arrays.fill(b, (byte) i);
                p.writer().write(b);
            }
            p.writer().close();
        });
        byte[] buf = new byte[8192];
        for (int i = 0; i < packets; i++) {
            int n = p.reader().read(buf);
            assertThat(n).as("packet %d", i).isEqualTo(1 + (i * 37) % 4096);
            for (int k = 0; k < n; k++) {
                if (buf[k] != (byte) i) {
                    throw new AssertionError("packet " + i + " byte " + k + " is " + buf[k]);
                }
            }
        }
        assertThat(p.reader().read(buf)).isEqualTo(-1);
        writer.join();
    }
}
