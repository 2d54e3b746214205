package dev.sluice.stress;

import java.util.ArrayList;
import java.util.BitSet;
import java.util.Collections;
import java.util.List;
import java.util.StringJoiner;

/**
 * What every writer says it stored and what every reader received, and the checks between them: each
 * record received at most once (exactly once when nothing may be left in the pipe), only records that a
 * writer stored, and per writer in increasing order within each reader (strictly consecutive when one
 * reader sees the whole stream).
 */
final class Ledger {
    final int writers;
    /** Records writer {@code w} stored, set by the writer when it ends. */
    final int[] stored;
    /** Bytes writer {@code w} stored, including partial writes, set by the writer when it ends. */
    final long[] bytesStored;
    private final List<ReaderLog> logs = Collections.synchronizedList(new ArrayList<>());

    Ledger(int writers) {
        this.writers = writers;
        this.stored = new int[writers];
        this.bytesStored = new long[writers];
    }

    /**
     * @param consecutive whether this reader must see each writer's records with no gap (it is the only
     *                    reader); otherwise only increasing
     */
    ReaderLog newReader(String name, boolean consecutive) {
        ReaderLog log = new ReaderLog(name, writers, consecutive);
        logs.add(log);
        return log;
    }

    long bytesStored() {
        long sum = 0;
        for (long b : bytesStored) {
            sum += b;
        }
        return sum;
    }

    long bytesReceived() {
        long sum = 0;
        synchronized (logs) {
            for (ReaderLog l : logs) {
                sum += l.bytes;
            }
        }
        return sum;
    }

    long recordsReceived() {
        long sum = 0;
        synchronized (logs) {
            for (ReaderLog l : logs) {
                sum += l.n;
            }
        }
        return sum;
    }

    /**
     * Checks that no record was duplicated or invented; with {@code requireAll}, also that none was lost.
     *
     * @throws AssertionError describing the first few problems
     */
    void verify(boolean requireAll) {
        BitSet[] seen = new BitSet[writers];
        for (int w = 0; w < writers; w++) {
            seen[w] = new BitSet(stored[w]);
        }
        StringJoiner problems = new StringJoiner("\n");
        int count = 0;
        synchronized (logs) {
            for (ReaderLog log : logs) {
                for (int i = 0; i < log.n; i++) {
                    int w = (int) (log.ids[i] >>> 32);
                    int seq = (int) log.ids[i];
                    if (seq >= stored[w]) {
                        if (count++ < 10) {
                            problems.add(log.name + " received record " + w + "/" + seq + " but writer " + w
                                    + " stored only " + stored[w]);
                        }
                    } else if (seen[w].get(seq)) {
                        if (count++ < 10) {
                            problems.add("record " + w + "/" + seq + " received twice (again by " + log.name + ")");
                        }
                    } else {
                        seen[w].set(seq);
                    }
                }
            }
        }
        if (requireAll) {
            for (int w = 0; w < writers; w++) {
                int got = seen[w].cardinality();
                if (got != stored[w]) {
                    int first = seen[w].nextClearBit(0);
                    if (count++ < 10) {
                        problems.add("writer " + w + ": " + (stored[w] - got) + " of " + stored[w]
                                + " records lost, first missing seq " + first);
                    }
                }
            }
        }
        if (count > 0) {
            throw new AssertionError(count + " problem(s) with the records:\n" + problems);
        }
    }

    /** One reader's receipts; used by its own thread only until the run ends. */
    static final class ReaderLog {
        final String name;
        private final boolean consecutive;
        private final int[] last;
        long[] ids = new long[4096];
        int n;
        long bytes;

        ReaderLog(String name, int writers, boolean consecutive) {
            this.name = name;
            this.consecutive = consecutive;
            this.last = new int[writers];
            java.util.Arrays.fill(last, -1);
        }

        void add(Records.Header h) {
            int prev = last[h.writerId()];
            if (consecutive ? h.seq() != prev + 1 : h.seq() <= prev) {
                throw new AssertionError(name + ": record " + h.writerId() + "/" + h.seq() + " came after "
                        + h.writerId() + "/" + prev + (consecutive ? " (per-writer order broken or a record lost)"
                        : " (per-writer order broken)"));
            }
            last[h.writerId()] = h.seq();
            if (n == ids.length) {
                ids = java.util.Arrays.copyOf(ids, n * 2);
            }
            ids[n++] = h.id();
            bytes += h.length();
        }
    }
}
