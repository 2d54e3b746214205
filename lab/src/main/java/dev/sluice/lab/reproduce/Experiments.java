package dev.sluice.lab.reproduce;

import dev.sluice.lab.targets.SluiceVariant;
import dev.sluice.lab.targets.Spin;
import dev.sluice.lab.targets.Targets;
import dev.sluice.policy.LockStrategy;
import dev.sluice.policy.WaitDiscipline;
import dev.sluice.policy.WakePolicy;

import java.util.List;
import java.util.Map;

/**
 * The seven findings of the seed threads (shared/seeds, issue 16) as experiments. Where a finding is about
 * when a sleeper is woken (1 to 4), Sluice runs with {@code --spin 0}, as the kernel parks at once: with
 * Sluice's default spin most waits end before anybody has to be woken, and the rule under test would hardly
 * be exercised. Figures quoted from the threads are as the threads gave them.
 */
public final class Experiments {
    private Experiments() {
    }

    /** What the kernel target cannot toggle, and why. */
    static final String KERNEL_WAKE = "no knob: the kernel's wake-up rules are compiled in (since 6.14 it wakes a "
            + "writer only when a read frees a slot of a full pipe, with exclusive waits); the lab's kernel target "
            + "also parks blocked calls in Java, not in the kernel's wait queue";

    private static SluiceVariant parked() {
        return SluiceVariant.defaults().withSpin(Spin.NONE);
    }

    /** {@return the seven experiments, in the order} */
    public static List<Experiment> all() {
        return List.of(halfEmpty(), teeStillFull(), hackbenchStillFull(), exclusiveWaits(), noTimestamps(),
                mutexLock(), pagePool());
    }

    private static Experiment halfEmpty() {
        return new Experiment(1, "half-empty writer wake-ups",
                "Waking the writer only once a read leaves the pipe half empty cuts context switches by about 20 % "
                        + "at the same throughput",
                "David Howells / Konstantin Khlebnikov, \"pipe: Notification queue preparation [ver #2]\", Oct 2019 "
                        + "(157186189069.3995.10292601951655075484.stgit@warthog.procyon.org.uk), pipe-bench",
                "22,187 → 17,728 context switches (−20 %), 239.9 s task-clock either way",
                "--policy full-and-freed → half-empty (--spin 0)",
                parked().withWake(WakePolicy.FULL_AND_FREED), parked().withWake(WakePolicy.HALF_EMPTY), "pipebench",
                Map.of("write-size", List.of(4096L), "pipe-size", List.of(65536L), "bytes", List.of(1L << 30)),
                Map.of("write-size", List.of(4096L), "pipe-size", List.of(65536L), "bytes", List.of(8L << 30)),
                Experiment.CONTEXT_SWITCHES, "/run", true, 22_187.0 / 17_728,
                List.of("MB/s", "counter.writerWakeups"), () -> KERNEL_WAKE,
                "pipe-bench's reads and writes sizes are not in the thread (here: 4 KiB into a 64 KiB pipe); its "
                        + "two processes ran for 240 s, here two threads move a fixed amount, and the count is the "
                        + "whole JVM's, JIT and GC included");
    }

    private static Experiment teeStillFull() {
        return new Experiment(2, "don't wake the writer while the pipe is still full (tee)",
                "Not waking the writer when a read leaves the pipe as full as it was speeds stress-ng's tee "
                        + "stressor up by 500 %",
                "Oleg Nesterov, \"pipe_read: don't wake up the writer if the pipe is still full\", aaec5a95d596 "
                        + "(Linux 6.14); measured by Mateusz Guzik on 24 cores, Jan 2025",
                "stress-ng tee: +500 % (×6)",
                "--policy full-at-start → full-and-freed (--spin 0)",
                parked().withWake(WakePolicy.FULL_AT_START), parked().withWake(WakePolicy.FULL_AND_FREED), "tee",
                Map.of("records", List.of(8L << 20)), Map.of("records", List.of(32L << 20)),
                "MB/s", "MB/s", false, 6.0, List.of(Experiment.CONTEXT_SWITCHES, "counter.writerWakeups"),
                () -> KERNEL_WAKE,
                "stress-ng's win came from lock contention among processes on 24 cores, a writer woken for every "
                        + "16-byte read; two threads on two cores contend far less, and Sluice's Splice.tee is a "
                        + "library call, not a system call");
    }

    private static Experiment hackbenchStillFull() {
        return new Experiment(3, "the same change on hackbench",
                "The same change costs hackbench 7.5 % of its throughput (the extra wake-ups had helped it)",
                "kernel test robot on aaec5a95d5 (brauner vfs-6.14.misc), Jan 2025, discussed by Mateusz Guzik and "
                        + "Oleg Nesterov",
                "hackbench.throughput −7.5 % (128 CPUs, -g 64 -f 20 --process --pipe -l 60000 -s 100); Guzik, "
                        + "24 cores: 12.71 → 19.07 s",
                "--policy full-at-start → full-and-freed (--spin 0)",
                parked().withWake(WakePolicy.FULL_AT_START), parked().withWake(WakePolicy.FULL_AND_FREED),
                "hackbench",
                Map.of("groups", List.of(4L), "fds", List.of(20L), "loops", List.of(500L), "datasize", List.of(100L)),
                Map.of("groups", List.of(10L), "fds", List.of(20L), "loops", List.of(1000L), "datasize", List.of(100L)),
                "seconds", "s", true, 0.925, List.of(Experiment.CONTEXT_SWITCHES, "counter.writerWakeups"),
                () -> KERNEL_WAKE,
                "the loss came from 1,280-2,560 processes contending on 24-128 cores, where wake-ups changed which "
                        + "locks were contended; here a few groups of threads share two cores, and a 100-byte "
                        + "hackbench pipe is rarely full");
    }

    private static Experiment exclusiveWaits() {
        return new Experiment(4, "exclusive waits for the make-jobserver token pipe",
                "Waking one waiting reader instead of all of them (exclusive waits) cuts the token test's context "
                        + "switches about 9x and its time about 8.6x",
                "Linus Torvalds, \"pipe: use exclusive waits when reading or writing\", 0ddad21d3e99 (Linux 5.5, "
                        + "Dec 2019), his 64-process token test",
                "11.25 M → 1.21 M context switches, 14.6 → 1.7 s",
                "--wait broadcast → exclusive (--spin 0)",
                parked().withWaits(WaitDiscipline.BROADCAST), parked().withWaits(WaitDiscipline.EXCLUSIVE),
                "jobserver", Map.of("workers", List.of(64L), "tokens", List.of(1_000_000L)),
                Map.of("workers", List.of(64L), "tokens", List.of(2_000_000L)),
                "seconds", "s", true, 14.6 / 1.7, List.of(Experiment.CONTEXT_SWITCHES, "counter.emptyWakeups"),
                () -> KERNEL_WAKE,
                "64 threads share two cores instead of 64 processes on a bigger machine, so a broadcast wakes "
                        + "threads that mostly wait for a CPU rather than run");
    }

    private static Experiment noTimestamps() {
        return new Experiment(5, "no timestamps on anonymous pipes",
                "Not updating the access and modification times on every call makes nonblocking writes about 16 % "
                        + "and reads about 20 % cheaper",
                "Oleg Nesterov, the O_NOATIME patch in \"Re: [PATCH] pipe_read: don't wake up the writer if the pipe "
                        + "is still full\", Feb 2025 (quoted by K Prateek Nayak)",
                "write 7.69 → 6.43 s, read 5.70 → 4.53 s (10,000 fill/drain loops of 100-byte calls; ×1.22 "
                        + "together)",
                "--timestamps on → off",
                SluiceVariant.defaults().withTimestamps(true), SluiceVariant.defaults(), "nonblock",
                Map.of("loops", List.of(5_000L), "size", List.of(100L)),
                Map.of("loops", List.of(10_000L), "size", List.of(100L)),
                "seconds", "s", true, (7.692 + 5.704) / (6.432 + 4.533), List.of("write s", "read s"),
                () -> Targets.kernelNoAtime().map(w -> "no knob: " + w)
                        .orElse("pipe2(O_NOATIME) accepted here, but the kernel target does not vary it"),
                "the kernel updates inode times under its own locks with a clock read per call; Sluice reads "
                        + "Java's clock, much cheaper than the kernel's inode update, so a smaller share of a call");
    }

    private static Experiment mutexLock() {
        return new Experiment(6, "the pipe lock as a mutex instead of a spinlock",
                "Guarding the pipe with its mutex instead of a spinlock speeds the 0ddad21d3e99 token test by "
                        + "2.67 %",
                "Hongchen Zhang, \"[PATCH v3] pipe: use __pipe_{lock,unlock} instead of spinlock\", Jan 2023; "
                        + "measured by Sedat Dilek (perf stat --repeat=10)",
                "7.389 → 7.192 s elapsed (−2.67 %), 1.11 M → 1.14 M context switches",
                "--lock spin → mutex",
                SluiceVariant.defaults().withLock(LockStrategy.SPIN), SluiceVariant.defaults(), "jobserver",
                Map.of("workers", List.of(64L), "tokens", List.of(1_000_000L)),
                Map.of("workers", List.of(64L), "tokens", List.of(2_000_000L)),
                "seconds", "s", true, 7.3892 / 7.19157, List.of(Experiment.CONTEXT_SWITCHES, "counter.lockContended"),
                () -> "no knob: the kernel's pipe locking is compiled in",
                "a 2.67 % effect is below what a shared two-core VM resolves with a few repetitions; Sluice's "
                        + "spin lock yields and naps where the kernel's spins with interrupts off");
    }

    private static Experiment pagePool() {
        return new Experiment(7, "the per-pipe page pool",
                "Keeping freed pages in a per-pipe pool speeds pipen by 9-12 % at writes of 2 to 8 pages",
                "Breno Leitao, \"[PATCH v2 0/4] fs/pipe: unify the page pools into a single per-pipe pool\", Jul 2026 "
                        + "(NVIDIA Grace, 64 KiB pages)",
                "2 pages +12.2 %, 4 pages +11.9 %, 8 pages +9.6 % MB/s (x86 Cooper Lake at 8 pages: +0.3 %)",
                "--pool-pages 0 → -1 (the default pool: twice the ring); pipen at 8, 16, 32 KiB writes",
                SluiceVariant.defaults().withPoolPages(0), SluiceVariant.defaults(), "pipen",
                Map.of("size", List.of(8192L, 16384L, 32768L), "bytes", List.of(1L << 30)),
                Map.of("size", List.of(8192L, 16384L, 32768L), "bytes", List.of(4L << 30)),
                "MB/s", "MB/s", false, Math.cbrt(1.122 * 1.119 * 1.096), List.of("counter.pagesAllocated"),
                () -> "no knob: the kernel keeps its pages per pipe itself (the kernel target refuses poolPages)",
                "the kernel's saving is a page allocation under the pipe's mutex; without a pool Sluice allocates "
                        + "a 4 KiB array, which a JVM's thread-local allocation makes cheap (the garbage collector "
                        + "pays later), and 4 KiB pages here against Grace's 64 KiB");
    }
}
