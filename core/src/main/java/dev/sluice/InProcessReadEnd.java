package dev.sluice;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.function.BooleanSupplier;

/** The in-process pipe's read handle; the contract is {@link ReadEnd}'s. */
final class InProcessReadEnd extends InProcessEnd implements ReadEnd {
    private final InProcessPipe pipe;
    final BooleanSupplier readableCheck = () -> core.readable(this);
    final BooleanSupplier pageCheck = () -> core.pageQueued(this);

    InProcessReadEnd(PipeCore core, InProcessPipe pipe, boolean nonBlocking) {
        super(core, nonBlocking, 0);
        this.pipe = pipe;
    }

    InProcessReadEnd(PipeCore core, InProcessReadEnd from) {
        super(core, from.nonBlocking, from.timeoutNanos);
        this.pipe = from.pipe;
    }

    @Override
    public Pipe pipe() {
        return pipe;
    }

    @Override
    public int read(byte[] b, int off, int len) throws IOException {
        Transfer.checkArray(b, off, len);
        return (int) core.read(this, b, off, len, len);
    }

    @Override
    public int read(ByteBuffer dst) throws IOException {
        Transfer.checkReadTarget(dst);
        return (int) core.read(this, dst, 0, 0, dst.remaining());
    }

    @Override
    public long read(ByteBuffer[] dsts, int offset, int length) throws IOException {
        long total = Transfer.checkBuffers(dsts, offset, length, true);
        return core.read(this, dsts, offset, length, total);
    }

    @Override
    public int available() throws IOException {
        ensureOpen();
        return core.available();
    }

    @Override
    public ReadEnd dup() throws IOException {
        return core.dupReader(this);
    }

    @Override
    public String toString() {
        return "ReadEnd[" + (closed ? "closed" : nonBlocking ? "open, nonblocking" : "open") + "]";
    }
}
