package dev.sluice.jcstress;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

import dev.sluice.Pipe;
import dev.sluice.PipeOptions;
import java.io.IOException;
import java.io.UncheckedIOException;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.III_Result;

/**
 * A shrink racing a write ({@code F_SETPIPE_SZ} against {@code write}). A two-page pipe holds one page; one
 * thread writes a page without blocking while another shrinks the pipe to one page. Either the write goes
 * first (and the shrink is refused: two pages hold data) or the shrink does (and the write finds the pipe
 * full). Never both, never neither, and never a byte lost: r1 = bytes written, r2 = 1 if the shrink took
 * effect, r3 = bytes queued afterwards.
 */
@JCStressTest
@Outcome(id = "4096, 0, 8192", expect = ACCEPTABLE, desc = "Write first; the shrink is refused (EBUSY).")
@Outcome(id = "0, 1, 4096", expect = ACCEPTABLE, desc = "Shrink first; the write finds the pipe full (EAGAIN).")
@Outcome(expect = FORBIDDEN, desc = "Both, neither, or bytes lost.")
@State
public class ResizeVsWrite {
    final Pipe p = Pipe.open(PipeOptions.builder().capacity(8192).nonBlocking(true).build());

    {
        try {
            p.writer().write(new byte[4096]);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Actor
    public void writer(III_Result r) {
        try {
            r.r1 = p.writer().write(new byte[4096]);
        } catch (IOException e) {
            r.r1 = -1;
        }
    }

    @Actor
    public void resizer(III_Result r) {
        try {
            p.setCapacity(4096);
            r.r2 = 1;
        } catch (IllegalStateException busy) {
            r.r2 = 0;
        }
    }

    @Arbiter
    public void arbiter(III_Result r) {
        r.r3 = (int) p.stat().bytesQueued();
    }
}
