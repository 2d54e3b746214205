package dev.sluice.internal.engine;

import dev.sluice.Pipe;
import dev.sluice.WriteEnd;
import dev.sluice.internal.Checks;
import dev.sluice.internal.Description;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.function.BooleanSupplier;

/** The in-process pipe's write handle; the contract is {@link WriteEnd}'s. */
public final class InProcessWriteEnd extends InProcessEnd implements WriteEnd {
    private final InProcessPipe pipe;
    /** The waiting writer's condition, made once per handle so that a wait allocates nothing. */
    final BooleanSupplier writableCheck = () -> core().writable(this);

    InProcessWriteEnd(PipeCore core, InProcessPipe pipe, boolean nonBlocking, boolean packetMode) {
        super(core, new Description(nonBlocking, packetMode), 0);
        this.pipe = pipe;
    }

    /** Another handle of {@code from}'s side, on {@code description}, with a copy of its timeout. */
    private InProcessWriteEnd(InProcessWriteEnd from, Description description) {
        super(from.core(), description, from.timeoutNanos());
        this.pipe = from.pipe;
    }

    @Override
    public Pipe pipe() {
        return pipe;
    }

    @Override
    public int write(byte[] b, int off, int len) throws IOException {
        Checks.checkArray(b, off, len);
        return (int) core().write(this, b, off, len, len);
    }

    @Override
    public int write(ByteBuffer src) throws IOException {
        Checks.checkWriteSource(src);
        return (int) core().write(this, src, 0, 0, src.remaining());
    }

    @Override
    public long write(ByteBuffer[] srcs, int offset, int length) throws IOException {
        long total = Checks.checkBuffers(srcs, offset, length, false);
        return core().write(this, srcs, offset, length, total);
    }

    @Override
    public void setPacketMode(boolean on) {
        if (!isClosed()) { // a closed handle refers to no description any more (Linux: EBADF)
            description().setPacketMode(on);
        }
    }

    @Override
    public boolean isPacketMode() {
        return description().packetMode();
    }

    @Override
    public WriteEnd dup() throws IOException {
        core().addHandle(this);
        return new InProcessWriteEnd(this, description());
    }

    @Override
    public WriteEnd reopen() throws IOException {
        core().addHandle(this);
        return new InProcessWriteEnd(this, description().copy());
    }

    @Override
    public String toString() {
        return "WriteEnd[" + (isClosed() ? "closed" : isNonBlocking() ? "open, nonblocking" : "open")
                + (isPacketMode() ? ", packet mode" : "") + "]";
    }
}
