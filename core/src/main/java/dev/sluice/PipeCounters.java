package dev.sluice;

/**
 * A snapshot of a pipe's counters since it was opened or last reset ({@link Pipe#counters()},
 * {@link Pipe#resetCounters()}). They are kept on all the time; each costs a plain increment under a lock
 * the operation holds anyway.
 *
 * @param bytesWritten    bytes stored by writes
 * @param bytesRead       bytes returned by reads
 * @param writeCalls      write calls that stored at least one byte or found the pipe full
 * @param readCalls       read calls that returned data, end-of-stream or found it empty
 * @param readerWaits     times a reader blocked
 * @param writerWaits     times a writer blocked
 * @param readerWakeups   wake-ups sent to blocked readers
 * @param writerWakeups   wake-ups sent to blocked writers
 * @param emptyWakeups    wake-ups after which the woken thread found nothing to do and waited again
 * @param spunWaits       waits that ended while the thread spun, before it parked (no wake-up needed)
 * @param lockContended   lock acquisitions that had to wait for another thread
 * @param pagesFromPool   pages reused from the pipe's page pool
 * @param pagesAllocated  pages newly allocated
 * @param peakSlotsUsed   the most slots in use at once
 */
public record PipeCounters(long bytesWritten, long bytesRead, long writeCalls, long readCalls,
                           long readerWaits, long writerWaits, long readerWakeups, long writerWakeups,
                           long emptyWakeups, long spunWaits, long lockContended, long pagesFromPool,
                           long pagesAllocated, int peakSlotsUsed) {

    /**
     * {@return the counters on one line, for logs: bytes and calls in and out, waits, wake-ups, lock, pages}
     * {@link #toMultilineString()} lays them out for people.
     */
    @Override
    public String toString() {
        return String.format("PipeCounters[bytes in %,d out %,d, calls write %,d read %,d, waits writers %,d"
                        + " readers %,d, wake-ups to writers %,d to readers %,d for nothing %,d, spun %,d,"
                        + " lock contended %,d, pages pooled %,d allocated %,d, peak slots %d]",
                bytesWritten, bytesRead, writeCalls, readCalls, writerWaits, readerWaits, writerWakeups,
                readerWakeups, emptyWakeups, spunWaits, lockContended, pagesFromPool, pagesAllocated, peakSlotsUsed);
    }

    /** {@return the counters on six lines, in words, for people} */
    public String toMultilineString() {
        return String.format(
                "bytes    written %,d  read %,d%n"
                        + "calls    write %,d  read %,d%n"
                        + "waits    writers %,d  readers %,d%n"
                        + "wakeups  to writers %,d  to readers %,d  found nothing to do %,d"
                        + "  waits ended by spinning %,d%n"
                        + "lock     contended %,d%n"
                        + "pages    from pool %,d  allocated %,d  peak slots used %d",
                bytesWritten, bytesRead, writeCalls, readCalls, writerWaits, readerWaits, writerWakeups,
                readerWakeups, emptyWakeups, spunWaits, lockContended, pagesFromPool, pagesAllocated, peakSlotsUsed);
    }
}
