package dev.sluice.lab.targets;

import dev.sluice.Pipe;
import dev.sluice.ReadEnd;
import dev.sluice.Splice;
import dev.sluice.WriteEnd;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.WritableByteChannel;

/** Sluice's in-process pipe with one choice of every option ({@link SluiceVariant}). */
public final class SluiceTarget {
    private SluiceTarget() {
    }

    /** PIPE_BUF-atomic, nonblocking, sizable, with counters. */
    public static final Caps CAPS = new Caps(true, true, true, true, null, null);

    /**
     * The Sluice target of one variant, named by {@link SluiceVariant#id()}.
     *
     * @param v every option of the pipe
     * @return the target that opens pipes of that variant
     */
    public static Target of(SluiceVariant v) {
        String how = v.equals(SluiceVariant.defaults()) ? "library defaults" : v.id().substring("sluice[".length(),
                v.id().length() - 1) + ", the rest at the library defaults";
        return new PipeApiTarget(Family.SLUICE, v.id(), how, v.settings(), CAPS,
                (capacity, nonBlocking) -> Pipe.open(v.options(capacity, nonBlocking)), ZERO_COPY);
    }

    /**
     * Sluice's own tee, and a splice to nowhere: {@link Splice#transferTo} into a channel that takes every
     * byte and keeps none, so the pages are handed over and dropped without a copy, like {@code /dev/null}.
     */
    static final PipeApiTarget.ZeroCopyCalls ZERO_COPY = new PipeApiTarget.ZeroCopyCalls() {
        @Override
        public long tee(ReadEnd from, WriteEnd to, long max) throws IOException {
            return Splice.tee(from, to, max);
        }

        @Override
        public long discard(ReadEnd from, long max) throws IOException {
            return Splice.transferTo(from, NullChannel.INSTANCE, max);
        }

        @Override
        public String how() {
            return "zero-copy: Splice.tee, then Splice.transferTo into a discarding channel";
        }
    };

    /** A channel that accepts everything and keeps nothing: /dev/null. */
    private enum NullChannel implements WritableByteChannel {
        INSTANCE;

        @Override
        public int write(ByteBuffer src) {
            int n = src.remaining();
            src.position(src.limit());
            return n;
        }

        @Override
        public boolean isOpen() {
            return true;
        }

        @Override
        public void close() {
            // /dev/null stays open
        }
    }

    /** {@return Sluice with every setting at its documented default} */
    public static Target defaults() {
        return of(SluiceVariant.defaults());
    }
}
