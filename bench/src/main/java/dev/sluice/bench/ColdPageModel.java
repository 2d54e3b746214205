package dev.sluice.bench;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.concurrent.locks.ReentrantLock;

/**
 * A model of a pipe's writer, without Sluice: why reusing the page a reader has just read costs a writer on
 * another core (docs/performance.md, "Cold pages"). One writer stores {@code size}-byte chunks into a ring of
 * 16 pages with a {@code ReentrantLock} taken per write; one reader polls for 32 KiB and copies it out. Page
 * {@code n} of the stream is physical page {@code n % rotation}, so {@code rotation} is how many pages the
 * writer cycles through; each rotation runs in turn, several rounds, in one JVM.
 *
 * <pre>java -cp bench/target/benchmarks.jar dev.sluice.bench.ColdPageModel 100 1000000000 16,64,512 6</pre>
 */
public final class ColdPageModel {
    private static final int PAGE = 4096;
    private static final int RING = 16 * PAGE;
    private static final int BATCH = 32 * 1024;
    private static final VarHandle TAIL;
    private static final VarHandle HEAD;

    static {
        try {
            MethodHandles.Lookup l = MethodHandles.lookup();
            TAIL = l.findVarHandle(ColdPageModel.class, "tail", long.class);
            HEAD = l.findVarHandle(ColdPageModel.class, "head", long.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private final byte[][] pages;
    private final ReentrantLock lock = new ReentrantLock();
    @SuppressWarnings("unused") // through TAIL
    private volatile long tail;
    @SuppressWarnings("unused") // through HEAD
    private volatile long head;

    private ColdPageModel(int rotation) {
        pages = new byte[rotation][PAGE];
    }

    private byte[] page(long pos) {
        return pages[(int) ((pos / PAGE) % pages.length)];
    }

    /** Stores {@code src} at stream position {@code t}, waiting while the ring is full. */
    private void write(byte[] src, long t) {
        while (t + src.length - (long) HEAD.getAcquire(this) > RING) {
            Thread.onSpinWait();
        }
        lock.lock();
        try {
            int first = Math.min(src.length, PAGE - (int) (t % PAGE));
            System.arraycopy(src, 0, page(t), (int) (t % PAGE), first);
            if (first < src.length) {
                System.arraycopy(src, first, page(t + first), 0, src.length - first);
            }
            TAIL.setRelease(this, t + src.length);
        } finally {
            lock.unlock();
        }
    }

    /** Reads {@code total} bytes in batches of up to 32 KiB; returns a checksum so nothing is optimised away. */
    private long read(long total) {
        byte[] dst = new byte[2 * BATCH];
        long h = 0;
        long sum = 0;
        while (h < total) {
            long t;
            while ((t = (long) TAIL.getAcquire(this)) - h < Math.min(BATCH, total - h)) {
                Thread.onSpinWait();
            }
            while (h < t) {
                int n = (int) Math.min(t - h, PAGE - h % PAGE);
                System.arraycopy(page(h), (int) (h % PAGE), dst, 0, n);
                sum += dst[0];
                h += n;
            }
            HEAD.setRelease(this, h);
        }
        return sum;
    }

    /**
     * @param args chunk size in bytes, bytes per run, rotations (comma-separated page counts, each at least 16),
     *             rounds
     * @throws InterruptedException if interrupted
     */
    public static void main(String[] args) throws InterruptedException {
        if (args.length != 4) {
            System.err.println("usage: ColdPageModel SIZE BYTES ROTATION[,ROTATION...] ROUNDS");
            System.exit(2);
        }
        int size = Integer.parseInt(args[0]);
        long total = Long.parseLong(args[1]) / size * size;
        String[] rotations = args[2].split(",");
        int rounds = Integer.parseInt(args[3]);
        byte[] src = new byte[size];
        for (int round = 1; round <= rounds; round++) {
            for (String r : rotations) {
                ColdPageModel m = new ColdPageModel(Math.max(16, Integer.parseInt(r.trim())));
                long[] sum = new long[1];
                Thread reader = Thread.ofPlatform().start(() -> sum[0] = m.read(total));
                long start = System.nanoTime();
                for (long t = 0; t < total; t += size) {
                    m.write(src, t);
                }
                reader.join();
                long ns = System.nanoTime() - start;
                System.out.printf("round %d, %4d pages: %6.0f MB/s, %5.1f ns per write%s%n", round,
                        m.pages.length, total * 1e3 / ns, ns / (double) (total / size), sum[0] == 0 ? "" : " ?");
            }
        }
    }
}
