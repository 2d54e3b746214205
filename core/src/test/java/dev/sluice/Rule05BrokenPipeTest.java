package dev.sluice;

import static dev.sluice.ConformanceSupport.awaitBlockedWriting;
import static dev.sluice.ConformanceSupport.filled;
import static dev.sluice.ConformanceSupport.pattern;
import static dev.sluice.ConformanceSupport.start;
import static dev.sluice.ConformanceSupport.thrownBy;
import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.ConformanceSupport.Running;
import dev.sluice.ConformanceSupport.ThreadKind;
import java.nio.ByteBuffer;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Rule 5, {@code EPIPE} (pipe(7); fs/pipe.c {@code pipe_write}; linux-pipe.md §3.3, §3.4, §4 "EPIPE"): a
 * write when every read end is closed fails with broken pipe ({@link BrokenPipeException}, the JVM's
 * stand-in for SIGPIPE + {@code EPIPE}) having stored nothing; a writer blocked on a full pipe fails the
 * same way when the last reader closes, reporting the bytes that call had already stored. The last close
 * wakes <em>every</em> blocked writer (Linux 6551d5c56eb0). A zero-length write returns 0 before looking
 * at the readers.
 */
@Timeout(value = 10, unit = TimeUnit.SECONDS)
class Rule05BrokenPipeTest extends ConformanceTest {

    @Test
    void writeWithEveryReaderClosedIsBrokenPipeAndStoresNothing() throws Exception {
        Pipe p = open();
        p.reader().close();

        BrokenPipeException e = thrownBy(BrokenPipeException.class,
                () -> p.writer().write(pattern(10)));
        assertThat(e.bytesTransferred()).isZero();
        assertThat(p.counters().bytesWritten()).isZero();
        assertThat(p.stat().bytesQueued()).isZero();

        BrokenPipeException big = thrownBy(BrokenPipeException.class,
                () -> p.writer().write(pattern(100 * 1024)));
        assertThat(big.bytesTransferred()).isZero();
        BrokenPipeException gathering = thrownBy(BrokenPipeException.class,
                () -> p.writer().write(new ByteBuffer[] {ByteBuffer.wrap(pattern(3))}));
        assertThat(gathering.bytesTransferred()).isZero();
    }

    @Test
    void nonBlockingWriteWithEveryReaderClosedIsBrokenPipeToo() throws Exception {
        Pipe p = openNonBlocking(PipeOptions.DEFAULT_CAPACITY);
        p.writer().write(pattern(65536)); // even a full pipe: EPIPE, not EAGAIN
        p.reader().close();
        BrokenPipeException e = thrownBy(BrokenPipeException.class,
                () -> p.writer().write(pattern(10)));
        assertThat(e.bytesTransferred()).isZero();
    }

    @Test
    void zeroLengthWriteWithEveryReaderClosedReturnsZero() throws Exception {
        Pipe p = open();
        p.reader().close();
        assertThat(p.writer().write(new byte[0])).isZero();
        assertThat(p.writer().write(ByteBuffer.allocate(0))).isZero();
    }

    @Test
    void brokenPipeIsReportedOnEveryLaterWriteToo() throws Exception {
        Pipe p = open();
        p.reader().close();
        for (int i = 0; i < 3; i++) {
            assertThat(thrownBy(BrokenPipeException.class, () -> p.writer().write(filled(1, 1))))
                    .isNotNull();
        }
        assertThat(p.writer().isOpen()).as("the write end stays open after EPIPE").isTrue();
    }

    @ParameterizedTest
    @EnumSource(ThreadKind.class)
    void blockedWriterGetsBrokenPipeWithTheBytesItHadStored(ThreadKind kind) throws Exception {
        Pipe p = open();
        Running<Integer> writer = start(kind, () -> p.writer().write(pattern(100 * 1024)));
        awaitBlockedWriting(writer.thread(), p, 1);
        assertThat(p.stat().bytesQueued()).isEqualTo(65536);

        p.reader().close();

        Throwable t = writer.failure();
        assertThat(t).isInstanceOf(BrokenPipeException.class);
        assertThat(((BrokenPipeException) t).bytesTransferred())
                .as("the 64 KiB stored before it blocked").isEqualTo(65536);
    }

    @ParameterizedTest
    @EnumSource(ThreadKind.class)
    void blockedPipeBufWriterGetsBrokenPipeHavingStoredNothing(ThreadKind kind) throws Exception {
        Pipe p = open();
        p.writer().write(pattern(65536));
        Running<Integer> writer = start(kind, () -> p.writer().write(filled(Pipe.PIPE_BUF, 1)));
        awaitBlockedWriting(writer.thread(), p, 1);

        p.reader().close();

        Throwable t = writer.failure();
        assertThat(t).isInstanceOf(BrokenPipeException.class);
        assertThat(((BrokenPipeException) t).bytesTransferred()).isZero();
    }

    @ParameterizedTest
    @EnumSource(ThreadKind.class)
    void lastReaderClosingWakesEveryBlockedWriter(ThreadKind kind) throws Exception {
        Pipe p = open();
        p.writer().write(pattern(65536));
        WriteEnd second = p.writer().dup();
        Running<Integer> w1 = start(kind, () -> p.writer().write(filled(10, 1)));
        awaitBlockedWriting(w1.thread(), p, 1);
        Running<Integer> w2 = start(kind, () -> second.write(filled(10, 2)));
        awaitBlockedWriting(w2.thread(), p, 2);

        p.reader().close();

        assertThat(w1.failure()).isInstanceOf(BrokenPipeException.class);
        assertThat(w2.failure()).isInstanceOf(BrokenPipeException.class);
    }
}
