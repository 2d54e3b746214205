package dev.sluice;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Arrays;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Reads and writes of 16 KiB and more copy without the pipe's lock on platform threads ({@code SlotClaim}):
 * what they return and leave behind must be exactly what the copy under the lock gives. These tests run on
 * the test's own (platform) thread, so they take that path; the stress suite runs it concurrently.
 */
@Timeout(60)
class BulkCopyTest {
    private static final int PAGE = Pipe.PAGE_SIZE;

    private static byte[] pattern(int n, int salt) {
        byte[] b = new byte[n];
        for (int i = 0; i < n; i++) {
            b[i] = (byte) (i * 7 + salt);
        }
        return b;
    }

    @Test
    void aReadThatEndsInsideASlotLeavesItsRestFirstAndLaterWritesMergeBehindIt() throws Exception {
        Pipe p = Pipe.open();
        byte[] a = pattern(5 * PAGE + 100, 1); // the newest page is part full: later small writes merge into it
        p.writer().write(a, 0, a.length);
        byte[] first = new byte[5 * PAGE + 50];
        assertThat(p.reader().read(first, 0, first.length)).isEqualTo(first.length);
        assertThat(first).isEqualTo(Arrays.copyOf(a, first.length));
        assertThat(p.reader().available()).isEqualTo(50);

        byte[] b = pattern(30, 2);
        p.writer().write(b, 0, b.length);
        assertThat(p.stat().slotsUsed()).as("the 30 bytes merged into the half-read page").isEqualTo(1);
        byte[] rest = new byte[64 * 1024];
        int n = p.reader().read(rest, 0, rest.length);
        assertThat(n).isEqualTo(80);
        assertThat(Arrays.copyOf(rest, 50)).isEqualTo(Arrays.copyOfRange(a, first.length, a.length));
        assertThat(Arrays.copyOfRange(rest, 50, 80)).isEqualTo(b);
        assertThat(p.reader().available()).isZero();
    }

    @Test
    void aBulkReadTakesAPacketBehindPlainPagesAndStopsAfterIt() throws Exception {
        Pipe p = Pipe.open();
        byte[] plain = pattern(6 * PAGE, 3);
        p.writer().write(plain, 0, plain.length);
        p.writer().setPacketMode(true);
        byte[] packet = pattern(100, 4);
        p.writer().write(packet, 0, packet.length);
        p.writer().write(packet, 0, 10);
        byte[] got = new byte[64 * 1024];
        int n = p.reader().read(got, 0, got.length);
        // As Linux's pipe_read: plain bytes, then the packet, and the read ends with it.
        assertThat(n).isEqualTo(plain.length + packet.length);
        assertThat(Arrays.copyOf(got, plain.length)).isEqualTo(plain);
        assertThat(Arrays.copyOfRange(got, plain.length, n)).isEqualTo(packet);
        assertThat(p.reader().read(got, 0, got.length)).isEqualTo(10);
    }

    @Test
    void aBulkWriteIntoAPipeWithTooLittleRoomStoresWhatFitsAndTheRestLater() throws Exception {
        Pipe p = Pipe.open(PipeOptions.builder().capacity(16 * PAGE).build());
        byte[] head = pattern(3 * PAGE, 5);
        p.writer().write(head, 0, head.length);
        p.writer().setNonBlocking(true);
        byte[] big = pattern(40 * PAGE + 123, 6);
        // 13 free slots: a nonblocking write stores 13 pages (through one claim) and says so.
        assertThat(p.writer().write(big, 0, big.length)).isEqualTo(13 * PAGE);
        assertThat(p.reader().available()).isEqualTo(16 * PAGE);
        byte[] got = new byte[16 * PAGE];
        assertThat(p.reader().read(got, 0, got.length)).isEqualTo(got.length);
        assertThat(Arrays.copyOf(got, head.length)).isEqualTo(head);
        assertThat(Arrays.copyOfRange(got, head.length, got.length)).isEqualTo(Arrays.copyOf(big, 13 * PAGE));
    }

    @Test
    void aStreamOfBulkCallsCyclesThroughAtMostTwiceTheRingsPagesWithoutRotation() throws Exception {
        int slots = PipeOptions.DEFAULT_CAPACITY / PAGE;
        Pipe p = Pipe.open(PipeOptions.builder().poolRotation(0).build());
        stream(p);
        // The ring's pages, and as many more for the slots a read is still copying while the writer refills.
        assertThat(p.counters().pagesAllocated()).isLessThanOrEqualTo(2L * slots);
    }

    @Test
    void aStreamOfBulkCallsAllocatesAtMostItsRotationMore() throws Exception {
        int slots = PipeOptions.DEFAULT_CAPACITY / PAGE;
        Pipe p = Pipe.open();
        stream(p);
        // The pool may grow to its rotation of spares (fewer if the JVM's budget is spent), and no further.
        assertThat(p.counters().pagesAllocated()).isLessThanOrEqualTo(2L * slots + PipeOptions.DEFAULT_POOL_ROTATION);
        p.close();
    }

    /** Streams 128 MB of 64 KiB writes from a platform thread to this one, checking every byte. */
    private static void stream(Pipe p) throws Exception {
        int size = 64 * 1024;
        int rounds = 2000;
        byte[] data = pattern(size, 9);
        AtomicReference<Throwable> failed = new AtomicReference<>();
        Thread writer = Thread.ofPlatform().start(() -> {
            try {
                for (int i = 0; i < rounds; i++) {
                    p.writer().write(data, 0, size);
                }
                p.writer().close();
            } catch (Throwable e) {
                failed.set(e);
                p.reader().close();
            }
        });
        byte[] buf = new byte[size];
        long pos = 0;
        for (int n; (n = p.reader().read(buf, 0, buf.length)) > 0; ) {
            for (int i = 0; i < n; i++) {
                if (buf[i] != data[(int) ((pos + i) % size)]) {
                    throw new AssertionError("byte " + (pos + i) + " is wrong");
                }
            }
            pos += n;
        }
        writer.join();
        assertThat(failed.get()).isNull();
        assertThat(pos).isEqualTo((long) size * rounds);
    }
}
