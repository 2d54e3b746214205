package dev.sluice.lab.workload;

import dev.sluice.lab.targets.Caps;
import dev.sluice.lab.targets.Family;
import dev.sluice.lab.targets.Open;
import dev.sluice.lab.targets.PipeHandle;
import dev.sluice.lab.targets.Target;
import dev.sluice.lab.targets.Traffic;

import java.io.IOException;
import java.util.concurrent.atomic.AtomicInteger;

/** A target whose n-th write (counting from 0, over all its pipes) has one byte flipped: a faulty pipe. */
final class CorruptingTarget implements Target {
    private final Target inner;
    private final int victim;
    private final AtomicInteger writes = new AtomicInteger();

    CorruptingTarget(Target inner, int victim) {
        this.inner = inner;
        this.victim = victim;
    }

    @Override
    public Family family() {
        return inner.family();
    }

    @Override
    public String id() {
        return "corrupted " + inner.id();
    }

    @Override
    public Caps caps() {
        return inner.caps();
    }

    @Override
    public String how(Traffic traffic) {
        return "corrupts one write";
    }

    @Override
    public PipeHandle open(Open spec) throws IOException {
        PipeHandle p = inner.open(spec);
        return new PipeHandle() {
            @Override
            public int read(byte[] b, int off, int len) throws IOException {
                return p.read(b, off, len);
            }

            @Override
            public int write(byte[] b, int off, int len) throws IOException {
                if (len > 0 && writes.getAndIncrement() == victim) {
                    byte[] copy = java.util.Arrays.copyOfRange(b, off, off + len);
                    copy[len / 2] ^= 0x55;
                    return p.write(copy, 0, len);
                }
                return p.write(b, off, len);
            }

            @Override
            public void closeWriter() throws IOException {
                p.closeWriter();
            }

            @Override
            public void closeReader() throws IOException {
                p.closeReader();
            }
        };
    }
}
