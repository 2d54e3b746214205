package dev.sluice.okio;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.sluice.BrokenPipeException;
import dev.sluice.Pipe;
import dev.sluice.PipeOptions;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import okio.Buffer;
import okio.BufferedSink;
import okio.BufferedSource;
import okio.ByteString;
import okio.HashingSink;
import okio.Okio;
import okio.Sink;
import okio.Source;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * An Okio {@code Source} and {@code Sink} over Sluice pipe ends, used as Okio's users use them: buffered,
 * line by line, with timeouts and deadlines, across threads of either kind; and Okio's own buffer accounting
 * kept exact when the pipe fails part way.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class SluiceOkioTest {

    enum Kind {
        PLATFORM, VIRTUAL;

        <T> CompletableFuture<T> run(IoCall<T> call) {
            CompletableFuture<T> f = new CompletableFuture<>();
            Runnable r = () -> {
                try {
                    f.complete(call.call());
                } catch (Throwable t) {
                    f.completeExceptionally(t);
                }
            };
            if (this == PLATFORM) {
                Thread.ofPlatform().daemon().start(r);
            } else {
                Thread.ofVirtual().start(r);
            }
            return f;
        }
    }

    @FunctionalInterface
    interface IoCall<T> {
        T call() throws Exception;
    }

    /** Okio's classic: 16 MiB through a pipe of an awkward size, hashed at both ends. */
    @ParameterizedTest
    @EnumSource(Kind.class)
    void sixteenMebibytesArriveIntact(Kind kind) throws Exception {
        Pipe pipe = Pipe.open(PipeOptions.builder().capacity(12_288).build());
        long total = 16L << 20;
        CompletableFuture<ByteString> sent = kind.run(() -> {
            HashingSink hash = HashingSink.sha256(Okio.blackhole());
            try (BufferedSink out = Okio.buffer(SluiceOkio.sink(pipe.writer()))) {
                java.util.SplittableRandom rnd = new java.util.SplittableRandom(7);
                Buffer chunk = new Buffer();
                for (long left = total; left > 0; ) {
                    int n = (int) Math.min(left, 1 + rnd.nextInt(20_000));
                    byte[] b = new byte[n];
                    rnd.nextBytes(b);
                    chunk.write(b);
                    Buffer copy = chunk.copy();
                    hash.write(copy, copy.size());
                    out.write(chunk, chunk.size());
                    left -= n;
                }
            }
            return hash.hash();
        });
        CompletableFuture<ByteString> received = kind.run(() -> {
            HashingSink hash = HashingSink.sha256(Okio.blackhole());
            try (BufferedSource in = Okio.buffer(SluiceOkio.source(pipe.reader()))) {
                long n = in.readAll(hash);
                assertThat(n).isEqualTo(total);
            }
            return hash.hash();
        });
        assertThat(received.get()).isEqualTo(sent.get());
    }

    @Test
    void linesAndUtf8GoThroughAsWritten() throws Exception {
        Pipe pipe = Pipe.open();
        try (BufferedSink out = Okio.buffer(SluiceOkio.sink(pipe.writer()));
             BufferedSource in = Okio.buffer(SluiceOkio.source(pipe.reader()))) {
            out.writeUtf8("первая строка\n").writeUtf8("second line\n").writeDecimalLong(42).writeByte('\n').flush();
            assertThat(in.readUtf8LineStrict()).isEqualTo("первая строка");
            assertThat(in.readUtf8LineStrict()).isEqualTo("second line");
            assertThat(in.readDecimalLong()).isEqualTo(42);
        }
    }

    @Test
    void theSourceSeesEndOfStreamAndTheSinkABrokenPipe() throws Exception {
        Pipe pipe = Pipe.open();
        Sink sink = SluiceOkio.sink(pipe.writer());
        Source source = SluiceOkio.source(pipe.reader());
        sink.write(new Buffer().writeUtf8("last"), 4);
        sink.close();
        Buffer got = new Buffer();
        assertThat(source.read(got, 100)).isEqualTo(4);
        assertThat(source.read(got, 100)).isEqualTo(-1);
        assertThat(got.readUtf8()).isEqualTo("last");
        source.close();
        assertThat(pipe.stat().readers()).isZero();

        Pipe other = Pipe.open();
        other.reader().close();
        Buffer data = new Buffer().writeUtf8("nobody reads");
        assertThatThrownBy(() -> SluiceOkio.sink(other.writer()).write(data, data.size()))
                .isInstanceOf(BrokenPipeException.class);
        assertThat(data.size()).as("nothing went into the pipe, nothing left the buffer").isEqualTo(12);
    }

    /** Okio's timeout on a read of an empty pipe, and on a write to a full one, on both kinds of thread. */
    @ParameterizedTest
    @EnumSource(Kind.class)
    void timeoutsAreHonoured(Kind kind) throws Exception {
        Pipe pipe = Pipe.open(PipeOptions.builder().capacity(4096).build());
        Source source = SluiceOkio.source(pipe.reader());
        source.timeout().timeout(30, TimeUnit.MILLISECONDS);
        CompletableFuture<Long> read = kind.run(() -> source.read(new Buffer(), 10));
        assertThat(read).failsWithin(10, TimeUnit.SECONDS).withThrowableThat().havingCause()
                .isInstanceOf(InterruptedIOException.class);

        Sink sink = SluiceOkio.sink(pipe.writer());
        sink.timeout().timeout(30, TimeUnit.MILLISECONDS);
        Buffer data = new Buffer().write(new byte[10_000]);
        CompletableFuture<Void> write = kind.run(() -> {
            sink.write(data, data.size());
            return null;
        });
        assertThat(write).failsWithin(10, TimeUnit.SECONDS).withThrowableThat().havingCause()
                .isInstanceOf(InterruptedIOException.class);
        assertThat(10_000 - data.size()).as("what left Okio's buffer is what the pipe holds")
                .isEqualTo(pipe.stat().bytesQueued()).isEqualTo(4096);
    }

    @Test
    void aPassedDeadlineFailsAtOnceAndALaterOneBoundsTheWait() throws Exception {
        Pipe pipe = Pipe.open();
        Source source = SluiceOkio.source(pipe.reader());
        source.timeout().deadlineNanoTime(System.nanoTime() - 1);
        pipe.writer().write(new byte[] {1});
        assertThatThrownBy(() -> source.read(new Buffer(), 1)).isInstanceOf(InterruptedIOException.class)
                .hasMessageContaining("deadline");
        assertThat(pipe.reader().available()).as("nothing was read").isEqualTo(1);
        source.timeout().clearDeadline().deadline(40, TimeUnit.MILLISECONDS);
        Buffer got = new Buffer();
        assertThat(source.read(got, 10)).isEqualTo(1);
        assertThatThrownBy(() -> source.read(got, 10)).isInstanceOf(InterruptedIOException.class);
    }

    /** A read asks for no more than the count, and never more than the room it added to Okio's buffer. */
    @Test
    void readsFillOkiosSegmentsWithoutOvershooting() throws IOException {
        Pipe pipe = Pipe.open();
        pipe.writer().write(new byte[20_000]);
        Source source = SluiceOkio.source(pipe.reader());
        Buffer sink = new Buffer().writeUtf8("x");
        long n = source.read(sink, 5);
        assertThat(n).isEqualTo(5);
        assertThat(sink.size()).isEqualTo(6);
        long m = source.read(sink, 1 << 20);
        assertThat(m).isPositive().isLessThanOrEqualTo(20_000 - 5);
        assertThat(sink.size()).isEqualTo(6 + m);
        assertThat(pipe.reader().available()).isEqualTo(20_000 - 5 - (int) m);
        assertThatThrownBy(() -> source.read(sink, -1)).isInstanceOf(IllegalArgumentException.class);
        assertThat(source.read(sink, 0)).isZero();
    }
}
