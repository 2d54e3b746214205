package dev.sluice.bench;

import java.io.IOException;
import java.util.concurrent.locks.LockSupport;

/**
 * Not a pipe: the least any blocking pipe must do to pass one byte to a thread that waits for it, with no lock,
 * no ring, no spin and no policy. The writer stores the byte and unparks the reader if it has said it waits;
 * the reader parks until the byte is there. On platform threads that is a futex wake-up, on virtual threads the
 * scheduler's hand-off. {@link PingPongBenchmark.Floor} bounces a token through two of these, so its round trip
 * is the floor under every blocking pipe's ping-pong on the same threads, measured in the same run.
 *
 * <p>One byte at a time, one writer and one reader, and a writer never writes again before its byte was read
 * (as in ping-pong); anything else is refused.
 */
final class Handoff extends Transport {
    private static final int EMPTY = -1;
    private static final int CLOSED = -2;
    private volatile int value = EMPTY;
    private volatile Thread waiter;

    @Override
    int write(byte[] b, int off, int len) {
        if (len != 1 || value != EMPTY) {
            throw new IllegalStateException("a hand-off carries one byte at a time, read before the next");
        }
        value = b[off] & 0xff;
        wake();
        return 1;
    }

    @Override
    int read(byte[] b, int off, int len) {
        int v;
        while ((v = value) == EMPTY) {
            waiter = Thread.currentThread(); // volatile store, then the volatile load below: the writer's
            if (value == EMPTY) {            // store of value and load of waiter cannot both miss each other
                LockSupport.park(this);
            }
            waiter = null;
        }
        if (v == CLOSED) {
            return -1;
        }
        value = EMPTY;
        b[off] = (byte) v;
        return 1;
    }

    @Override
    void closeWriter() {
        value = CLOSED;
        wake();
    }

    private void wake() {
        Thread w = waiter;
        if (w != null) {
            LockSupport.unpark(w);
        }
    }

    @Override
    public void close() throws IOException {
        closeWriter();
    }
}
