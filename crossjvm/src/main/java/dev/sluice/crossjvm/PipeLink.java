package dev.sluice.crossjvm;

import dev.sluice.ReadEnd;
import dev.sluice.WriteEnd;
import java.io.IOException;

/** A {@link Link} over the ends of two Sluice pipes (shared-memory or kernel): one to read, one to write. */
final class PipeLink implements Link {
    private final ReadEnd in;
    private final WriteEnd out;

    PipeLink(ReadEnd in, WriteEnd out) {
        this.in = in;
        this.out = out;
    }

    @Override
    public int read(byte[] b, int off, int len) throws IOException {
        return in.read(b, off, len);
    }

    @Override
    public void write(byte[] b, int off, int len) throws IOException {
        out.write(b, off, len); // a blocking write returns when every byte is in the pipe
    }

    @Override
    public void closeOutput() {
        out.close();
    }

    @Override
    public void close() {
        out.close();
        in.close();
    }
}
