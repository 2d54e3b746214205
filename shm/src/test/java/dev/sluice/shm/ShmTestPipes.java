package dev.sluice.shm;

import dev.sluice.Pipe;
import dev.sluice.PipeCounters;
import dev.sluice.PipeOptions;
import dev.sluice.PipeStat;
import dev.sluice.ReadEnd;
import dev.sluice.WriteEnd;
import dev.sluice.testing.Capability;
import dev.sluice.testing.ModulePipeFactory;
import dev.sluice.testing.PipeFactory;
import java.io.IOException;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;

/**
 * The pipes this module runs core's conformance rules over: shared-memory pipes, named in this module's
 * {@code META-INF/services}, in two shapes. "shared memory" has both ends in one attachment (one mapping);
 * "shared memory, two mappings" takes the read end from one attachment and the write end from a second,
 * independent attachment of the same memory ({@link ShmPipe#attach} through {@link ShmPipe#path()}, so the
 * kernel maps it a second time, with a process-table entry of its own), as two processes would hold them.
 * They open as asked, carry a byte stream and wake a blocked writer as soon as room frees; their capacity is
 * fixed at creation, and what only the in-process pipe has (its occupancy, pool, wait queue, splice and
 * transfers between its ends) they lack, so those tests do not run here. Options a shared pipe cannot honour
 * abort the test with the reason. The two-mappings shape lacks {@link Capability#SAME_PIPE_OBJECT}: each end's
 * {@code pipe()} is its own attachment.
 */
public final class ShmTestPipes implements PipeFactory.Source {
    /** Creates the source (found by {@link java.util.ServiceLoader}). */
    public ShmTestPipes() {
    }

    @Override
    public List<PipeFactory> pipes() {
        Set<Capability> twoMappings =
                EnumSet.of(Capability.AS_REQUESTED, Capability.BYTE_STREAM, Capability.PROMPT_WRITER_WAKEUP);
        Set<Capability> one = EnumSet.copyOf(twoMappings);
        one.add(Capability.SAME_PIPE_OBJECT);
        return List.of(
                new ModulePipeFactory("shared memory", one, 8L << 20, "a shared-memory pipe",
                        ShmPipe::unsupported, ShmPipe::create),
                new ModulePipeFactory("shared memory, two mappings", twoMappings, 4L << 20, "a shared-memory pipe",
                        ShmPipe::unsupported, options -> TwoMappings.of(ShmPipe.create(options), options)));
    }

    /**
     * One pipe seen through two attachments of its memory: the read end is the creator's, the write end the
     * second attachment's. The calls on the pipe as a whole (stat, capacity) go to whichever attachment is
     * still joined; counters add both attachments' up. An end's {@code pipe()} is its own attachment, not this
     * object: there is no one object that both attachments share.
     */
    static final class TwoMappings implements Pipe {
        private final ShmPipe readSide;
        private final ShmPipe writeSide;

        private TwoMappings(ShmPipe readSide, ShmPipe writeSide) {
            this.readSide = readSide;
            this.writeSide = writeSide;
        }

        /** Attaches to {@code created} a second time and keeps its read end and the new attachment's write end. */
        static TwoMappings of(ShmPipe created, PipeOptions options) throws IOException {
            ShmPipe second;
            try {
                second = ShmPipe.attach(created.path());
            } catch (IOException | RuntimeException e) {
                created.close();
                throw e;
            }
            second.reader().close();
            created.writer().close(); // after the attach, so the pipe always has a write handle open
            second.writer().setNonBlocking(options.nonBlockingWrite());
            second.writer().setPacketMode(options.packetMode());
            return new TwoMappings(created, second);
        }

        private ShmPipe joined() {
            return readSide.detached() ? writeSide : readSide;
        }

        @Override
        public ReadEnd reader() {
            return readSide.reader();
        }

        @Override
        public WriteEnd writer() {
            return writeSide.writer();
        }

        @Override
        public int capacity() {
            return readSide.capacity();
        }

        @Override
        public int setCapacity(int bytes) {
            return joined().setCapacity(bytes);
        }

        /**
         * The live state from an attachment still joined; once both have left, the state as the later one left
         * it (the earlier one's snapshot still counts the later one's handles).
         */
        @Override
        public PipeStat stat() {
            if (!readSide.detached() || !writeSide.detached()) {
                return joined().stat();
            }
            PipeStat r = readSide.stat();
            PipeStat w = writeSide.stat();
            return r.readers() + r.writers() <= w.readers() + w.writers() ? r : w;
        }

        @Override
        public PipeCounters counters() {
            PipeCounters r = readSide.counters();
            PipeCounters w = writeSide.counters();
            return new PipeCounters(r.bytesWritten() + w.bytesWritten(), r.bytesRead() + w.bytesRead(),
                    r.writeCalls() + w.writeCalls(), r.readCalls() + w.readCalls(),
                    r.readerWaits() + w.readerWaits(), r.writerWaits() + w.writerWaits(),
                    r.readerWakeups() + w.readerWakeups(), r.writerWakeups() + w.writerWakeups(), -1,
                    r.spunWaits() + w.spunWaits(), -1, -1, -1, -1);
        }

        @Override
        public void resetCounters() {
            readSide.resetCounters();
            writeSide.resetCounters();
        }

        @Override
        public String toString() {
            return "TwoMappings[" + readSide + ", " + writeSide + "]";
        }
    }
}
