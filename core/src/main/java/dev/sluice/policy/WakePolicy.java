package dev.sluice.policy;

/**
 * When a reader wakes a writer that is blocked on a full pipe: each rule the Linux kernel has used, and one
 * of Sluice's own.
 *
 * <p>The question looks small and has been argued over on the kernel list for six years, because each
 * answer trades wasted wake-ups (a writer woken to find too little room, which costs two context switches
 * for nothing) against latency and, in one case, liveness. Every rule here is evaluated by the reader, under
 * the pipe's lock, each time a read frees a slot; the wake-up itself is sent when the reader leaves. A
 * writer only ever waits while the ring is full.
 *
 * <p>The rule methods are public so that tests and the lab can drive them step by step.
 */
public enum WakePolicy implements Aliased {
    /**
     * Any slot freed wakes a writer: Linux up to 5.4. Simple and prompt, and wasteful when a reader frees
     * slots one at a time: each freed page wakes the writer for one page of room.
     */
    ALWAYS {
        @Override
        public boolean wakeOnFree(int occupancyBefore, int maxUsage, int writerNeed) {
            return true;
        }
    },

    /**
     * Wake only when occupancy drops to half the ring or below (Konstantin Khlebnikov, October 2019; briefly
     * in David Howells' v5.5 rework as a threshold of {@code max_usage / 2}). The writer then has room for
     * half a ring per wake-up: {@code seq 50000000 | wc} went from 26k to 13k context switches, pipe-bench
     * about 20 % fewer, at the same throughput.
     *
     * <p><b>Can strand a writer.</b> Linus Torvalds' objection, kept here so the lab can show it: a reader
     * that frees one slot and then waits for the writer by some other means (a reply on another pipe, a
     * lock) leaves the writer asleep with room it could use, and the two wait for each other until the
     * reader reads the ring down to half. Use it only where readers always drain.
     */
    HALF_EMPTY {
        @Override
        public boolean wakeOnFree(int occupancyBefore, int maxUsage, int writerNeed) {
            return occupancyBefore - 1 <= maxUsage / 2;
        }
    },

    /**
     * Wake if the ring was full when the read started (re-sampled after the reader sleeps), whether or not
     * the read freed a slot: Linux 5.5 to 6.13 (Linus Torvalds, f467a6a66419). A reader nibbling 16 bytes at
     * a time from a full ring wakes the writer on every read, for no room at all; that is the stress-ng tee
     * case that the next rule sped up by 500 %.
     */
    FULL_AT_START {
        @Override
        public boolean wakeOnFree(int occupancyBefore, int maxUsage, int writerNeed) {
            return false;
        }

        @Override
        public boolean wakeIfFullAtStart() {
            return true;
        }
    },

    /**
     * Wake iff a read freed a slot and the ring was full just before that slot was freed: Linux 6.14 and
     * later (Oleg Nesterov, aaec5a95d596). The default. It sends the fewest wake-ups of the kernel's rules
     * without ever leaving a writer asleep beside room: tee +500 %, hackbench -7.5 % on one machine (more
     * wake-ups had perturbed timing in hackbench's favour).
     */
    FULL_AND_FREED {
        @Override
        public boolean wakeOnFree(int occupancyBefore, int maxUsage, int writerNeed) {
            return occupancyBefore >= maxUsage;
        }
    },

    /**
     * Sluice's own: wake the writer when it can make real progress, using what a kernel cannot cheaply know,
     * how much the blocked writer still has to write.
     *
     * <p>The rule: a blocked writer states its need in slots when it goes to sleep: 1 if the rest of its write
     * fits in one page (any write of at most {@code PIPE_BUF}, which must go in whole, and the tail of a large
     * one); otherwise the pages it still has to write, but at most half the ring. A read wakes the writer
     * when the free slots reach that need.
     *
     * <p>The reasoning: waking a bulk writer for one free page buys one page of progress for two context
     * switches, which is what {@link #HALF_EMPTY} saves; but waiting for half the ring is wrong for a writer
     * whose whole write would fit now, which is what makes {@code HALF_EMPTY} strand writers.
     *
     * <p>Why it never strands a writer: (1) a writer that can finish its write is woken as soon as the room
     * for it exists, because its need is then at most what it has left; (2) a writer that cannot finish
     * needs at most half the ring, and the free slots grow by one with every slot a reader frees, so a reader
     * that keeps reading reaches the need before the ring is empty, and a reader that stops reading cannot
     * be waiting for bytes this writer has not written yet: it would have to read the pipe to get them.
     * (3) The cap of half the ring is applied again when the rule is evaluated, so a need stated before the
     * ring shrank cannot exceed what can be free; the test suite found that race.
     *
     * <p>In the lab it is within the noise of the best safe fixed policy on hackbench, pipe-bench and tee,
     * with as many or fewer writer wake-ups than {@link #FULL_AND_FREED}, and behind {@link #HALF_EMPTY} where
     * batching across read calls pays. It cannot batch that way: a reader that returns from its read may next
     * wait for this very writer by some other path, so a writer whose need is met must be woken before the
     * read returns. The runs, and how finely the machine resolves them: {@code docs/performance.md}, "The wake
     * policies in the lab".
     */
    ADAPTIVE {
        @Override
        public boolean wakeOnFree(int occupancyBefore, int maxUsage, int writerNeed) {
            // The need was stated against the ring the writer saw; if the ring has shrunk since, the need
            // may exceed what can ever be free, so it is capped again here, against the ring as it is now.
            int need = Math.min(Math.max(1, writerNeed), Math.max(1, maxUsage / 2));
            int freeAfter = maxUsage - (occupancyBefore - 1);
            return freeAfter >= need;
        }

        @Override
        public boolean usesWriterNeed() {
            return true;
        }
    };


    /**
     * The rule, evaluated by a reader each time its read frees a slot.
     *
     * @param occupancyBefore slots in use just before the slot was freed
     * @param maxUsage        slots a writer may fill
     * @param writerNeed      slots the longest-waiting writer needs ({@link #ADAPTIVE} only; 0 if unknown
     *                        or nobody waits)
     * @return whether the reader should wake a writer when it leaves
     */
    public abstract boolean wakeOnFree(int occupancyBefore, int maxUsage, int writerNeed);

    /** {@return whether a read that started on a full ring wakes a writer when it leaves, freed or not} */
    public boolean wakeIfFullAtStart() {
        return false;
    }

    /** {@return whether blocked writers must state their need ({@link #ADAPTIVE})} */
    public boolean usesWriterNeed() {
        return false;
    }

    /**
     * The slots a writer with {@code remaining} bytes still to write needs to make real progress (see
     * {@link #ADAPTIVE}).
     *
     * @param remaining bytes the writer has not stored yet
     * @param maxUsage  slots a writer may fill
     * @param pageSize  bytes in a slot
     * @return 1 if the rest fits in a page, else the pages left, at most half the ring
     */
    public static int writerNeed(long remaining, int maxUsage, int pageSize) {
        if (remaining <= pageSize) {
            return 1;
        }
        long pages = (remaining + pageSize - 1) / pageSize;
        return (int) Math.min(pages, Math.max(1, maxUsage / 2));
    }


    /**
     * The policy of that name; the same as {@link Aliased#parse}.
     *
     * @param alias a name as returned by {@link #alias()} or the constant's name, any case
     * @return the policy
     * @throws IllegalArgumentException if no policy has that name
     */
    public static WakePolicy fromAlias(String alias) {
        return Aliased.parse(WakePolicy.class, alias, "wake policy");
    }

    @Override
    public String toString() {
        return alias();
    }
}
