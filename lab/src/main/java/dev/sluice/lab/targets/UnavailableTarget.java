package dev.sluice.lab.targets;

import java.io.IOException;
import java.util.Optional;

/** A target that cannot run here (the kernel FFM module not built yet, perf missing): shown as "n/a: why". */
public record UnavailableTarget(String family, String why) implements Target {

    @Override
    public String id() {
        return family;
    }

    @Override
    public Caps caps() {
        return new Caps(false, false, false, false, why, why);
    }

    @Override
    public Optional<String> unavailable() {
        return Optional.of(why);
    }

    @Override
    public PipeHandle open(int capacity, boolean nonBlocking) throws IOException {
        throw new IOException(why);
    }
}
