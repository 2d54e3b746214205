package dev.sluice;

import dev.sluice.testing.Capability;
import dev.sluice.testing.Requires;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.lang.management.ManagementFactory;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Rule 9, the per-pipe page pool: once a pipe has cycled its pages, steady-state reads and writes
 * allocate nothing.
 *
 * <p>Linux keeps freed pipe pages for the next write ({@code tmp_page}, from 6.15 {@code tmp_page[2]},
 * from 7.3 a per-pipe pool; see linux-pipe.md §1.7), so a pipe in a steady write/read loop does not go to
 * the page allocator. Sluice keeps up to two rings' worth of pages by default, so the same loop must not
 * allocate a byte on the Java heap, whatever shape the caller's memory has: {@code byte[]}, heap or
 * direct {@link ByteBuffer}, gathering and scattering {@code ByteBuffer[]}, or the stream adapters.
 *
 * <p>Allocation is measured on the current (platform) thread with HotSpot's
 * {@link com.sun.management.ThreadMXBean#getCurrentThreadAllocatedBytes()} after a warm-up long enough for
 * the JIT to compile the paths. A control test with {@code poolPages(0)} shows that the probe does see a
 * page allocated per write when the pool is off.
 */
@Timeout(60)
@Requires(Capability.PAGE_POOL) // the page pool, its counters and allocation-free paths are the in-process pipe's
class Rule09PagePoolTest extends ConformanceTest {
    private static final com.sun.management.ThreadMXBean THREADS =
            (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
    /** Allowance for the measurement itself (the probe calls, a deoptimisation); far below one byte per op. */
    private static final long SLACK_BYTES = 4096;
    private static final int SLOTS = PipeOptions.DEFAULT_CAPACITY / Pipe.PAGE_SIZE;

    @BeforeAll
    static void enableAllocationCounting() {
        assumeTrue(THREADS.isThreadAllocatedMemorySupported(), "this VM cannot count allocated bytes per thread");
        THREADS.setThreadAllocatedMemoryEnabled(true);
        long a = THREADS.getCurrentThreadAllocatedBytes();
        long b = THREADS.getCurrentThreadAllocatedBytes();
        assumeTrue(a >= 0 && b >= a, "the allocation probe does not work on this thread");
    }

    /** One write followed by one read of the same bytes; throws if the pipe moved the wrong count. */
    @FunctionalInterface
    interface Op {
        void run() throws IOException;
    }

    /** The shapes of caller memory a steady loop can use. */
    enum Path {
        BYTE_ARRAY, HEAP_BUFFER, DIRECT_BUFFER, GATHER_SCATTER_HEAP, GATHER_SCATTER_DIRECT, STREAM_BULK,
        STREAM_SINGLE_BYTE, BYTE_ARRAY_WITH_TIMESTAMPS;

        /**
         * Builds the write+read pair for {@code size} bytes on {@code p}; {@code check} is called once after
         * the loop and verifies that the last pair moved the right bytes.
         */
        Op op(Pipe p, int size, byte[] data, List<Runnable> check) {
            WriteEnd w = p.writer();
            ReadEnd r = p.reader();
            switch (this) {
                case BYTE_ARRAY, BYTE_ARRAY_WITH_TIMESTAMPS -> {
                    byte[] dst = new byte[size];
                    check.add(() -> assertThat(dst).isEqualTo(data));
                    return () -> {
                        w.write(data, 0, size);
                        int n = r.read(dst, 0, size);
                        if (n != size) {
                            throw new AssertionError("read " + n + " of " + size);
                        }
                    };
                }
                case HEAP_BUFFER, DIRECT_BUFFER -> {
                    boolean direct = this == DIRECT_BUFFER;
                    ByteBuffer src = direct ? ByteBuffer.allocateDirect(size) : ByteBuffer.allocate(size);
                    src.put(data).flip();
                    ByteBuffer dst = direct ? ByteBuffer.allocateDirect(size) : ByteBuffer.allocate(size);
                    check.add(() -> assertThat(dst.flip()).isEqualTo(ByteBuffer.wrap(data)));
                    return () -> {
                        src.clear();
                        dst.clear();
                        w.write(src);
                        int n = r.read(dst);
                        if (n != size || src.hasRemaining() || dst.hasRemaining()) {
                            throw new AssertionError("read " + n + " of " + size);
                        }
                    };
                }
                case GATHER_SCATTER_HEAP, GATHER_SCATTER_DIRECT -> {
                    boolean direct = this == GATHER_SCATTER_DIRECT;
                    int[] parts = {size / 3, size / 3, size - 2 * (size / 3)};
                    ByteBuffer[] srcs = new ByteBuffer[3];
                    ByteBuffer[] dsts = new ByteBuffer[3];
                    int off = 0;
                    for (int i = 0; i < 3; i++) {
                        srcs[i] = direct ? ByteBuffer.allocateDirect(parts[i]) : ByteBuffer.allocate(parts[i]);
                        srcs[i].put(data, off, parts[i]).flip();
                        dsts[i] = direct ? ByteBuffer.allocateDirect(parts[i]) : ByteBuffer.allocate(parts[i]);
                        off += parts[i];
                    }
                    check.add(() -> {
                        ByteBuffer all = ByteBuffer.allocate(size);
                        for (ByteBuffer d : dsts) {
                            all.put(d.flip());
                        }
                        assertThat(all.array()).isEqualTo(data);
                    });
                    return () -> {
                        for (int i = 0; i < 3; i++) {
                            srcs[i].clear();
                            dsts[i].clear();
                        }
                        long wn = w.write(srcs);
                        long n = r.read(dsts);
                        if (n != size || wn != size) {
                            throw new AssertionError("wrote " + wn + ", read " + n + " of " + size);
                        }
                    };
                }
                case STREAM_BULK -> {
                    OutputStream out = w.asOutputStream();
                    InputStream in = r.asInputStream();
                    byte[] dst = new byte[size];
                    check.add(() -> assertThat(dst).isEqualTo(data));
                    return () -> {
                        out.write(data, 0, size);
                        int n = in.read(dst, 0, size);
                        if (n != size) {
                            throw new AssertionError("read " + n + " of " + size);
                        }
                    };
                }
                case STREAM_SINGLE_BYTE -> {
                    OutputStream out = w.asOutputStream();
                    InputStream in = r.asInputStream();
                    int[] last = new int[1];
                    check.add(() -> assertThat(last[0]).isEqualTo(data[0] & 0xFF));
                    return () -> {
                        out.write(data[0]);
                        int b = in.read();
                        if (b != (data[0] & 0xFF)) {
                            throw new AssertionError("read " + b);
                        }
                        last[0] = b;
                    };
                }
                default -> throw new AssertionError(this);
            }
        }
    }

    /** Every path and size, with heap pages and with direct pages: both must copy exactly and allocate nothing. */
    static Stream<Arguments> paths() {
        List<Arguments> all = new ArrayList<>();
        for (PageMemory memory : PageMemory.values()) {
            for (Path path : Path.values()) {
                if (path == Path.STREAM_SINGLE_BYTE) {
                    all.add(Arguments.of(path, 1, memory));
                } else if (path == Path.BYTE_ARRAY_WITH_TIMESTAMPS) {
                    all.add(Arguments.of(path, 100, memory));
                } else {
                    for (int size : new int[] {100, 4096, 65536}) {
                        all.add(Arguments.of(path, size, memory));
                    }
                }
            }
        }
        return all.stream();
    }

    private static long allocatedBy(Op op, int iterations) throws IOException {
        long before = THREADS.getCurrentThreadAllocatedBytes();
        for (int i = 0; i < iterations; i++) {
            op.run();
        }
        return THREADS.getCurrentThreadAllocatedBytes() - before;
    }

    @ParameterizedTest(name = "{0}, {1} bytes, {2} pages")
    @MethodSource("paths")
    void steadyWriteReadPairsAllocateNothing(Path path, int size, PageMemory memory) throws IOException {
        Pipe p = open(options().timestamps(path == Path.BYTE_ARRAY_WITH_TIMESTAMPS)
                .pageMemory(memory).build());
        byte[] data = FeatureSupport.randomBytes(size, size * 31L + path.ordinal());
        List<Runnable> checks = new ArrayList<>();
        Op op = path.op(p, size, data, checks);
        int warmup = size <= Pipe.PAGE_SIZE ? 20_000 : 5_000;
        int measured = size <= Pipe.PAGE_SIZE ? 100_000 : 10_000;

        allocatedBy(op, warmup);
        PipeCounters beforeMeasure = p.counters();
        long bytes = allocatedBy(op, measured);
        PipeCounters after = p.counters();

        System.out.printf("Rule09 %-26s %6d B, %-6s pages: %d bytes allocated in %,d write+read pairs = %.4f B/op%n",
                path, size, memory, bytes, measured, (double) bytes / measured);
        checks.forEach(Runnable::run);
        assertThat(bytes)
                .as("bytes allocated by %,d steady %s write+read pairs of %d bytes (%.3f per op)",
                        measured, path, size, (double) bytes / measured)
                .isLessThan(SLACK_BYTES);
        int pagesPerWrite = Math.max(1, (size + Pipe.PAGE_SIZE - 1) / Pipe.PAGE_SIZE);
        assertThat(after.pagesAllocated()).as("pages ever allocated").isLessThanOrEqualTo(SLOTS)
                .isEqualTo(beforeMeasure.pagesAllocated());
        assertThat(after.pagesFromPool() - beforeMeasure.pagesFromPool()).as("pages reused from the pool")
                .isEqualTo((long) measured * pagesPerWrite);
        assertThat(p.stat().bytesQueued()).isZero();
    }

    @Test
    void withoutAPoolEveryWriteAllocatesAPageAndTheProbeSeesIt() throws IOException {
        // Heap pages: a direct page's memory is not on the heap, so the probe would see only its small header.
        Pipe p = open(options().poolPages(0).pageMemory(PageMemory.HEAP).build());
        byte[] data = FeatureSupport.randomBytes(100, 9);
        Op op = Path.BYTE_ARRAY.op(p, 100, data, new ArrayList<>());
        allocatedBy(op, 20_000);
        long pagesBefore = p.counters().pagesAllocated();
        int measured = 10_000;
        long bytes = allocatedBy(op, measured);

        assertThat(p.counters().pagesAllocated() - pagesBefore).isEqualTo(measured);
        assertThat(p.counters().pagesFromPool()).isZero();
        assertThat(bytes / measured).as("bytes allocated per op without a pool")
                .isGreaterThanOrEqualTo(Pipe.PAGE_SIZE);
    }

    @Test
    void aTwoPagePoolLikeTheKernelsReusesTwoPagesPerBurstAndAllocatesTheRest() throws IOException {
        Pipe p = open(options().poolPages(2).build());
        byte[] data = FeatureSupport.randomBytes(PipeOptions.DEFAULT_CAPACITY, 3);
        byte[] dst = new byte[data.length];
        int cycles = 10;
        for (int i = 0; i < cycles; i++) {
            assertThat(p.writer().write(data)).isEqualTo(data.length);
            assertThat(p.reader().read(dst)).isEqualTo(data.length);
        }
        assertThat(dst).isEqualTo(data);
        PipeCounters c = p.counters();
        // First burst: 16 new pages. Every later burst: 2 from the pool, 14 new.
        assertThat(c.pagesFromPool()).isEqualTo(2L * (cycles - 1));
        assertThat(c.pagesAllocated()).isEqualTo(SLOTS + (SLOTS - 2L) * (cycles - 1));
    }

    @Test
    void thePoolFollowsTheRingWhenTheCapacityGrows() throws IOException {
        Pipe p = open();
        assertThat(p.setCapacity(256 * 1024)).isEqualTo(256 * 1024);
        byte[] data = FeatureSupport.randomBytes(256 * 1024, 5);
        byte[] dst = new byte[data.length];
        for (int i = 0; i < 20; i++) {
            assertThat(p.writer().write(data)).isEqualTo(data.length);
            assertThat(p.reader().read(dst)).isEqualTo(data.length);
        }
        assertThat(dst).isEqualTo(data);
        assertThat(p.counters().pagesAllocated()).isEqualTo(64);
        assertThat(p.counters().pagesFromPool()).isEqualTo(64L * 19);
    }

    @Test
    void pagesAreReusedInsteadOfAllocatedAcrossManySmallWritesThatMerge() throws IOException {
        // 16 one-byte writes merge into one page (linux-pipe.md §1.6), so a full cycle takes one page.
        Pipe p = open();
        byte[] one = {42};
        byte[] dst = new byte[64];
        for (int cycle = 0; cycle < 1000; cycle++) {
            for (int i = 0; i < 16; i++) {
                p.writer().write(one);
            }
            if (has(Capability.OCCUPANCY)) assertThat(p.stat().slotsUsed()).isEqualTo(1);
            assertThat(p.reader().read(dst)).isEqualTo(16);
        }
        assertThat(Arrays.copyOf(dst, 16)).containsOnly(42);
        assertThat(p.counters().pagesAllocated()).isEqualTo(1);
        assertThat(p.counters().pagesFromPool()).isEqualTo(999);
    }
}
