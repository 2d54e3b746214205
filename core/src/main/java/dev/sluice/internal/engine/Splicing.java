package dev.sluice.internal.engine;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.ReadableByteChannel;
import java.nio.channels.WritableByteChannel;

/**
 * The engine's entry points for {@code dev.sluice.Splice}, which checks the arguments first: splice, tee and
 * gifts between in-process pipes, and transfers between a pipe and a byte channel.
 */
public final class Splicing {
    private Splicing() {
    }

    /** splice ({@code tee == false}) or tee; see {@link SpliceCall}. */
    public static long splice(InProcessReadEnd from, InProcessWriteEnd to, long maxBytes, boolean tee)
            throws IOException {
        return SpliceCall.run(from, to, maxBytes, tee);
    }

    /** vmsplice with SPLICE_F_GIFT; see {@link GiftCall}. */
    public static long gift(InProcessWriteEnd to, ByteBuffer buf) throws IOException {
        return GiftCall.run(to, buf);
    }

    /** Pipe pages to a channel; see {@link TransferToCall}. */
    public static long transferTo(InProcessReadEnd from, WritableByteChannel channel, long maxBytes)
            throws IOException {
        return TransferToCall.run(from, channel, maxBytes);
    }

    /** A channel into pipe pages; see {@link TransferFromCall}. */
    public static long transferFrom(ReadableByteChannel channel, InProcessWriteEnd to, long maxBytes)
            throws IOException {
        return TransferFromCall.run(channel, to, maxBytes);
    }
}
