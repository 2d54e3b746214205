package dev.sluice.lab.targets;

import java.io.IOException;
import java.util.Optional;

/**
 * A target that cannot run here (kernel pipes off Linux): shown as "n/a: why".
 *
 * @param family the target's family
 * @param why    the reason, for the table
 */
public record UnavailableTarget(Family family, String why) implements Target {

    @Override
    public String id() {
        return family.alias();
    }

    @Override
    public Caps caps() {
        return new Caps(false, false, false, false, why, why);
    }

    @Override
    public String how(Traffic traffic) {
        return "n/a";
    }

    @Override
    public Optional<String> unavailable() {
        return Optional.of(why);
    }

    @Override
    public PipeHandle open(Open spec) throws IOException {
        throw new IOException(why);
    }
}
