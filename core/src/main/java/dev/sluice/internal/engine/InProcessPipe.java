package dev.sluice.internal.engine;

import dev.sluice.Pipe;
import dev.sluice.PipeCounters;
import dev.sluice.PipeOptions;
import dev.sluice.PipeStat;
import dev.sluice.ReadEnd;
import dev.sluice.WriteEnd;

/**
 * Sluice's in-process pipe: the {@link Pipe} that {@link Pipe#open()} returns. It holds the engine and the
 * two handles the pipe was opened with; everything else lives in {@link PipeCore}.
 */
public final class InProcessPipe implements Pipe {
    private final PipeCore core;
    private final InProcessReadEnd reader;
    private final InProcessWriteEnd writer;

    /**
     * @param options  the pipe's options
     * @param charging the shared page account, or null
     */
    public InProcessPipe(PipeOptions options, PageCharging charging) {
        this.core = new PipeCore(options, charging);
        this.reader = new InProcessReadEnd(core, this, options.nonBlockingRead());
        this.writer = new InProcessWriteEnd(core, this, options.nonBlockingWrite(), options.packetMode());
    }

    @Override
    public ReadEnd reader() {
        return reader;
    }

    @Override
    public WriteEnd writer() {
        return writer;
    }

    @Override
    public PipeOptions options() {
        return core.options();
    }

    @Override
    public int capacity() {
        return core.capacity();
    }

    @Override
    public int setCapacity(int bytes) {
        return core.setCapacity(bytes);
    }

    @Override
    public int setCapacity(long bytes) {
        return core.setCapacity(bytes);
    }

    @Override
    public PipeStat stat() {
        return core.stat();
    }

    @Override
    public PipeCounters counters() {
        return core.counters();
    }

    @Override
    public void resetCounters() {
        core.resetCounters();
    }

    @Override
    public String toString() {
        PipeStat s = stat();
        return "Pipe[capacity=" + s.capacity() + ", queued=" + s.bytesQueued() + " bytes in " + s.slotsUsed()
                + " slots, readers=" + s.readers() + ", writers=" + s.writers() + "]";
    }
}
