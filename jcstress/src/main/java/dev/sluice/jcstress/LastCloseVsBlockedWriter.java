package dev.sluice.jcstress;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

import dev.sluice.BrokenPipeException;
import dev.sluice.Pipe;
import dev.sluice.PipeOptions;
import java.io.IOException;
import java.io.UncheckedIOException;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Mode;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.Signal;
import org.openjdk.jcstress.annotations.State;

/**
 * The last reader closing while a writer is on its way to sleep on a full pipe: Linux wakes everybody on
 * the last close (6551d5c56eb0) because exclusive waiters had missed it. The writer must always come back,
 * with a broken pipe.
 */
@JCStressTest(Mode.Termination)
@Outcome(id = "TERMINATED", expect = ACCEPTABLE, desc = "The writer got its broken pipe.")
@Outcome(id = "STALE", expect = FORBIDDEN, desc = "The writer sleeps on a pipe nobody can ever read.")
@State
public class LastCloseVsBlockedWriter {
    final Pipe p = Pipe.open(PipeOptions.builder().capacity(4096).build());

    {
        try {
            p.writer().write(new byte[4096]);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Actor
    public void actor() {
        try {
            p.writer().write(new byte[1]);
            throw new IllegalStateException("a write to a full pipe with no reader succeeded");
        } catch (BrokenPipeException expected) {
            // the outcome this test is about
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Signal
    public void signal() {
        p.reader().close();
    }
}
