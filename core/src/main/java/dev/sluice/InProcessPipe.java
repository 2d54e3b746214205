package dev.sluice;

/**
 * Sluice's in-process pipe: the {@link Pipe} that {@link Pipe#open()} returns. It holds the engine and the
 * two handles the pipe was opened with; everything else lives in {@link PipeCore}.
 */
final class InProcessPipe implements Pipe {
    private final PipeCore core;
    private final InProcessReadEnd reader;
    private final InProcessWriteEnd writer;

    InProcessPipe(PipeOptions options) {
        this.core = new PipeCore(options);
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
        return core.options;
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

    /**
     * Linux's {@code round_pipe_size}: below one page gives one page, else the next power of two.
     *
     * @throws IllegalArgumentException if {@code bytes} is negative or above {@code max}
     */
    static int roundCapacity(int bytes, int max, String what) {
        if (bytes < 0) {
            throw new IllegalArgumentException(what + " must not be negative, was " + bytes);
        }
        if (bytes > max) {
            throw new IllegalArgumentException(what + " " + bytes + " exceeds the largest pipe of " + max + " bytes");
        }
        if (bytes <= PAGE_SIZE) {
            return PAGE_SIZE;
        }
        int p = Integer.highestOneBit(bytes);
        return p == bytes ? bytes : p << 1;
    }
}
