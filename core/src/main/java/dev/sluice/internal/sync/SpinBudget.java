package dev.sluice.internal.sync;

import dev.sluice.policy.SpinPolicy;

/**
 * How long the next waiter of one {@link WaitQueue} spins before it parks ({@link SpinPolicy}).
 *
 * <p>{@link SpinPolicy#FIXED}: always the longest spin it is given. {@link SpinPolicy#ADAPTIVE}:
 * <ul>
 *   <li>a spin is only tried while spinning works on this queue: a spin that runs out makes the next
 *       waits park at once, 1 after the first failure in a row, then up to 2, 4, ... {@link #MAX_SKIP}
 *       (jittered between half and all of that, so two sides that park in lockstep meet again); a
 *       spin that sees its condition come true makes every wait spin again, unless the waiter then finds
 *       the pipe's lock held by a partner trading it write by write ({@link #spunIntoLock}), which counts
 *       as a failure. So a side whose partner is
 *       running and about to act keeps spinning (a ping-pong), and a side that spins in vain (a writer of
 *       small chunks waiting for a reader to drain a full pipe, or any waiter on a machine with more
 *       runnable threads than cores) soon spins on one wait in {@value #MAX_SKIP} at most;</li>
 *   <li>a spin lasts no longer than a wake-up has been costing on this queue: the time from a waker's
 *       unpark to the woken thread running, a moving average ({@link #woke(long)}), capped by the longest
 *       spin. Spinning no longer than blocking would cost is the classic 2-competitive rule (Karlin, Li,
 *       Manasse and Owicki, 1991): on an idle machine a wake-up pays the CPU's idle exit, tens of
 *       microseconds, and a long spin pays off; where wake-ups are cheap, spins are short;</li>
 *   <li>a spin that runs out but whose wait then ends within the longest spin was a narrow miss
 *       ({@link #missed}): it is not counted as a failure, and later spins last at least as long as such
 *       waits have lasted. Without this two threads passing a token back and forth never recover once one
 *       of them parks: each one's wait then includes the other's wake-up, so spins as long as a wake-up
 *       keep missing, and every exchange pays two wake-ups (a 1-byte ping-pong between platform threads
 *       fell into lockstep, many times slower);</li>
 *   <li>a reader whose spins run into the lock held by a writer of small chunks
 *       {@value #TRADES_BEFORE_BATCHING} times in a row is {@link #batching()}: so that the writer runs on
 *       alone and the reader takes a batch, its next waits park at once, with writers holding back the wake-up
 *       until a batch of pages is queued, for a few spins' time at most (a platform thread), or yield until
 *       such a batch is queued (a virtual one); a wait that ends with less than a page ends that
 *       ({@link #batchRanOut()}). A platform reader whose reads find data but the lock held and less than a
 *       batch trades too, without ever waiting ({@link #tradedWithoutSpin}): once batching, such a read naps
 *       for the batch before it takes;</li>
 *   <li>virtual threads never spin: a spinning one holds a carrier that other virtual threads may need, and
 *       one that parks unmounts, which is cheap. A short spin did speed up a virtual ping-pong, but lost more
 *       on streams and hackbench (the spinner reads each page as it lands and trades the lock with the
 *       writer instead of taking a batch); yielding while spinning did no better. The pipe lock's spin
 *       ({@link SpinningMutex}) skips virtual threads too. A virtual reader does batch: its trades are learnt
 *       from its wake-ups ({@link #tradedWithoutSpin}), and it waits for a batch by yielding.</li>
 * </ul>
 *
 * <p>The measurements behind these rules: {@code docs/performance.md}, "The spin before parking".
 *
 * <p>The learnt values are plain fields: several waiters of one queue may race on them, and a lost update
 * only nudges the budget, which the next wait corrects; nobody ever blocks on them.
 */
public final class SpinBudget {
    /** The most waits that park at once after failed spins before a spin is tried again. */
    public static final int MAX_SKIP = 64;
    /** Weight of a new wake-up cost in the moving average: 1/2^this. */
    static final int COST_SHIFT = 2;

    private final boolean adaptive;
    /** Waits left that park without spinning. */
    private int skip;
    /** What {@link #skip} is set to after the next failed spin, doubled by each failure in a row. */
    private int penalty = 1;
    /** Moving average of the wake-up cost in nanoseconds; -1 until the first wake-up is measured. */
    private long wakeCost = -1;
    /**
     * Moving average of the length of the waits that a spin missed narrowly (the condition came true after the
     * spin gave up but within the longest spin); -1 until there was one.
     */
    private long missedWait = -1;
    /** The skip and penalty before the last {@link #failed()}, restored by a narrow miss. */
    private int skipBefore;
    private int penaltyBefore = 1;

    /** xorshift32 state for the jitter of {@link #skip}. */
    private int random;

    /** @param policy fixed or adaptive */
    public SpinBudget(SpinPolicy policy) {
        this(policy, System.identityHashCode(new Object()));
    }

    /**
     * @param policy fixed or adaptive
     * @param seed   seed of the jitter of the waits that park without spinning (tests pass a fixed one)
     */
    SpinBudget(SpinPolicy policy, int seed) {
        this.adaptive = policy == SpinPolicy.ADAPTIVE;
        this.random = seed == 0 ? 0x9E3779B9 : seed;
    }

    /** @return whether this budget learns ({@link SpinPolicy#ADAPTIVE}) */
    public boolean adaptive() {
        return adaptive;
    }

    /**
     * @param maxNanos the longest spin (the pipe's {@code spinBeforePark}); 0 or less means never spin
     * @param virtual  whether the waiting thread is virtual (an adaptive budget never spins those)
     * @return how long the calling waiter should spin now; 0 parks at once
     */
    public long next(long maxNanos, boolean virtual) {
        if (maxNanos <= 0) {
            return 0;
        }
        if (!adaptive) {
            return maxNanos;
        }
        if (virtual) {
            return 0;
        }
        if (skip > 0) {
            skip--;
            return 0;
        }
        long c = Math.max(wakeCost, missedWait);
        return c >= 0 && c < maxNanos ? c : maxNanos;
    }

    /** Records a spin that saw its condition come true. */
    public void succeeded() {
        if (adaptive) {
            penalty = 1;
            skip = 0;
        }
    }

    /**
     * Records what the pipe's lock was like for a waiter whose spin succeeded: found held means the other side
     * was still in the middle of its work, which on a 2-core machine means the two are now trading the lock
     * and the ring's cache lines operation by operation. Parking would have let the other side run on
     * alone and the waiter take a whole batch on waking, so a spin that ran into the lock counts as a
     * failure ({@link #failed()}), as a bulk stream's spins do; a ping-pong's spins find the lock free.
     *
     * @param contended whether the lock acquisition after the spin found the lock held (the pipe passes
     *                  this only for a reader that then found less than a page waiting: with more, the spin
     *                  did pay off)
     */
    public void spunIntoLock(boolean contended) {
        if (contended) {
            failed();
        }
        traded(contended);
    }

    /**
     * Spun waits in a row that ran into the lock ({@link #spunIntoLock}) before a reader starts spinning for
     * a page: one alone happens in a ping-pong too (the writer publishes just before it lets go of the lock).
     */
    static final int TRADES_BEFORE_BATCHING = 4;
    private int tradedInARow;

    /**
     * A trade seen without a spin, as {@link #spunIntoLock} records one for a spin (without counting a failed
     * spin). For a virtual reader, which never spins: what the pipe's lock was like when it woke. A virtual
     * reader woken by a writer of small chunks finds the lock held by that writer and a sliver of data; after
     * {@value #TRADES_BEFORE_BATCHING} such wake-ups in a row it is {@link #batching()} too, and waits for a
     * batch by yielding. A ping-pong's reader wakes to a free lock and never batches. For a platform reader: a
     * read that found data at once, but the lock held and less than a batch (the two sides run at once and
     * trade the lock write by write without the reader ever waiting).
     *
     * @param contended whether the lock was held when the reader took it, and less than a page (a platform
     *                  reader's read: a batch) waited
     */
    public void tradedWithoutSpin(boolean contended) {
        traded(contended);
    }

    private void traded(boolean traded) {
        if (!traded) {
            tradedInARow = 0;
        } else if (adaptive && ++tradedInARow >= TRADES_BEFORE_BATCHING * batchBackoff) {
            batching = true;
        }
    }

    /** Set after {@link #TRADES_BEFORE_BATCHING} trades in a row; cleared by {@link #batchRanOut()}. */
    private boolean batching;

    /**
     * @return whether this side's waiters (a pipe's readers) should wait for a batch rather than spin for any
     *         data: its spins kept running into the lock held by a writer of small chunks
     */
    public boolean batching() {
        return batching;
    }

    /** Records a wait for a batch that found less than a page: data comes slowly, so waits go back to spinning. */
    public void batchRanOut() {
        batching = false;
        tradedInARow = 0;
    }

    /**
     * Records a platform reader's nap for a batch that ran out before the batch came: the writer stopped short
     * of one (a request smaller than a batch, say), and the nap added its length to this read's latency. Waits
     * go back to spinning, and it takes twice as many trades in a row as last time, up to
     * {@value #MAX_BATCH_BACKOFF} times {@value #TRADES_BEFORE_BATCHING}, before the reader naps again, so that
     * an exchange of messages larger than a page pays for a nap at most once in that many.
     */
    public void napRanOut() {
        batchRanOut();
        if (adaptive) {
            batchBackoff = Math.min(batchBackoff * 2, MAX_BATCH_BACKOFF);
        }
    }

    /** Records a nap for a batch that the batch ended: naps pay off again ({@link #napRanOut}). */
    public void napFilled() {
        batchBackoff = 1;
    }

    /** The most {@link #napRanOut} multiplies the trades before batching by. */
    static final int MAX_BATCH_BACKOFF = 16;
    private int batchBackoff = 1;

    /** Records a spin that ran out without its condition coming true (the waiter goes on to park). */
    public void failed() {
        if (adaptive) {
            int p = penalty;
            skipBefore = skip;
            penaltyBefore = p;
            // Jittered, from p/2 + 1 to p: two sides that park in lockstep (a ping-pong, where a spin can
            // only succeed while the partner spins too) must not keep probing in different rounds forever.
            int r = random;
            r ^= r << 13;
            r ^= r >>> 17;
            r ^= r << 5;
            random = r;
            skip = p - Integer.remainderUnsigned(r, (p + 1) / 2);
            penalty = Math.min(p * 2, MAX_SKIP);
        }
    }

    /**
     * Records how long a wait whose spin ran out really lasted: from the start of the spin to the unpark
     * that ended it. A wait no longer than the longest spin was a narrow miss: a spin that long would have
     * seen the condition come true, so the miss takes back the {@link #failed()} before it and the next
     * spins last at least that long (a moving average). This is what lets two threads that pass a token
     * back and forth start spinning again after one of them had to park: each one's wait then includes the
     * other's wake-up, so a spin only as long as a wake-up keeps missing, both sides keep parking, and
     * every exchange pays two wake-ups. A longer wait stays a failure.
     *
     * @param waitedNanos from the start of the spin to the unpark
     * @param maxNanos    the longest spin allowed (the pipe's {@code spinBeforePark})
     */
    public void missed(long waitedNanos, long maxNanos) {
        if (adaptive && waitedNanos >= 0 && waitedNanos <= maxNanos) {
            skip = skipBefore;
            penalty = penaltyBefore;
            long m = missedWait;
            // A little over the wait, so the next one of the same length is seen
            long w = waitedNanos + (waitedNanos >> 3);
            missedWait = m < 0 ? w : m + ((w - m) >> COST_SHIFT);
        }
    }

    /**
     * Records what one wake-up cost: from the waker's unpark to the woken thread running again.
     *
     * @param nanos the measured cost
     */
    public void woke(long nanos) {
        if (adaptive && nanos >= 0) {
            long c = wakeCost;
            wakeCost = c < 0 ? nanos : c + ((nanos - c) >> COST_SHIFT);
        }
    }

    /** @return waits left that will park without spinning; for tests and diagnostics */
    public int skip() {
        return skip;
    }

    /** @return the average wake-up cost in nanoseconds, or -1 before any was measured */
    public long wakeCost() {
        return wakeCost;
    }
}
