package dev.sluice;

import dev.sluice.internal.Checks;
import dev.sluice.policy.Aliased;
import dev.sluice.policy.LockStrategy;
import dev.sluice.policy.ReaderWakePolicy;
import dev.sluice.policy.SpinPolicy;
import dev.sluice.policy.WaitDiscipline;
import dev.sluice.policy.WakePolicy;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Properties;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * How a pipe is opened: the flags of {@code pipe2(2)} plus the sysctls Linux keeps system-wide, and the
 * wake-up and locking choices of {@link dev.sluice.policy}.
 * Immutable; build one with {@link #builder()}. {@link #defaults()} is a 64 KiB blocking pipe, like
 * {@code pipe(2)}.
 *
 * <pre>{@code
 * Pipe p = Pipe.open(PipeOptions.builder()
 *         .capacity(256 * 1024)        // F_SETPIPE_SZ at birth, rounded up to a power-of-two of pages
 *         .packetMode(true)            // O_DIRECT
 *         .nonBlocking(true)           // O_NONBLOCK on both ends
 *         .build());
 * }</pre>
 *
 * <p>The policy defaults can be changed for a whole JVM, without touching code, with system properties read
 * once when this class is first used: {@code sluice.wakePolicy} (for example {@code adaptive}),
 * {@code sluice.readerWakePolicy}, {@code sluice.waitDiscipline}, {@code sluice.lockStrategy},
 * {@code sluice.spinPolicy}, {@code sluice.pageMemory} ({@code heap} or {@code direct}; the names are the
 * constants' aliases) and {@code sluice.spinBeforePark} (such as {@code 0}, {@code 500ns}, {@code 20us},
 * {@code 1ms}). Options set on a builder still win. That is how an application can be measured under each
 * policy without a rebuild. A property that names no accepted value is reported once, by the first
 * {@link #builder()} or {@link #defaults()} of the JVM, with an {@link IllegalArgumentException} that names
 * the property and the accepted values; from then on the built-in default stands in for it.
 */
public final class PipeOptions {
    /** Default capacity: 16 pages, 64 KiB (Linux {@code PIPE_DEF_BUFFERS}). */
    public static final int DEFAULT_CAPACITY = 16 * Pipe.PAGE_SIZE;
    /** Default largest capacity {@link Pipe#setCapacity} may set: 1 MiB (Linux {@code pipe-max-size}). */
    public static final int DEFAULT_MAX_CAPACITY = 1 << 20;
    /** Largest capacity any pipe can have: 1 GiB. */
    public static final int ABSOLUTE_MAX_CAPACITY = (1 << 18) * Pipe.PAGE_SIZE;

    /** The default {@link Builder#wakePolicy}: Linux's current rule. */
    public static final WakePolicy DEFAULT_WAKE_POLICY = WakePolicy.FULL_AND_FREED;
    /** The default {@link Builder#readerWakePolicy}: Linux's rule since 2019 ({@link ReaderWakePolicy#ON_EMPTY}). */
    public static final ReaderWakePolicy DEFAULT_READER_WAKE_POLICY = ReaderWakePolicy.ON_EMPTY;
    /**
     * The default {@link Builder#poolPages}: -1, which keeps twice as many spare pages as the ring has slots
     * (see the builder method for why).
     */
    public static final int DEFAULT_POOL_PAGES = -1;
    /**
     * The default {@link Builder#poolRotation}: 512 pages (2 MiB), more than the per-core cache of the x86
     * servers this was measured on, so that a page comes back after it left the reader's cache.
     */
    public static final int DEFAULT_POOL_ROTATION = 512;
    /** The default {@link Builder#lockStrategy}. */
    public static final LockStrategy DEFAULT_LOCK_STRATEGY = LockStrategy.MUTEX;
    /**
     * The default {@link Builder#waitDiscipline}: {@link WaitDiscipline#COALESCING}, Linux's exclusive waits
     * without the repeated wake-ups a shared pipe sends while an earlier one is still in flight. On a pipe
     * shared by many readers (the lab's jobserver) those wake-ups mostly find nothing to do, and skipping them
     * is much faster than exclusive waits; where each pipe has one reader (hackbench, pipe-bench, tee) the two
     * are within the noise. The figures, with how they were taken: {@code docs/performance.md}, "The wait
     * discipline".
     */
    public static final WaitDiscipline DEFAULT_WAIT_DISCIPLINE = WaitDiscipline.COALESCING;
    /**
     * The default {@link Builder#spinBeforePark}: 20 µs, spun as {@link #DEFAULT_SPIN_POLICY} decides. Waking a
     * parked platform thread whose CPU has gone idle costs tens of microseconds on the virtual machines this
     * project is measured on (the idle exit), far more than the pipe's work; a waiter that spins while its
     * partner is running sees the condition come true within a microsecond or two. So on an idle machine the
     * spin wins most lab workloads, ping-pong most of all, and loses none; on a loaded machine its spins fail
     * and it nearly stops spinning. A fixed spin is not the default because it loses
     * where spins keep failing (a writer of small chunks spinning in vain on a full pipe) and on loaded
     * machines, where every spin takes CPU from the thread being waited for; see {@link SpinPolicy}. The
     * figures, with how they were taken: {@code docs/performance.md}, "The spin before parking".
     */
    public static final Duration DEFAULT_SPIN_BEFORE_PARK = Duration.ofNanos(20_000);
    /**
     * The default {@link Builder#spinPolicy}: {@link SpinPolicy#ADAPTIVE}, which spins only while spins work,
     * no longer than a wake-up costs (or than waits that spins narrowly missed lasted), and never on virtual
     * threads. {@code spinBeforePark(Duration.ZERO)} parks at once, as the kernel does.
     */
    public static final SpinPolicy DEFAULT_SPIN_POLICY = SpinPolicy.ADAPTIVE;
    /**
     * The default {@link Builder#pageMemory}: {@link PageMemory#HEAP}. Direct pages save the JDK's copy into its
     * temporary direct buffer when large chunks go to or from a file or a socket, but with small chunks the two
     * kinds are within the noise, and the plain write and read of a {@code byte[]} favours neither. So the
     * common path gives no reason to change the default, while direct memory has costs of its own (slower to
     * allocate, limited by {@code -XX:MaxDirectMemorySize}, freed only by the collector). A pipe that mostly
     * feeds or drains channels in large chunks should ask for {@link PageMemory#DIRECT}. The figures (JMH
     * {@code ChannelTransferBenchmark} and {@code WriteReadBenchmark}), with the command:
     * {@code docs/performance.md}, "Heap against direct pages".
     */
    public static final PageMemory DEFAULT_PAGE_MEMORY = PageMemory.HEAP;
    /** The longest {@link Builder#spinBeforePark} accepted: longer spins are a busy loop, not a pause. */
    public static final Duration MAX_SPIN_BEFORE_PARK = Duration.ofMillis(1);

    /** Made on first use, so that a bad JVM-wide default fails that use and not this class's loading. */
    private static volatile PipeOptions defaults;

    private final int capacity;
    private final int maxCapacity;
    private final boolean packetMode;
    private final boolean nonBlockingRead;
    private final boolean nonBlockingWrite;
    private final boolean timestamps;
    private final int poolPages;
    private final int poolRotation;
    private final PipeAccounting accounting;
    private final WakePolicy wakePolicy;
    private final ReaderWakePolicy readerWakePolicy;
    private final WaitDiscipline waitDiscipline;
    private final LockStrategy lockStrategy;
    private final long spinBeforeParkNanos;
    private final SpinPolicy spinPolicy;
    private final PageMemory pageMemory;

    private PipeOptions(Builder b) {
        this.maxCapacity = Checks.roundCapacity(b.maxCapacity, ABSOLUTE_MAX_CAPACITY, "maxCapacity");
        int cap = Checks.roundCapacity(b.capacity, ABSOLUTE_MAX_CAPACITY, "capacity");
        if (cap > maxCapacity) {
            throw new IllegalArgumentException("capacity " + b.capacity + " (rounded to " + cap
                    + ") exceeds maxCapacity " + maxCapacity + "; raise maxCapacity to open a bigger pipe");
        }
        this.capacity = cap;
        this.packetMode = b.packetMode;
        this.nonBlockingRead = b.nonBlockingRead;
        this.nonBlockingWrite = b.nonBlockingWrite;
        this.timestamps = b.timestamps;
        this.poolPages = b.poolPages;
        this.poolRotation = b.poolRotation;
        this.accounting = b.accounting;
        this.wakePolicy = b.wakePolicy;
        this.readerWakePolicy = b.readerWakePolicy;
        this.waitDiscipline = b.waitDiscipline;
        this.lockStrategy = b.lockStrategy;
        this.spinBeforeParkNanos = b.spinBeforeParkNanos;
        this.spinPolicy = b.spinPolicy;
        this.pageMemory = b.pageMemory;
    }

    /** {@return a 64 KiB blocking pipe without timestamps or accounting} */
    public static PipeOptions defaults() {
        PipeOptions d = defaults;
        if (d == null) {
            d = builder().build(); // two threads may both build: equal options
            defaults = d;
        }
        return d;
    }

    /**
     * A builder starting from the defaults: the built-in ones, or the JVM's {@code sluice.*} properties.
     *
     * @return a new builder
     * @throws IllegalArgumentException once per JVM, the first time, if a {@code sluice.*} property names no
     *                                  accepted value (see the class documentation)
     */
    public static Builder builder() {
        SystemDefaults.JVM.reportOnce();
        return new Builder();
    }

    /** {@return a builder starting from these options} */
    public Builder toBuilder() {
        Builder b = new Builder();
        b.capacity = capacity;
        b.maxCapacity = maxCapacity;
        b.packetMode = packetMode;
        b.nonBlockingRead = nonBlockingRead;
        b.nonBlockingWrite = nonBlockingWrite;
        b.timestamps = timestamps;
        b.poolPages = poolPages;
        b.poolRotation = poolRotation;
        b.accounting = accounting;
        b.wakePolicy = wakePolicy;
        b.readerWakePolicy = readerWakePolicy;
        b.waitDiscipline = waitDiscipline;
        b.lockStrategy = lockStrategy;
        b.spinBeforeParkNanos = spinBeforeParkNanos;
        b.spinPolicy = spinPolicy;
        b.pageMemory = pageMemory;
        return b;
    }

    /** {@return initial capacity in bytes, a power-of-two number of pages} */
    public int capacity() {
        return capacity;
    }

    /** {@return the largest capacity {@link Pipe#setCapacity} accepts, in bytes} */
    public int maxCapacity() {
        return maxCapacity;
    }

    /** {@return whether the write end starts in packet mode ({@code O_DIRECT})} */
    public boolean packetMode() {
        return packetMode;
    }

    /** {@return whether the read end starts nonblocking} */
    public boolean nonBlockingRead() {
        return nonBlockingRead;
    }

    /** {@return whether the write end starts nonblocking} */
    public boolean nonBlockingWrite() {
        return nonBlockingWrite;
    }

    /** {@return whether reads and writes record access and modification times ({@link Pipe#stat()})} */
    public boolean timestamps() {
        return timestamps;
    }

    /** {@return spare pages the pipe keeps for reuse; -1 means the default, twice as many as the ring has slots} */
    public int poolPages() {
        return poolPages;
    }

    /** {@return the most spare pages a streaming pipe grows its pool to; 0: it does not grow} */
    public int poolRotation() {
        return poolRotation;
    }

    /** {@return the shared page account, or null} */
    public PipeAccounting accounting() {
        return accounting;
    }

    /** {@return when a reader wakes a blocked writer} */
    public WakePolicy wakePolicy() {
        return wakePolicy;
    }

    /** {@return when a writer wakes a blocked reader} */
    public ReaderWakePolicy readerWakePolicy() {
        return readerWakePolicy;
    }

    /** {@return how many waiters one wake-up reaches} */
    public WaitDiscipline waitDiscipline() {
        return waitDiscipline;
    }

    /** {@return what guards the ring} */
    public LockStrategy lockStrategy() {
        return lockStrategy;
    }

    /** {@return how long a thread that must wait spins on its condition before it parks} */
    public Duration spinBeforePark() {
        return Duration.ofNanos(spinBeforeParkNanos);
    }

    /** {@return how much of {@link #spinBeforePark()} a waiting thread spins: all of it, or a learnt part} */
    public SpinPolicy spinPolicy() {
        return spinPolicy;
    }

    /** {@return where the pipe's own pages live: on the heap, or in direct memory} */
    public PageMemory pageMemory() {
        return pageMemory;
    }

    @Override
    public String toString() {
        return "PipeOptions[capacity=" + capacity + ", maxCapacity=" + maxCapacity + ", packetMode=" + packetMode
                + ", nonBlockingRead=" + nonBlockingRead + ", nonBlockingWrite=" + nonBlockingWrite
                + ", timestamps=" + timestamps + ", poolPages=" + (poolPages < 0 ? "ring" : poolPages)
                + ", poolRotation=" + poolRotation
                + ", accounting=" + accounting + ", wakePolicy=" + wakePolicy + ", readerWakePolicy="
                + readerWakePolicy + ", waitDiscipline=" + waitDiscipline + ", lockStrategy=" + lockStrategy
                + ", spinBeforePark=" + spinBeforeParkNanos + "ns, spinPolicy=" + spinPolicy + ", pageMemory="
                + pageMemory + "]";
    }

    /** Builds {@link PipeOptions}; every setter validates its argument at once. */
    public static final class Builder {
        private int capacity = DEFAULT_CAPACITY;
        private int maxCapacity = DEFAULT_MAX_CAPACITY;
        private boolean packetMode;
        private boolean nonBlockingRead;
        private boolean nonBlockingWrite;
        private boolean timestamps;
        private int poolPages = DEFAULT_POOL_PAGES;
        private int poolRotation = DEFAULT_POOL_ROTATION;
        private PipeAccounting accounting;
        private WakePolicy wakePolicy = SystemDefaults.JVM.wakePolicy;
        private ReaderWakePolicy readerWakePolicy = SystemDefaults.JVM.readerWakePolicy;
        private WaitDiscipline waitDiscipline = SystemDefaults.JVM.waitDiscipline;
        private LockStrategy lockStrategy = SystemDefaults.JVM.lockStrategy;
        private long spinBeforeParkNanos = SystemDefaults.JVM.spinBeforeParkNanos;
        private SpinPolicy spinPolicy = SystemDefaults.JVM.spinPolicy;
        private PageMemory pageMemory = SystemDefaults.JVM.pageMemory;

        private Builder() {
        }

        /**
         * Initial capacity in bytes, rounded up like {@code F_SETPIPE_SZ}: below one page to one page, else
         * to a power-of-two number of pages (100000 becomes 131072). Must not exceed {@link #maxCapacity}.
         *
         * @param bytes wanted capacity, at least 0
         * @return this builder
         */
        public Builder capacity(int bytes) {
            Checks.roundCapacity(bytes, ABSOLUTE_MAX_CAPACITY, "capacity");
            this.capacity = bytes;
            return this;
        }

        /**
         * The most {@link Pipe#setCapacity} may grow this pipe to (Linux {@code pipe-max-size},
         * default 1 MiB), rounded the same way; at most {@link #ABSOLUTE_MAX_CAPACITY}.
         *
         * @param bytes largest capacity
         * @return this builder
         */
        public Builder maxCapacity(int bytes) {
            Checks.roundCapacity(bytes, ABSOLUTE_MAX_CAPACITY, "maxCapacity");
            this.maxCapacity = bytes;
            return this;
        }

        /**
         * Packet mode ({@code pipe2(O_DIRECT)}): each write of up to {@link Pipe#PIPE_BUF} bytes is one
         * packet, larger writes are cut into 4096-byte packets, and a read returns at most one packet,
         * discarding whatever of it does not fit the caller's buffer.
         *
         * @param on whether the write end starts in packet mode
         * @return this builder
         */
        public Builder packetMode(boolean on) {
            this.packetMode = on;
            return this;
        }

        /**
         * {@code O_NONBLOCK} on both ends.
         *
         * @param on whether both ends start nonblocking
         * @return this builder
         */
        public Builder nonBlocking(boolean on) {
            this.nonBlockingRead = on;
            this.nonBlockingWrite = on;
            return this;
        }

        /**
         * {@code O_NONBLOCK} on the read end only.
         *
         * @param on whether the read end starts nonblocking
         * @return this builder
         */
        public Builder nonBlockingRead(boolean on) {
            this.nonBlockingRead = on;
            return this;
        }

        /**
         * {@code O_NONBLOCK} on the write end only.
         *
         * @param on whether the write end starts nonblocking
         * @return this builder
         */
        public Builder nonBlockingWrite(boolean on) {
            this.nonBlockingWrite = on;
            return this;
        }

        /**
         * Keep last-read and last-write times, as FIFOs and anonymous pipes before Linux 6.15 do. Off by
         * default, like anonymous pipes since 6.15: reading the clock on every call cost Linux about a
         * third of its nonblocking small-write loop (13.9 s to 9.4 s in Oleg Nesterov's test).
         *
         * @param on whether to record times
         * @return this builder
         */
        public Builder timestamps(boolean on) {
            this.timestamps = on;
            return this;
        }

        /**
         * Spare pages the pipe keeps for reuse after they are read. The default (-1) keeps twice as many as
         * the ring has slots: a bulk read copies its pages out after letting go of the lock while the writer
         * already refills their slots with others, so a busy pipe cycles through up to twice its ring, and
         * with this pool it allocates nothing. A small number (the kernel keeps 2) saves memory on idle
         * pipes at the price of allocating on bursts.
         *
         * @param pages spare pages, or -1 for the default (twice the ring's slots)
         * @return this builder
         */
        public Builder poolPages(int pages) {
            if (pages < -1) {
                throw new IllegalArgumentException("poolPages must be >= 0, or -1 for the default, was " + pages);
            }
            this.poolPages = pages;
            return this;
        }

        /**
         * Spare pages a pipe that streams may grow its pool to, beyond {@link #poolPages}, so that a writer
         * fills a page long after the reader last read it: a page just read is still in the reader's core's
         * cache, and a writer on another core must take every line of it from there before it can store,
         * where a page that has rotated through more than that cache streams in. The pool grows only while
         * its pages come back at least half full, freed by another thread than the one taking the next, and
         * are taken at most 100 µs apart (a stream between two threads, not a thread that writes and reads its
         * own pipe, nor a ping-pong of small messages), and every pool of the JVM draws on one budget of 32 MiB,
         * given back when a pipe is closed or collected. A pool that has grown hands out its oldest spare
         * first; otherwise its newest, the likeliest to be cached. 0 keeps the pool at
         * {@link #poolPages} (say so for many long-lived pipes that each carry megabytes and
         * where memory counts more than throughput); a {@code poolPages} of 0 turns this off too.
         *
         * @param pages spare pages to grow to, at least 0; the default is {@link #DEFAULT_POOL_ROTATION}
         * @return this builder
         * @throws IllegalArgumentException if {@code pages} is negative
         */
        public Builder poolRotation(int pages) {
            if (pages < 0) {
                throw new IllegalArgumentException("poolRotation must be >= 0, was " + pages);
            }
            this.poolRotation = pages;
            return this;
        }

        /**
         * Charge this pipe's pages to a shared account with soft and hard limits.
         *
         * @param account the account, or null for none
         * @return this builder
         */
        public Builder accounting(PipeAccounting account) {
            this.accounting = account;
            return this;
        }

        /**
         * When a reader wakes a writer blocked on a full pipe; see {@link WakePolicy} for each rule's origin
         * and trade-off. Default {@link WakePolicy#FULL_AND_FREED}, Linux's rule since 6.14.
         *
         * @param policy the rule
         * @return this builder
         */
        public Builder wakePolicy(WakePolicy policy) {
            this.wakePolicy = Objects.requireNonNull(policy, "wake policy is null");
            return this;
        }

        /**
         * When a writer wakes a reader blocked on an empty pipe. Default {@link #DEFAULT_READER_WAKE_POLICY}.
         *
         * @param policy the rule
         * @return this builder
         */
        public Builder readerWakePolicy(ReaderWakePolicy policy) {
            this.readerWakePolicy = Objects.requireNonNull(policy, "reader wake policy is null");
            return this;
        }

        /**
         * Whether a wake-up reaches one waiter or all, and whether one is sent while another is in flight.
         * Default {@link #DEFAULT_WAIT_DISCIPLINE}.
         *
         * @param discipline the discipline
         * @return this builder
         */
        public Builder waitDiscipline(WaitDiscipline discipline) {
            this.waitDiscipline = Objects.requireNonNull(discipline, "wait discipline is null");
            return this;
        }

        /**
         * What guards the ring while bytes are copied. Default {@link LockStrategy#MUTEX}.
         *
         * @param strategy the lock
         * @return this builder
         */
        public Builder lockStrategy(LockStrategy strategy) {
            this.lockStrategy = Objects.requireNonNull(strategy, "lock strategy is null");
            return this;
        }

        /**
         * How long a reader or writer that has to wait first spins, re-testing its condition, before it
         * parks. Waking a parked thread on another CPU costs tens of microseconds on each side; when the other
         * side is running and about to make room or data, a short spin avoids both. The spin is bounded, so
         * a thread never burns a core while the other side is idle for long. {@link Duration#ZERO} parks at
         * once. See {@link #DEFAULT_SPIN_BEFORE_PARK} for the default and why.
         *
         * @param spin the longest spin, at most {@link #MAX_SPIN_BEFORE_PARK}
         * @return this builder
         * @throws IllegalArgumentException if {@code spin} is negative or too long
         */
        public Builder spinBeforePark(Duration spin) {
            Objects.requireNonNull(spin, "spin is null (use Duration.ZERO to park at once)");
            if (spin.isNegative() || spin.compareTo(MAX_SPIN_BEFORE_PARK) > 0) {
                throw new IllegalArgumentException("spinBeforePark must be between 0 and " + MAX_SPIN_BEFORE_PARK
                        + ", was " + spin);
            }
            this.spinBeforeParkNanos = spin.toNanos();
            return this;
        }

        /**
         * How much of {@link #spinBeforePark} a waiting thread spins: all of it every time
         * ({@link SpinPolicy#FIXED}), or a spin each side of the pipe learns from its own waits
         * ({@link SpinPolicy#ADAPTIVE}). See {@link #DEFAULT_SPIN_POLICY}.
         *
         * @param policy the rule
         * @return this builder
         */
        public Builder spinPolicy(SpinPolicy policy) {
            this.spinPolicy = Objects.requireNonNull(policy, "spin policy is null");
            return this;
        }

        /**
         * Where the pipe allocates its pages: {@link PageMemory#HEAP} arrays (the default,
         * {@link #DEFAULT_PAGE_MEMORY}) or {@link PageMemory#DIRECT} buffers, which {@link Splice#transferTo}
         * and {@link Splice#transferFrom} hand to a file or socket channel without the JDK's copy into a
         * temporary direct buffer. Reads and writes work the same with both, and splice and tee move pages
         * between pipes of either kind (a page keeps the memory it was born in). A closed pipe's direct pages
         * are freed by the garbage collector, as all direct buffers are.
         *
         * @param memory heap or direct
         * @return this builder
         */
        public Builder pageMemory(PageMemory memory) {
            this.pageMemory = Objects.requireNonNull(memory, "page memory is null");
            return this;
        }

        /**
         * {@return the options}
         *
         * @throws IllegalArgumentException if the capacity exceeds the maximum capacity
         */
        public PipeOptions build() {
            return new PipeOptions(this);
        }

        @Override
        public String toString() {
            return "PipeOptions.Builder[capacity=" + capacity + ", maxCapacity=" + maxCapacity + "]";
        }
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof PipeOptions p && capacity == p.capacity && maxCapacity == p.maxCapacity
                && packetMode == p.packetMode && nonBlockingRead == p.nonBlockingRead
                && nonBlockingWrite == p.nonBlockingWrite && timestamps == p.timestamps
                && poolPages == p.poolPages && poolRotation == p.poolRotation
                && Objects.equals(accounting, p.accounting)
                && wakePolicy == p.wakePolicy && readerWakePolicy == p.readerWakePolicy
                && waitDiscipline == p.waitDiscipline && lockStrategy == p.lockStrategy
                && spinBeforeParkNanos == p.spinBeforeParkNanos && spinPolicy == p.spinPolicy
                && pageMemory == p.pageMemory;
    }

    @Override
    public int hashCode() {
        return Objects.hash(capacity, maxCapacity, packetMode, nonBlockingRead, nonBlockingWrite, timestamps,
                poolPages, poolRotation, accounting, wakePolicy, readerWakePolicy, waitDiscipline,
                lockStrategy, spinBeforeParkNanos, spinPolicy, pageMemory);
    }

    /**
     * The policy defaults, from {@code sluice.*} properties where set (see the class documentation). Each
     * property is read on its own: one that names no accepted value falls back to the built-in default and is
     * reported once, by {@link #reportOnce()}, so that a mistyped property is seen, clearly, without making
     * every later {@code Pipe.open} of the JVM fail.
     */
    static final class SystemDefaults {
        /** The JVM's, from {@link System#getProperties()} when this class is first used. */
        static final SystemDefaults JVM = new SystemDefaults(System.getProperties());

        final WakePolicy wakePolicy;
        final ReaderWakePolicy readerWakePolicy;
        final WaitDiscipline waitDiscipline;
        final LockStrategy lockStrategy;
        final long spinBeforeParkNanos;
        final SpinPolicy spinPolicy;
        final PageMemory pageMemory;
        private final List<String> problems = new ArrayList<>();
        private final AtomicBoolean reported = new AtomicBoolean();

        SystemDefaults(Properties p) {
            wakePolicy = parse(p, "sluice.wakePolicy", WakePolicy.class, DEFAULT_WAKE_POLICY);
            readerWakePolicy = parse(p, "sluice.readerWakePolicy", ReaderWakePolicy.class,
                    DEFAULT_READER_WAKE_POLICY);
            waitDiscipline = parse(p, "sluice.waitDiscipline", WaitDiscipline.class, DEFAULT_WAIT_DISCIPLINE);
            lockStrategy = parse(p, "sluice.lockStrategy", LockStrategy.class, DEFAULT_LOCK_STRATEGY);
            spinPolicy = parse(p, "sluice.spinPolicy", SpinPolicy.class, DEFAULT_SPIN_POLICY);
            pageMemory = parse(p, "sluice.pageMemory", PageMemory.class, DEFAULT_PAGE_MEMORY);
            long spin = DEFAULT_SPIN_BEFORE_PARK.toNanos();
            try {
                spin = parseSpin(p.getProperty("sluice.spinBeforePark"));
            } catch (IllegalArgumentException e) {
                problems.add(e.getMessage());
            }
            spinBeforeParkNanos = spin;
        }

        /** Throws, the first time only, what was wrong with the properties; then stays quiet. */
        void reportOnce() {
            if (!problems.isEmpty() && reported.compareAndSet(false, true)) {
                throw new IllegalArgumentException(String.join("; ", problems)
                        + " (the built-in default is used instead from now on)");
            }
        }

        private <E extends Enum<E> & Aliased> E parse(Properties p, String property, Class<E> type, E fallback) {
            String v = p.getProperty(property);
            if (v == null || v.isBlank()) {
                return fallback;
            }
            try {
                return Aliased.parse(type, v, property);
            } catch (IllegalArgumentException e) {
                problems.add(e.getMessage());
                return fallback;
            }
        }

        /**
         * @param v a duration such as {@code 0}, {@code 500ns}, {@code 20us} or {@code 1ms}, or null for the default
         * @return it in nanoseconds
         * @throws IllegalArgumentException naming the property if it is no such duration or out of range
         */
        static long parseSpin(String v) {
            if (v == null || v.isBlank()) {
                return DEFAULT_SPIN_BEFORE_PARK.toNanos();
            }
            String t = v.trim().toLowerCase(Locale.ROOT);
            long unit = 1;
            if (t.endsWith("ns")) {
                t = t.substring(0, t.length() - 2);
            } else if (t.endsWith("us")) {
                unit = 1_000;
                t = t.substring(0, t.length() - 2);
            } else if (t.endsWith("ms")) {
                unit = 1_000_000;
                t = t.substring(0, t.length() - 2);
            }
            long n;
            try {
                n = Math.multiplyExact(Long.parseLong(t.trim()), unit);
            } catch (NumberFormatException | ArithmeticException e) {
                throw new IllegalArgumentException("sluice.spinBeforePark=" + v
                        + " is not a duration between 0 and 1ms such as 0, 500ns, 20us or 1ms", e);
            }
            if (n < 0 || n > MAX_SPIN_BEFORE_PARK.toNanos()) {
                throw new IllegalArgumentException("sluice.spinBeforePark=" + v + " must be between 0 and "
                        + MAX_SPIN_BEFORE_PARK);
            }
            return n;
        }
    }
}
