package dev.sluice;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.InterruptedIOException;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.ClosedSelectorException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** {@link PipeSelector}: many ends, level-triggered readiness, cost by the ready ends, wake-ups and bad input. */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class PipeSelectorTest {

    enum Kind {
        PLATFORM, VIRTUAL;

        <T> CompletableFuture<T> run(ConformanceSupport.Body<T> body) {
            CompletableFuture<T> f = new CompletableFuture<>();
            Runnable r = () -> {
                try {
                    f.complete(body.run());
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

    @Test
    void tenThousandRegisteredOneReadyExaminesOne() throws Exception {
        try (PipeSelector s = PipeSelector.open()) {
            List<Pipe> pipes = new ArrayList<>();
            for (int i = 0; i < 10_000; i++) {
                Pipe p = Pipe.open(PipeOptions.builder().capacity(4096).build());
                pipes.add(p);
                s.register(p.reader(), i);
            }
            assertThat(s.selectNow()).isEmpty(); // the first look arms them all
            assertThat(s.lastExamined()).isEqualTo(10_000);
            pipes.get(4242).writer().write(new byte[] {1});
            Set<PipeSelector.Key> ready = s.select(Duration.ofSeconds(10));
            assertThat(ready).extracting(PipeSelector.Key::attachment).containsExactly(4242);
            assertThat(s.lastExamined()).as("only the end that became ready is looked at").isEqualTo(1);
            assertThat(ready.iterator().next().readiness().readable()).isTrue();
        }
    }

    @ParameterizedTest
    @EnumSource(Kind.class)
    void readinessIsLevelTriggeredAndCoversBothSides(Kind kind) throws Exception {
        try (PipeSelector s = PipeSelector.open()) {
            Pipe a = Pipe.open(PipeOptions.builder().capacity(4096).build());
            Pipe b = Pipe.open(PipeOptions.builder().capacity(4096).build());
            b.writer().write(new byte[4096]); // b is full: its writer is not writable
            s.register(a.reader(), "a-read");
            s.register(b.writer(), "b-write");
            CompletableFuture<Set<PipeSelector.Key>> first = kind.run(() -> s.select(Duration.ZERO));
            a.writer().write(new byte[] {7});
            assertThat(first.get(10, TimeUnit.SECONDS)).extracting(PipeSelector.Key::attachment)
                    .containsExactly("a-read");
            assertThat(s.selectNow()).as("still readable: selected again").extracting(PipeSelector.Key::attachment)
                    .containsExactly("a-read");
            a.reader().read(new byte[10]);
            b.reader().read(new byte[4096]);
            assertThat(s.select(Duration.ofSeconds(10))).extracting(PipeSelector.Key::attachment)
                    .containsExactly("b-write");
            a.writer().close();
            assertThat(s.select(Duration.ofSeconds(10))).extracting(PipeSelector.Key::attachment)
                    .containsExactlyInAnyOrder("a-read", "b-write") // hung up: a read would not block
                    .hasSize(2);
        }
    }

    @ParameterizedTest
    @EnumSource(Kind.class)
    void aSelectEndsOnWakeupTimeoutInterruptAndClose(Kind kind) throws Exception {
        PipeSelector s = PipeSelector.open();
        s.register(Pipe.open().reader(), null);
        assertThat(s.select(Duration.ofMillis(20))).as("timed out").isEmpty();
        CompletableFuture<Set<PipeSelector.Key>> woken = kind.run(() -> s.select(Duration.ZERO));
        s.wakeup();
        assertThat(woken.get(10, TimeUnit.SECONDS)).isEmpty();
        s.wakeup(); // before a select: the next one returns at once
        assertThat(s.select(Duration.ZERO)).isEmpty();
        CompletableFuture<Thread> interrupted = new CompletableFuture<>();
        CompletableFuture<Set<PipeSelector.Key>> waiting = kind.run(() -> {
            interrupted.complete(Thread.currentThread());
            return s.select(Duration.ZERO);
        });
        ConformanceSupport.awaitBlocked(interrupted.get());
        interrupted.get().interrupt();
        assertThat(waiting).failsWithin(10, TimeUnit.SECONDS).withThrowableThat().havingCause()
                .isInstanceOf(InterruptedIOException.class);
        CompletableFuture<Thread> selecting = new CompletableFuture<>();
        CompletableFuture<Set<PipeSelector.Key>> closing = kind.run(() -> {
            selecting.complete(Thread.currentThread());
            return s.select(Duration.ZERO);
        });
        ConformanceSupport.awaitBlocked(selecting.get());
        s.close();
        assertThat(closing.get(10, TimeUnit.SECONDS)).isEmpty();
        assertThatThrownBy(() -> s.select(Duration.ZERO)).isInstanceOf(ClosedSelectorException.class);
    }

    @Test
    void cancelledKeysAndClosedEndsLeave() throws Exception {
        try (PipeSelector s = PipeSelector.open()) {
            Pipe p = Pipe.open();
            PipeSelector.Key k = s.register(p.reader(), null);
            assertThat(s.selectNow()).isEmpty();
            k.cancel();
            assertThat(dev.sluice.internal.engine.EngineProbe.pendingReadiness(p.reader()))
                    .as("its readiness future left the pipe").isZero();
            p.writer().write(new byte[1]);
            assertThat(s.selectNow()).isEmpty();
            assertThat(s.keys()).isEmpty();

            Pipe q = Pipe.open();
            s.register(q.reader(), "q");
            assertThat(s.selectNow()).isEmpty();
            q.reader().close();
            Set<PipeSelector.Key> once = s.select(Duration.ofSeconds(10));
            assertThat(once).singleElement().matches(key -> key.readiness().invalid());
            assertThat(s.keys()).as("a closed end is reported once and then dropped").isEmpty();
        }
    }

    @Test
    void badInputIsRefused() throws Exception {
        try (PipeSelector s = PipeSelector.open()) {
            Pipe p = Pipe.open();
            s.register(p.reader(), null);
            assertThatThrownBy(() -> s.register(p.reader(), null)).isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("already registered");
            ReadEnd closed = p.reader().dup();
            closed.close();
            assertThatThrownBy(() -> s.register(closed, null)).isInstanceOf(ClosedChannelException.class);
            PipeEnd neither = new NeitherEnd(p.writer());
            assertThatThrownBy(() -> s.register(neither, null)).isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("neither");
            assertThatThrownBy(() -> s.register(null, null)).isInstanceOf(NullPointerException.class);
            assertThatThrownBy(() -> s.select(Duration.ofSeconds(-1))).isInstanceOf(IllegalArgumentException.class);
        }
    }

    /** A PipeEnd that is neither end, as a foreign implementation might be. */
    private record NeitherEnd(WriteEnd inner) implements PipeEnd {
        @Override
        public Pipe pipe() {
            return inner.pipe();
        }

        @Override
        public void setNonBlocking(boolean on) {
        }

        @Override
        public boolean isNonBlocking() {
            return false;
        }

        @Override
        public void setTimeout(Duration timeout) {
        }

        @Override
        public Duration timeout() {
            return Duration.ZERO;
        }

        @Override
        public Readiness poll() {
            return inner.poll();
        }

        @Override
        public CompletableFuture<Readiness> whenReady() {
            return inner.whenReady();
        }

        @Override
        public boolean isOpen() {
            return true;
        }

        @Override
        public void close() {
        }

        @Override
        public PipeEnd dup() {
            return this;
        }
    }
}
