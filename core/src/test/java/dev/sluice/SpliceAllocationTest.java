package dev.sluice;

import static dev.sluice.ConformanceSupport.pattern;
import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * splice and tee copy no bytes and allocate nothing per call once the pipes have cycled their pages: the
 * slots move or are shared, and each page goes back to the pool of the pipe that allocated it, whichever
 * pipe lets go of it last (see {@link Splice}). Measured as in {@link Rule09PagePoolTest}, with HotSpot's
 * per-thread allocation counter after a warm-up that lets the JIT compile the paths.
 */
@Timeout(60)
class SpliceAllocationTest {
    private static final com.sun.management.ThreadMXBean THREADS =
            (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
    private static final long SLACK_BYTES = 4096;
    private static final int WARM_UP = 30_000;
    private static final int MEASURED = 20_000;

    @BeforeAll
    static void enableAllocationCounting() {
        assumeTrue(THREADS.isThreadAllocatedMemorySupported(), "this VM cannot count allocated bytes per thread");
        THREADS.setThreadAllocatedMemoryEnabled(true);
    }

    /**
     * Sizes, and the page memory of pipes a, b and c: all heap, all direct, and mixed, where pages born in one
     * kind of memory travel through a pipe of the other and still go home.
     */
    static Stream<Arguments> cases() {
        PageMemory heap = PageMemory.HEAP;
        PageMemory direct = PageMemory.DIRECT;
        List<Arguments> all = new ArrayList<>();
        for (int size : new int[] {100, 4096, 10_000}) {
            all.add(Arguments.of(size, heap, heap, heap));
            all.add(Arguments.of(size, direct, direct, direct));
            all.add(Arguments.of(size, heap, direct, heap));
            all.add(Arguments.of(size, direct, heap, direct));
        }
        return all.stream();
    }

    private static Pipe open(PageMemory memory) {
        return Pipe.open(PipeOptions.builder().pageMemory(memory).build());
    }

    @ParameterizedTest(name = "{0}-byte writes, pages {1} -> {2} -> {3}")
    @MethodSource("cases")
    void spliceAndTeeAllocateNothingInSteadyState(int size, PageMemory ma, PageMemory mb, PageMemory mc)
            throws IOException {
        Pipe a = open(ma);
        Pipe b = open(mb);
        Pipe c = open(mc);
        byte[] data = pattern(size);
        byte[] fromB = new byte[size];
        byte[] fromC = new byte[size];
        for (int i = 0; i < WARM_UP; i++) {
            round(a, b, c, data, fromB, fromC, i);
        }
        long before = THREADS.getCurrentThreadAllocatedBytes();
        for (int i = 0; i < MEASURED; i++) {
            round(a, b, c, data, fromB, fromC, i);
        }
        long allocated = THREADS.getCurrentThreadAllocatedBytes() - before;
        assertThat(fromB).isEqualTo(data);
        assertThat(fromC).isEqualTo(data);
        assertThat(allocated).as("bytes allocated by %d rounds of write, splice, tee, read, read", MEASURED)
                .isLessThan(SLACK_BYTES);
    }

    @org.junit.jupiter.api.Test
    void controlTheProbeSeesPagesAllocatedWhenTheSourceKeepsNoPool() throws IOException {
        Pipe a = Pipe.open(PipeOptions.builder().poolPages(0).pageMemory(PageMemory.HEAP).build());
        Pipe b = Pipe.open();
        Pipe c = Pipe.open();
        byte[] data = pattern(4096);
        byte[] fromB = new byte[4096];
        byte[] fromC = new byte[4096];
        for (int i = 0; i < 1000; i++) {
            round(a, b, c, data, fromB, fromC, i);
        }
        long before = THREADS.getCurrentThreadAllocatedBytes();
        for (int i = 0; i < 1000; i++) {
            round(a, b, c, data, fromB, fromC, i);
        }
        assertThat(THREADS.getCurrentThreadAllocatedBytes() - before).as("a page per round")
                .isGreaterThan(1000L * 4096);
    }

    /** write a; splice a -> b; tee b -> c; read b and c (in turn first), each byte-exact in count. */
    private static void round(Pipe a, Pipe b, Pipe c, byte[] data, byte[] fromB, byte[] fromC, int i)
            throws IOException {
        a.writer().write(data);
        expect(Splice.splice(a.reader(), b.writer(), Long.MAX_VALUE), data.length);
        expect(Splice.tee(b.reader(), c.writer(), Long.MAX_VALUE), data.length);
        if ((i & 1) == 0) { // alternate which pipe lets go of the shared pages last
            readAll(b.reader(), fromB);
            readAll(c.reader(), fromC);
        } else {
            readAll(c.reader(), fromC);
            readAll(b.reader(), fromB);
        }
    }

    private static void readAll(ReadEnd in, byte[] into) throws IOException {
        int got = 0;
        while (got < into.length) {
            got += in.read(into, got, into.length - got);
        }
    }

    private static void expect(long n, int want) {
        if (n != want) {
            throw new AssertionError("moved " + n + " of " + want);
        }
    }
}
