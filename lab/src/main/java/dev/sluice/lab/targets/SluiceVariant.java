package dev.sluice.lab.targets;

import dev.sluice.PageMemory;
import dev.sluice.PipeOptions;
import dev.sluice.policy.LockStrategy;
import dev.sluice.policy.ReaderWakePolicy;
import dev.sluice.policy.WaitDiscipline;
import dev.sluice.policy.WakePolicy;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * One choice of every option a Sluice pipe has, as the lab varies them: one record per Sluice target instead
 * of a list per option. {@link #defaults()} is the library's documented defaults; the {@code with...}
 * methods change one option, so an experiment reads as "the defaults with the wake policy half-empty".
 *
 * @param wake       when a reader wakes a blocked writer ({@code --policy})
 * @param readerWake when a writer wakes a blocked reader ({@code --reader-wake})
 * @param waits      how many waiters one wake-up reaches ({@code --wait})
 * @param lock       mutex or spin lock ({@code --lock})
 * @param timestamps keep access and modification times on every call ({@code --timestamps})
 * @param spin       how waiting threads spin before they park ({@code --spin})
 * @param memory     heap or direct pages ({@code --page-memory})
 * @param poolPages  spare pages kept for reuse, -1 for the library's default ({@code --pool-pages})
 * @param capacity   bytes for the pipes a workload opens at their default size, 0 for the library's 64 KiB
 *                   ({@code --capacity}); a workload that sets its own size (pipebench's pipe-size) keeps it
 */
public record SluiceVariant(WakePolicy wake, ReaderWakePolicy readerWake, WaitDiscipline waits, LockStrategy lock,
                            boolean timestamps, Spin spin, PageMemory memory, int poolPages, int capacity) {
    /** The largest {@code --pool-pages} the lab accepts. */
    public static final int MAX_POOL_PAGES = 1 << 16;

    /** Checks the ranges, naming the option of each. */
    public SluiceVariant {
        if (poolPages < -1 || poolPages > MAX_POOL_PAGES) {
            throw new IllegalArgumentException("--pool-pages: must be -1 (the library's default) or 0.."
                    + MAX_POOL_PAGES + ", got " + poolPages);
        }
        if (capacity < 0 || capacity > PipeOptions.ABSOLUTE_MAX_CAPACITY) {
            throw new IllegalArgumentException("--capacity: must be 0 (the default, 64k) or 1.."
                    + PipeOptions.ABSOLUTE_MAX_CAPACITY / (1 << 20) + "m bytes, got " + capacity);
        }
    }

    /** {@return every option at the library's documented default} */
    public static SluiceVariant defaults() {
        return new SluiceVariant(PipeOptions.DEFAULT_WAKE_POLICY, PipeOptions.DEFAULT_READER_WAKE_POLICY,
                PipeOptions.DEFAULT_WAIT_DISCIPLINE, PipeOptions.DEFAULT_LOCK_STRATEGY, false, Spin.DEFAULT,
                PipeOptions.DEFAULT_PAGE_MEMORY, PipeOptions.DEFAULT_POOL_PAGES, 0);
    }

    /**
     * {@return this variant with another writer wake policy}
     *
     * @param p the writer wake policy, for {@code --policy}
     */
    public SluiceVariant withWake(WakePolicy p) {
        return new SluiceVariant(p, readerWake, waits, lock, timestamps, spin, memory, poolPages, capacity);
    }

    /**
     * {@return this variant with another reader wake policy}
     *
     * @param p the reader wake policy, for {@code --reader-wake}
     */
    public SluiceVariant withReaderWake(ReaderWakePolicy p) {
        return new SluiceVariant(wake, p, waits, lock, timestamps, spin, memory, poolPages, capacity);
    }

    /**
     * {@return this variant with heap or direct pages}
     *
     * @param m where the pages live, for {@code --page-memory}
     */
    public SluiceVariant withMemory(PageMemory m) {
        return new SluiceVariant(wake, readerWake, waits, lock, timestamps, spin, m, poolPages, capacity);
    }

    /**
     * {@return this variant with another default capacity (0 for the library's)}
     *
     * @param bytes the capacity of the pipes a workload opens at their default size, 0 for the
     *              library's 64 KiB
     */
    public SluiceVariant withCapacity(int bytes) {
        return new SluiceVariant(wake, readerWake, waits, lock, timestamps, spin, memory, poolPages, bytes);
    }

    /**
     * {@return this variant with another wait discipline}
     *
     * @param w how many waiters one wake-up reaches, for {@code --wait}
     */
    public SluiceVariant withWaits(WaitDiscipline w) {
        return new SluiceVariant(wake, readerWake, w, lock, timestamps, spin, memory, poolPages, capacity);
    }

    /**
     * {@return this variant with another lock}
     *
     * @param l mutex or spin lock, for {@code --lock}
     */
    public SluiceVariant withLock(LockStrategy l) {
        return new SluiceVariant(wake, readerWake, waits, l, timestamps, spin, memory, poolPages, capacity);
    }

    /**
     * {@return this variant with timestamps on or off}
     *
     * @param on whether every call updates the access and modification times
     */
    public SluiceVariant withTimestamps(boolean on) {
        return new SluiceVariant(wake, readerWake, waits, lock, on, spin, memory, poolPages, capacity);
    }

    /**
     * {@return this variant with another spin}
     *
     * @param s how waiting threads spin before they park, for {@code --spin}
     */
    public SluiceVariant withSpin(Spin s) {
        return new SluiceVariant(wake, readerWake, waits, lock, timestamps, s, memory, poolPages, capacity);
    }

    /**
     * {@return this variant with another page pool size}
     *
     * @param pages spare pages kept for reuse, -1 for the library's default
     */
    public SluiceVariant withPoolPages(int pages) {
        return new SluiceVariant(wake, readerWake, waits, lock, timestamps, spin, memory, pages, capacity);
    }

    /** {@return every option by the name of its command-line option, for JSON and the report} */
    public Map<String, String> settings() {
        Map<String, String> m = new LinkedHashMap<>();
        m.put("policy", wake.alias());
        m.put("reader-wake", readerWake.alias());
        m.put("wait", waits.alias());
        m.put("lock", lock.alias());
        m.put("timestamps", timestamps ? "on" : "off");
        m.put("spin", spin.alias());
        m.put("page-memory", memory.alias());
        m.put("pool-pages", poolPages < 0 ? "default" : Integer.toString(poolPages));
        m.put("capacity", capacity == 0 ? "default" : Integer.toString(capacity));
        return m;
    }

    /**
     * {@return the target's name in tables and on the command line: {@code sluice} for the defaults, else
     * {@code sluice[...]} naming what differs from them, e.g. {@code sluice[half-empty,spin=0]}}
     */
    public String id() {
        SluiceVariant d = defaults();
        List<String> diff = new ArrayList<>();
        if (wake != d.wake) {
            diff.add(wake.alias());
        }
        if (readerWake != d.readerWake) {
            diff.add(readerWake.alias());
        }
        if (waits != d.waits) {
            diff.add(waits.alias());
        }
        if (lock != d.lock) {
            diff.add(lock.alias());
        }
        if (timestamps) {
            diff.add("timestamps");
        }
        if (!spin.same(d.spin)) {
            diff.add("spin=" + spin.alias());
        }
        if (memory != d.memory) {
            diff.add(memory.alias());
        }
        if (poolPages != d.poolPages) {
            diff.add("pool=" + poolPages);
        }
        if (capacity != d.capacity) {
            diff.add("cap=" + capacity);
        }
        return diff.isEmpty() ? "sluice" : "sluice[" + String.join(",", diff) + "]";
    }

    /**
     * Translates this variant into the library's options for one pipe.
     *
     * @param wanted      the capacity the workload asks for, 0 for its default
     * @param nonBlocking both ends nonblocking
     * @return the options for one pipe of this variant, every option set explicitly so that a {@code -D}
     *         system default cannot change what is measured
     */
    public PipeOptions options(int wanted, boolean nonBlocking) {
        PipeOptions.Builder b = PipeOptions.builder()
                .wakePolicy(wake).readerWakePolicy(readerWake).waitDiscipline(waits).lockStrategy(lock)
                .timestamps(timestamps).nonBlocking(nonBlocking).spinPolicy(spin.policy())
                .spinBeforePark(spin.duration()).pageMemory(memory).poolPages(poolPages);
        int cap = wanted > 0 ? wanted : capacity;
        if (cap > 0) {
            b.maxCapacity(Math.max(cap, PipeOptions.DEFAULT_MAX_CAPACITY)).capacity(cap);
        }
        return b.build();
    }
}
