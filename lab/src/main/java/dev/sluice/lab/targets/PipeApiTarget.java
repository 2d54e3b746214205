package dev.sluice.lab.targets;

import dev.sluice.Pipe;
import dev.sluice.PipeCounters;
import dev.sluice.ReadEnd;
import dev.sluice.WriteEnd;

import java.io.IOException;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

/**
 * Any pipe behind Sluice's {@link Pipe} API: the in-process Sluice pipe, and the kernel pipe of the FFM
 * module once it is built (a kernel target is this class with a factory that opens a {@code KernelPipe}).
 */
public class PipeApiTarget implements Target {

    /**
     * The zero-copy calls between two pipes of this target, where it has them: {@code tee} from one read end
     * into another pipe's write end, and a splice of a read end to nowhere.
     */
    public interface ZeroCopyCalls {
        /**
         * Duplicates queued bytes of one pipe into another without consuming them ({@code tee(2)}).
         *
         * @param from the pipe to duplicate from
         * @param to   the pipe to duplicate into
         * @param max  bytes at most
         * @return bytes duplicated, -1 at end-of-stream
         * @throws IOException if the pipe fails
         */
        long tee(ReadEnd from, WriteEnd to, long max) throws IOException;

        /**
         * Consumes queued bytes of a pipe without copying them anywhere (a splice to {@code /dev/null}).
         *
         * @param from the pipe to consume from
         * @param max  bytes at most
         * @return bytes consumed, -1 at end-of-stream
         * @throws IOException if the pipe fails
         */
        long discard(ReadEnd from, long max) throws IOException;

        /** {@return how the calls are made, for the run's note} */
        String how();
    }

    /** Opens a {@link Pipe} of the given capacity (0 = default) and blocking mode. */
    @FunctionalInterface
    public interface Factory {
        /**
         * Opens one pipe for a workload.
         *
         * @param capacity    bytes, 0 for the default
         * @param nonBlocking both ends nonblocking
         * @return a new pipe
         * @throws IOException if it cannot be opened
         */
        Pipe open(int capacity, boolean nonBlocking) throws IOException;
    }

    private final Family family;
    private final String id;
    private final String how;
    private final Map<String, String> settings;
    private final Caps caps;
    private final Factory factory;
    private final ZeroCopyCalls zeroCopy;

    /**
     * A target that opens its pipes with {@code factory}.
     *
     * @param family   the target's family
     * @param id       its name in tables
     * @param how      how it is configured, for the tables
     * @param settings its settings by option name
     * @param caps     what it can do
     * @param factory  opens one pipe
     * @param zeroCopy the target's tee and splice, or null if it has none
     */
    public PipeApiTarget(Family family, String id, String how, Map<String, String> settings, Caps caps,
                         Factory factory, ZeroCopyCalls zeroCopy) {
        this.family = family;
        this.id = id;
        this.how = how;
        this.settings = Map.copyOf(settings);
        this.caps = caps;
        this.factory = factory;
        this.zeroCopy = zeroCopy;
    }

    @Override
    public Family family() {
        return family;
    }

    @Override
    public String how(Traffic traffic) {
        return how;
    }

    @Override
    public String id() {
        return id;
    }

    @Override
    public Map<String, String> settings() {
        return settings;
    }

    @Override
    public Caps caps() {
        return caps;
    }

    @Override
    public Optional<String> unavailable() {
        return Optional.empty();
    }

    @Override
    public PipeHandle open(Open spec) throws IOException {
        boolean nonBlocking = spec.nonBlocking();
        Pipe pipe = factory.open(spec.capacity(), nonBlocking);
        ReadEnd in = pipe.reader();
        WriteEnd out = pipe.writer();
        in.setNonBlocking(nonBlocking);
        out.setNonBlocking(nonBlocking);
        return new Handle(pipe, in, out);
    }

    /** Both ends of one pipe; a class rather than a lambda so that a tee can find the other pipe's write end. */
    private final class Handle implements PipeHandle {
        private final Pipe pipe;
        private final ReadEnd in;
        private final WriteEnd out;

        Handle(Pipe pipe, ReadEnd in, WriteEnd out) {
            this.pipe = pipe;
            this.in = in;
            this.out = out;
        }

        @Override
        public int read(byte[] b, int off, int len) throws IOException {
            return in.read(b, off, len);
        }

        @Override
        public int write(byte[] b, int off, int len) throws IOException {
            return out.write(b, off, len);
        }

        @Override
        public void closeWriter() {
            out.close();
        }

        @Override
        public void closeReader() {
            in.close();
        }

        @Override
        public Map<String, Long> counters() {
            return caps.counters() ? countersOf(pipe.counters()) : Map.of();
        }

        @Override
        public Optional<ZeroCopy> zeroCopy() {
            if (zeroCopy == null) {
                return Optional.empty();
            }
            return Optional.of(new ZeroCopy() {
                @Override
                public long tee(PipeHandle to, long max) throws IOException {
                    if (!(to instanceof Handle other) || other.owner() != PipeApiTarget.this) {
                        throw new IllegalArgumentException("tee between pipes of different targets");
                    }
                    return zeroCopy.tee(in, other.out, max);
                }

                @Override
                public long discard(long max) throws IOException {
                    return zeroCopy.discard(in, max);
                }

                @Override
                public String how() {
                    return zeroCopy.how();
                }
            });
        }

        private PipeApiTarget owner() {
            return PipeApiTarget.this;
        }
    }

    /** The counters the issue asks for, by the names used in JSON and the report. */
    static Map<String, Long> countersOf(PipeCounters c) {
        Map<String, Long> m = new LinkedHashMap<>();
        m.put("writeCalls", c.writeCalls());
        m.put("readCalls", c.readCalls());
        m.put("readerWaits", c.readerWaits());
        m.put("writerWaits", c.writerWaits());
        m.put("readerWakeups", c.readerWakeups());
        m.put("writerWakeups", c.writerWakeups());
        m.put("emptyWakeups", c.emptyWakeups());
        m.put("spunWaits", c.spunWaits());
        m.put("lockContended", c.lockContended());
        m.put("pagesFromPool", c.pagesFromPool());
        m.put("pagesAllocated", c.pagesAllocated());
        return m;
    }
}
