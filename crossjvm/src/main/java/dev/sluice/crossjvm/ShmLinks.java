package dev.sluice.crossjvm;

import dev.sluice.PipeOptions;
import dev.sluice.shm.ShmPipe;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

/**
 * {@link Transport#SHM}: two shared-memory pipes in memfds, one each way. The child opens them through their
 * {@code /proc/<pid>/fd} paths and claims the ends the parent {@linkplain ShmPipe#handOver handed over}.
 */
final class ShmLinks {
    private static final Duration CLAIM_WAIT = Duration.ofSeconds(30);

    private ShmLinks() {
    }

    static Wiring wiring(int capacity) throws IOException {
        PipeOptions o = Peer.pipeOptions(capacity);
        ShmPipe there = ShmPipe.create(o);
        ShmPipe back;
        try {
            back = ShmPipe.create(o);
        } catch (IOException | RuntimeException e) {
            there.close();
            throw e;
        }
        return new Wiring() {
            @Override
            List<String> args() {
                return List.of(there.path().toString(), back.path().toString());
            }

            @Override
            Link connect(Process child) throws IOException {
                there.handOver(there.reader(), child.toHandle());
                back.handOver(back.writer(), child.toHandle());
                return new PipeLink(back.reader(), there.writer());
            }

            @Override
            void discard() {
                there.close();
                back.close();
            }
        };
    }

    static Link join(List<String> args) throws IOException {
        ShmPipe there = ShmPipe.claim(Path.of(args.get(0)), CLAIM_WAIT);
        try {
            ShmPipe back = ShmPipe.claim(Path.of(args.get(1)), CLAIM_WAIT);
            return new PipeLink(there.reader(), back.writer());
        } catch (IOException | RuntimeException e) {
            there.close();
            throw e;
        }
    }
}
