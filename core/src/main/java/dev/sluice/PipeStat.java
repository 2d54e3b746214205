package dev.sluice;

import java.time.Instant;

/**
 * A snapshot of a pipe's state, like {@code fstat(2)} plus {@code F_GETPIPE_SZ} and {@code FIONREAD}.
 *
 * <p>The times behave as on Linux: with timestamps on ({@link PipeOptions.Builder#timestamps}), a read
 * that returned data sets {@code lastRead} (atime) and a write that stored data sets {@code lastWrite}
 * (mtime) and {@code lastChange} (ctime), as for FIFOs and pre-6.15 anonymous pipes; with them off, all
 * three stay at the pipe's creation time, as for anonymous pipes since 6.15.
 *
 * @param capacity    capacity in bytes ({@code F_GETPIPE_SZ})
 * @param slots       ring size in page slots
 * @param slotsUsed   slots holding data
 * @param bytesQueued unread bytes ({@code FIONREAD})
 * @param readers     open read handles
 * @param writers     open write handles
 * @param lastRead    last read that returned data (atime)
 * @param lastWrite   last write that stored data (mtime)
 * @param lastChange  last change of data (ctime)
 */
public record PipeStat(int capacity, int slots, int slotsUsed, long bytesQueued, int readers, int writers,
                       Instant lastRead, Instant lastWrite, Instant lastChange) {
}
