package dev.sluice.jcstress;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

import dev.sluice.BrokenPipeException;
import dev.sluice.Pipe;
import java.io.IOException;
import java.io.UncheckedIOException;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.II_Result;

/**
 * A bulk write, which copies its 32 KiB with the pipe's lock released ({@code SlotClaim}), racing the only
 * reader's nonblocking read and close. The write publishes its eight pages at once, and drops them if the
 * last reader closed while it copied, so the reader sees none or all of them, and a write that reports a
 * broken pipe stored nothing the reader could have read. r1 = bytes the write reports (returned, or carried
 * by {@link BrokenPipeException}), r2 = bytes the read returned.
 */
@JCStressTest
@Outcome(id = "32768, 32768", expect = ACCEPTABLE, desc = "Write, read, close.")
@Outcome(id = "32768, 0", expect = ACCEPTABLE,
        desc = "The read came first (EAGAIN); the write finished before the close.")
@Outcome(id = "0, 0", expect = ACCEPTABLE,
        desc = "The close came before the write published: broken pipe, nothing stored.")
@Outcome(expect = FORBIDDEN, desc = "A torn write, or bytes read that the writer says it did not store.")
@State
public class BulkWriteVsLastReaderClose {
    final Pipe p = Pipe.open();
    final byte[] data = new byte[32768];
    final byte[] buf = new byte[65536];

    {
        p.reader().setNonBlocking(true);
    }

    @Actor
    public void writer(II_Result r) {
        try {
            r.r1 = p.writer().write(data, 0, data.length);
        } catch (BrokenPipeException e) {
            r.r1 = (int) e.bytesTransferred();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Actor
    public void reader(II_Result r) {
        try {
            r.r2 = p.reader().read(buf, 0, buf.length);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        p.reader().close();
    }
}
