package dev.sluice;

import static dev.sluice.ConformanceSupport.as;
import static dev.sluice.ConformanceSupport.awaitBlockedReading;
import static dev.sluice.ConformanceSupport.awaitBlockedWriting;
import static dev.sluice.ConformanceSupport.filled;
import static dev.sluice.ConformanceSupport.pattern;
import static dev.sluice.ConformanceSupport.readFully;
import static dev.sluice.ConformanceSupport.start;
import static dev.sluice.ConformanceSupport.thrownBy;
import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.ConformanceSupport.Running;
import dev.sluice.ConformanceSupport.ThreadKind;
import dev.sluice.testing.Capability;
import java.nio.ByteBuffer;
import java.nio.channels.AsynchronousCloseException;
import java.nio.channels.ClosedChannelException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Rule 6, many readers and writers (pipe(7); dup(2), close(2); fs/pipe.c {@code pipe_release}): a side of
 * the pipe lives while any of its handles is open, so end-of-stream comes only when the <em>last</em>
 * write handle closes and broken pipe only when the <em>last</em> read handle closes. Closing a handle
 * twice does nothing more; any operation on a closed handle fails ({@code EBADF}, here
 * {@link ClosedChannelException}), and a thread blocked in a call on a handle that another thread closes
 * returns with {@link AsynchronousCloseException} (Java's channel contract; Linux would leave it
 * blocked on the still-referenced file).
 */
@Timeout(value = 10, unit = TimeUnit.SECONDS)
class Rule06HandlesTest extends ConformanceTest {

    @Test
    void dupCountsHandles() throws Exception {
        Pipe p = open();
        assertThat(p.stat().readers()).isEqualTo(1);
        assertThat(p.stat().writers()).isEqualTo(1);
        ReadEnd r2 = p.reader().dup();
        WriteEnd w2 = p.writer().dup();
        WriteEnd w3 = w2.dup();
        assertThat(p.stat().readers()).isEqualTo(2);
        assertThat(p.stat().writers()).isEqualTo(3);
        assertThat(r2.pipe()).isSameAs(p.reader().pipe());
        assertThat(w3.pipe()).isSameAs(p.writer().pipe());
        if (has(Capability.SAME_PIPE_OBJECT)) {
            assertThat(r2.pipe()).isSameAs(p);
            assertThat(w3.pipe()).isSameAs(p);
        }

        w3.write(pattern(5));
        assertThat(r2.read(new byte[10])).as("all handles share one pipe").isEqualTo(5);
    }

    @ParameterizedTest
    @EnumSource(ThreadKind.class)
    void endOfStreamOnlyWhenTheLastWriteHandleCloses(ThreadKind kind) throws Exception {
        Pipe p = open();
        WriteEnd w2 = p.writer().dup();
        byte[] buf = new byte[10];
        Running<Integer> reader = start(kind, () -> p.reader().read(buf));
        awaitBlockedReading(reader.thread(), p, 1);

        p.writer().close();
        // If the reader had taken that close for end-of-stream it would have returned -1 by now.
        w2.write(filled(1, 'x'));
        assertThat(reader.join()).as("data, not end-of-stream: a writer remains").isEqualTo(1);
        assertThat(buf[0]).isEqualTo((byte) 'x');

        p.reader().setNonBlocking(true);
        assertThat(p.reader().read(buf)).as("EAGAIN, not EOF").isZero();
        w2.close();
        assertThat(p.reader().read(buf)).isEqualTo(-1);
    }

    @ParameterizedTest
    @EnumSource(ThreadKind.class)
    void brokenPipeOnlyWhenTheLastReadHandleCloses(ThreadKind kind) throws Exception {
        Pipe p = open();
        ReadEnd r2 = p.reader().dup();
        p.writer().write(pattern(65536));
        byte[] tail = pattern(10);
        Running<Integer> writer = start(kind, () -> p.writer().write(tail));
        awaitBlockedWriting(writer.thread(), p, 1);

        p.reader().close();
        assertThat(p.stat().readers()).isEqualTo(1);
        // If the writer had taken that close for a broken pipe, it would fail instead of completing.
        readFully(r2, 65536);
        assertThat(writer.join()).isEqualTo(10);
        assertThat(readFully(r2, 10)).isEqualTo(tail);

        r2.close();
        assertThat(thrownBy(BrokenPipeException.class, () -> p.writer().write(tail)).bytesTransferred()).isZero();
    }

    @Test
    void closingAHandleTwiceIsANoOp() throws Exception {
        Pipe p = open();
        WriteEnd w2 = p.writer().dup();
        ReadEnd r2 = p.reader().dup();
        w2.close();
        w2.close();
        r2.close();
        r2.close();
        assertThat(p.stat().writers()).as("one close counted once").isEqualTo(1);
        assertThat(p.stat().readers()).isEqualTo(1);

        p.writer().write(filled(1, 1));
        p.reader().setNonBlocking(true);
        byte[] buf = new byte[4];
        assertThat(p.reader().read(buf)).isEqualTo(1);
        assertThat(p.reader().read(buf)).as("the pipe still has a writer: EAGAIN, not EOF").isZero();
        assertThat(w2.isOpen()).isFalse();
        assertThat(p.writer().isOpen()).isTrue();
    }

    @Test
    void everyOperationOnAClosedHandleFailsWithClosedChannel() throws Exception {
        Pipe p = open();
        ReadEnd r2 = p.reader().dup();
        WriteEnd w2 = p.writer().dup();
        p.writer().write(pattern(100)); // the pipe itself is fine: data queued, other handles open
        r2.close();
        w2.close();

        thrownBy(ClosedChannelException.class, () -> r2.read(new byte[10]));
        thrownBy(ClosedChannelException.class, () -> r2.read(ByteBuffer.allocate(10)));
        thrownBy(ClosedChannelException.class, () -> r2.read(new ByteBuffer[] {ByteBuffer.allocate(10)}));
        thrownBy(ClosedChannelException.class, r2::available);
        thrownBy(ClosedChannelException.class, r2::dup);
        thrownBy(ClosedChannelException.class, () -> w2.write(pattern(10)));
        thrownBy(ClosedChannelException.class, () -> w2.write(ByteBuffer.wrap(pattern(10))));
        thrownBy(ClosedChannelException.class, () -> w2.write(new ByteBuffer[] {ByteBuffer.wrap(pattern(10))}));
        thrownBy(ClosedChannelException.class, w2::dup);
        assertThat(r2.isOpen()).isFalse();
        assertThat(w2.isOpen()).isFalse();
        assertThat(p.stat().bytesQueued()).as("no failed call touched the pipe").isEqualTo(100);
    }

    @Test
    void zeroLengthCallsOnAClosedHandleFailToo() throws Exception {
        Pipe p = open();
        p.reader().close();
        p.writer().close();
        thrownBy(ClosedChannelException.class, () -> p.reader().read(new byte[0]));
        thrownBy(ClosedChannelException.class, () -> p.writer().write(new byte[0]));
    }

    @ParameterizedTest
    @EnumSource(ThreadKind.class)
    void readBlockedOnAHandleThatAnotherThreadClosesGetsAsynchronousClose(ThreadKind kind) throws Exception {
        Pipe p = open();
        ReadEnd r2 = p.reader().dup(); // the side stays open: this is about the handle
        Running<Integer> reader = start(kind, () -> r2.read(new byte[10]));
        awaitBlockedReading(reader.thread(), p, 1);

        r2.close();

        assertThat(reader.failure()).isInstanceOf(AsynchronousCloseException.class);
        p.writer().write(filled(3, 1));
        assertThat(p.reader().read(new byte[10])).as("the other handle is unaffected").isEqualTo(3);
    }

    @ParameterizedTest
    @EnumSource(ThreadKind.class)
    void readBlockedOnTheOnlyReadHandleGetsAsynchronousCloseWhenItIsClosed(ThreadKind kind) throws Exception {
        Pipe p = open();
        Running<Integer> reader = start(kind, () -> p.reader().read(new byte[10]));
        awaitBlockedReading(reader.thread(), p, 1);

        p.reader().close();

        assertThat(reader.failure()).isInstanceOf(AsynchronousCloseException.class);
        thrownBy(BrokenPipeException.class, () -> p.writer().write(filled(1, 1)));
    }

    @ParameterizedTest
    @EnumSource(ThreadKind.class)
    void writeBlockedOnAHandleThatAnotherThreadClosesGetsAsynchronousClose(ThreadKind kind) throws Exception {
        Pipe p = open();
        p.writer().write(pattern(65536));
        WriteEnd w2 = p.writer().dup();
        Running<Integer> writer = start(kind, () -> w2.write(filled(10, 1)));
        awaitBlockedWriting(writer.thread(), p, 1);

        w2.close();

        as(AsynchronousCloseException.class, writer.failure());
        assertThat(p.stat().bytesQueued()).isEqualTo(65536);
        readFully(p.reader(), 65536);
        p.reader().setNonBlocking(true);
        assertThat(p.reader().read(new byte[10])).as("the other write handle keeps the pipe open").isZero();
    }

    @ParameterizedTest
    @EnumSource(ThreadKind.class)
    void closingOneHandleDoesNotDisturbAThreadBlockedOnAnother(ThreadKind kind) throws Exception {
        Pipe p = open();
        ReadEnd r2 = p.reader().dup();
        ReadEnd r3 = p.reader().dup();
        Running<Integer> reader = start(kind, () -> p.reader().read(new byte[10]));
        awaitBlockedReading(reader.thread(), p, 1);

        r2.close();
        r3.close();
        p.writer().write(filled(4, 1));

        assertThat(reader.join()).isEqualTo(4);
    }

    /**
     * Three writers and three readers on duplicated handles: every byte written is read exactly once,
     * and every reader sees end-of-stream once the last writer handle is closed.
     */
    @ParameterizedTest
    @EnumSource(ThreadKind.class)
    void manyReadersAndWritersShareThePipeAndAllSeeEndOfStream(ThreadKind kind) throws Exception {
        final int n = 3;
        final int perWriter = 512 * 1024;
        Pipe p = open(options().capacity(16 * 1024).build());
        WriteEnd[] out = {p.writer(), p.writer().dup(), p.writer().dup()};
        ReadEnd[] in = {p.reader(), p.reader().dup(), p.reader().dup()};
        java.util.List<Running<long[]>> readers = new java.util.ArrayList<>();
        for (int r = 0; r < n; r++) {
            ReadEnd end = in[r];
            readers.add(start(kind, () -> {
                long[] perValue = new long[n];
                byte[] buf = new byte[3000];
                for (int k; (k = end.read(buf)) != -1; ) {
                    for (int i = 0; i < k; i++) {
                        perValue[buf[i] - 1]++;
                    }
                }
                return perValue;
            }));
        }
        java.util.List<Running<Void>> writers = new java.util.ArrayList<>();
        for (int w = 0; w < n; w++) {
            WriteEnd end = out[w];
            byte[] chunk = filled(1000 + 1500 * w, w + 1); // sizes below, at and above a page
            writers.add(start(kind, () -> {
                try (end) {
                    for (int left = perWriter; left > 0; ) {
                        int k = Math.min(left, chunk.length);
                        assertThat(end.write(chunk, 0, k)).isEqualTo(k);
                        left -= k;
                    }
                }
                return null;
            }));
        }
        for (Running<Void> w : writers) {
            w.join();
        }
        long[] total = new long[n];
        for (Running<long[]> r : readers) {
            long[] got = r.join(); // returns only after end-of-stream
            for (int v = 0; v < n; v++) {
                total[v] += got[v];
            }
        }
        assertThat(total).containsOnly(perWriter);
    }
}
