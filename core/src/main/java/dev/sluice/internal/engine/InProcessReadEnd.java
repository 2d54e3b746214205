package dev.sluice.internal.engine;

import dev.sluice.Pipe;
import dev.sluice.ReadEnd;
import dev.sluice.internal.Checks;
import dev.sluice.internal.Description;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.function.BooleanSupplier;

/** The in-process pipe's read handle; the contract is {@link ReadEnd}'s. */
public final class InProcessReadEnd extends InProcessEnd implements ReadEnd {
    private final InProcessPipe pipe;
    /** The waiting reader's condition, made once per handle so that a wait allocates nothing. */
    final BooleanSupplier readableCheck = () -> core().readable(this);
    final BooleanSupplier batchCheck = () -> core().batchQueued(this);
    final BooleanSupplier batchReadyCheck = () -> core().batchReady(this);

    InProcessReadEnd(PipeCore core, InProcessPipe pipe, boolean nonBlocking) {
        super(core, new Description(nonBlocking, false), 0);
        this.pipe = pipe;
    }

    /** Another handle of {@code from}'s side, on {@code description}, with a copy of its timeout. */
    private InProcessReadEnd(InProcessReadEnd from, Description description) {
        super(from.core(), description, from.timeoutNanos());
        this.pipe = from.pipe;
    }

    @Override
    public Pipe pipe() {
        return pipe;
    }

    @Override
    public int read(byte[] b, int off, int len) throws IOException {
        Checks.checkArray(b, off, len);
        return (int) core().read(this, b, off, len, len);
    }

    @Override
    public int read(ByteBuffer dst) throws IOException {
        Checks.checkReadTarget(dst);
        return (int) core().read(this, dst, 0, 0, dst.remaining());
    }

    @Override
    public long read(ByteBuffer[] dsts, int offset, int length) throws IOException {
        long total = Checks.checkBuffers(dsts, offset, length, true);
        return core().read(this, dsts, offset, length, total);
    }

    @Override
    public int available() throws IOException {
        ensureOpen();
        return core().available();
    }

    @Override
    public ReadEnd dup() throws IOException {
        core().addHandle(this);
        return new InProcessReadEnd(this, description());
    }

    @Override
    public ReadEnd reopen() throws IOException {
        core().addHandle(this);
        return new InProcessReadEnd(this, description().copy());
    }

    @Override
    public String toString() {
        return "ReadEnd[" + (isClosed() ? "closed" : isNonBlocking() ? "open, nonblocking" : "open") + "]";
    }
}
