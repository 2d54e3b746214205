package dev.sluice.lab.targets;

import dev.sluice.Pipe;
import dev.sluice.PipeOptions;
import dev.sluice.ReadEnd;
import dev.sluice.Splice;
import dev.sluice.WriteEnd;
import dev.sluice.policy.LockStrategy;
import dev.sluice.policy.ReaderWakePolicy;
import dev.sluice.policy.WaitDiscipline;
import dev.sluice.policy.WakePolicy;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.WritableByteChannel;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Sluice's in-process pipe with one choice of wake policy, wait discipline, lock, timestamps and spin. */
public final class SluiceTarget {
    private SluiceTarget() {
    }

    public static final Caps CAPS = new Caps(true, true, true, true, null, null);

    /**
     * @param policy     when a reader wakes a writer
     * @param discipline how many waiters one wake-up reaches
     * @param lock       mutex or spin lock
     * @param timestamps keep access/modification times on every call (FIFO-like)
     */
    public static Target of(WakePolicy policy, WaitDiscipline discipline, LockStrategy lock, boolean timestamps) {
        return of(policy, discipline, lock, timestamps, Spin.DEFAULT);
    }

    /**
     * @param policy     when a reader wakes a writer
     * @param discipline how many waiters one wake-up reaches
     * @param lock       mutex or spin lock
     * @param timestamps keep access/modification times on every call (FIFO-like)
     * @param spin       how waiting threads spin before they park
     */
    public static Target of(WakePolicy policy, WaitDiscipline discipline, LockStrategy lock, boolean timestamps,
                            Spin spin) {
        Map<String, String> settings = new LinkedHashMap<>();
        settings.put("policy", policy.alias());
        settings.put("wait", discipline.alias());
        settings.put("lock", lock.alias());
        settings.put("timestamps", timestamps ? "on" : "off");
        settings.put("spin", spin.alias());
        // The id names only what differs from the defaults, so the default variant is plain "sluice".
        List<String> diff = new ArrayList<>();
        if (policy != PipeOptions.DEFAULT_WAKE_POLICY) {
            diff.add(policy.alias());
        }
        if (discipline != PipeOptions.DEFAULT_WAIT_DISCIPLINE) {
            diff.add(discipline.alias());
        }
        if (lock != PipeOptions.DEFAULT_LOCK_STRATEGY) {
            diff.add(lock.alias());
        }
        if (timestamps) {
            diff.add("timestamps");
        }
        if (!spin.same(Spin.DEFAULT)) {
            diff.add("spin=" + spin.alias());
        }
        String id = diff.isEmpty() ? "sluice" : "sluice[" + String.join(",", diff) + "]";
        return new PipeApiTarget("sluice", id, settings, CAPS, (capacity, nonBlocking) -> {
            PipeOptions.Builder b = PipeOptions.builder()
                    .wakePolicy(policy).readerWakePolicy(ReaderWakePolicy.ON_EMPTY).waitDiscipline(discipline).lockStrategy(lock)
                    .timestamps(timestamps).nonBlocking(nonBlocking)
                    // explicit, so a -D system default for the test matrix cannot change what is measured
                    .spinPolicy(spin.policy()).spinBeforePark(spin.duration());
            if (capacity > 0) {
                b.maxCapacity(Math.max(capacity, PipeOptions.DEFAULT_MAX_CAPACITY)).capacity(capacity);
            }
            return Pipe.open(b.build());
        }, ZERO_COPY);
    }

    /**
     * Sluice's own tee, and a splice to nowhere: {@link Splice#transferTo} into a channel that takes every
     * byte and keeps none, so the pages are handed over and dropped without a copy, like {@code /dev/null}.
     */
    static final PipeApiTarget.ZeroCopyCalls ZERO_COPY = new PipeApiTarget.ZeroCopyCalls() {
        @Override
        public long tee(ReadEnd from, WriteEnd to, long max) throws IOException {
            return Splice.tee(from, to, max);
        }

        @Override
        public long discard(ReadEnd from, long max) throws IOException {
            return Splice.transferTo(from, NullChannel.INSTANCE, max);
        }

        @Override
        public String how() {
            return "zero-copy: Splice.tee, then Splice.transferTo into a discarding channel";
        }
    };

    /** A channel that accepts everything and keeps nothing: /dev/null. */
    private enum NullChannel implements WritableByteChannel {
        INSTANCE;

        @Override
        public int write(ByteBuffer src) {
            int n = src.remaining();
            src.position(src.limit());
            return n;
        }

        @Override
        public boolean isOpen() {
            return true;
        }

        @Override
        public void close() {
            // /dev/null stays open
        }
    }

    /** @return Sluice with every setting at its documented default */
    public static Target defaults() {
        return of(PipeOptions.DEFAULT_WAKE_POLICY, PipeOptions.DEFAULT_WAIT_DISCIPLINE, PipeOptions.DEFAULT_LOCK_STRATEGY, false);
    }
}
