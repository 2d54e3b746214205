package dev.sluice.internal.ring;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteBuffer;

/**
 * The memory behind one or more ring slots, with the reference count that lets two rings share it: the
 * analogue of a {@code struct page} and its {@code page_count}, as splice and tee use them.
 *
 * <p>Two kinds:
 * <ul>
 *   <li><b>pool pages</b> ({@link PagePool#take()}): 4096 bytes owned by one pipe's pool, its <em>home</em>,
 *       either a heap array or a direct buffer as the pool was made. A normal write fills one, a read frees
 *       it, and it goes back to its home pool; a page keeps its kind of memory wherever splice takes it;</li>
 *   <li><b>gifts</b> ({@link #gift}): memory a writer handed to the pipe (the {@code vmsplice(SPLICE_F_GIFT)}
 *       analogue), a heap array window or a direct buffer. A gift has no home: when the last slot lets go,
 *       it is dropped, never pooled (its size is the caller's, and the caller may still hold a reference).</li>
 * </ul>
 *
 * <p><b>Counting.</b> {@code refs} counts the ring slots that reference this page, across all pipes. A
 * page that only its home ring references has {@code refs == 1}, and that ring's lock guards it. tee and a
 * partial splice add a reference while holding the locks of both pipes; every release after that may come
 * from either pipe's lock, so the count is changed atomically and the last one to let go decides where the
 * page goes. The common case, an unshared page going back to the pool of the ring that frees it, costs one
 * acquire load ({@link #exclusiveTo}).
 *
 * <p><b>Going home.</b> Pools are per pipe and guarded by their pipe's lock. The last releaser of a shared
 * page may hold another pipe's lock (splice moved the page, or tee shared it and the other side finished
 * first), so it cannot touch the home pool directly; it pushes the page onto the home pool's lock-free
 * return stack ({@link PagePool#giveBack}), and the home pipe takes it back on its next allocation. So
 * pages circulate back to where they came from, and a chain of pipes connected by splice allocates nothing
 * in steady state. A page whose home pipe has been closed is dropped.
 */
public final class Page {
    private static final VarHandle REFS;

    static {
        try {
            REFS = MethodHandles.lookup().findVarHandle(Page.class, "refs", int.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    /** The bytes, for heap pool pages and heap gifts; null for direct memory. */
    final byte[] bytes;
    /**
     * The memory of a direct pool page or a direct gift; null otherwise. Slot offsets index it with absolute
     * gets and puts, which never move its position or limit, so one buffer serves every thread that shares
     * the page; whoever needs a position of its own (a channel) takes a slice.
     */
    final ByteBuffer direct;
    /** The pool this page returns to; null for a gift. */
    final PagePool home;
    /** For a gift: the caller's buffer, watched for misuse; null otherwise. */
    final ByteBuffer gift;
    /**
     * For a gift: the end of the bytes given so far (the giver's position after the last slot was linked); a
     * later position below it means the giver reused the buffer. Written under the lock of the pipe the gift
     * went to, before the slot is published.
     */
    private int giftEnd;

    /** Ring slots referencing this page; see the class comment for who may change it and how. */
    @SuppressWarnings("unused") // through REFS
    private volatile int refs;
    /** Link in the home pool's return stack; written by the pusher before the publishing CAS. */
    Page nextReturned;

    private Page(byte[] bytes, ByteBuffer direct, PagePool home, ByteBuffer gift) {
        this.bytes = bytes;
        this.direct = direct;
        this.home = home;
        this.gift = gift;
    }

    /** A pool page belonging to {@code home}, on the heap or in direct memory. */
    Page(PagePool home, boolean direct) {
        this(direct ? null : new byte[PageRing.PAGE_SIZE],
                direct ? ByteBuffer.allocateDirect(PageRing.PAGE_SIZE) : null, home, null);
    }

    /**
     * A page over caller-supplied bytes with no home: released pages are dropped. For tests and for
     * callers that build rings by hand.
     *
     * @param bytes the page's memory
     * @return the page, with no references yet
     */
    public static Page of(byte[] bytes) {
        return new Page(bytes, null, null, null);
    }

    /**
     * A gift: memory of {@code buf}, which the caller gives up as slots are linked ({@link #giftedUpTo}). The
     * page keeps {@code buf} itself, not a copy. Slot offsets index {@link #bytes()} for a heap buffer (so
     * they include its array offset), and the buffer itself for a direct one.
     *
     * @param buf the gifted buffer, writable (the caller owned it)
     * @return the page, with no references yet
     */
    public static Page gift(ByteBuffer buf) {
        if (buf.hasArray()) {
            return new Page(buf.array(), null, null, buf);
        }
        return new Page(null, buf, null, buf);
    }

    /**
     * Records that the giver's bytes up to buffer index {@code end} now belong to the pipe; call after
     * moving the giver's position there and before publishing the slot.
     *
     * @param end buffer index after the last gifted byte
     */
    public void giftedUpTo(int end) {
        giftEnd = end;
    }

    /** @return the array holding the bytes, or null if they are in a direct buffer ({@link #direct()}) */
    public byte[] bytes() {
        return bytes;
    }

    /**
     * @return the direct buffer holding a direct page's or direct gift's bytes (index it with absolute gets and
     *         puts only: it is shared), else null
     */
    public ByteBuffer direct() {
        return direct;
    }

    /** @return whether this page is memory a writer gifted to the pipe */
    public boolean isGift() {
        return gift != null;
    }

    /**
     * For a gift: whether the giver has visibly reused its buffer since (its position moved back before the
     * end of what it gave, as {@code clear()}, {@code flip()} or {@code compact()} do). A best-effort check: it
     * reads the caller's buffer without synchronisation, and cannot see writes through other views.
     *
     * @return true if the gift's bytes can no longer be trusted
     */
    public boolean giftReused() {
        return gift != null && (gift.position() < giftEnd || gift.limit() < giftEnd);
    }

    /** @return the current reference count (for tests and assertions) */
    public int refs() {
        return (int) REFS.getAcquire(this);
    }

    /** Sets the count to {@code n} before the page is first published; only its owner sees it yet. */
    void initRefs(int n) {
        REFS.setRelease(this, n);
    }

    /** Adds a reference: another slot now shares this page. Call with the lock of a pipe that holds it. */
    public void retain() {
        REFS.getAndAdd(this, 1);
    }

    /**
     * Whether the ring whose pool is {@code pool} holds the only reference and is this page's home, so it
     * may put the page straight back into its pool. The acquire load pairs with the release of another
     * ring's {@link #release}: once we see 1, that ring is done with the bytes.
     */
    boolean exclusiveTo(PagePool pool) {
        return home == pool && (int) REFS.getAcquire(this) == 1;
    }

    /**
     * Drops one reference, with the lock of the pipe whose pool is {@code mine} held (or {@code mine} null,
     * holding no lock). The last reference sends the page home: into {@code mine} if that is its home, else
     * onto the home's lock-free return stack; a gift is dropped.
     *
     * @param mine the pool whose pipe lock the caller holds, or null
     */
    public void release(PagePool mine) {
        if ((int) REFS.getAndAdd(this, -1) != 1) {
            return; // another slot still reads these bytes
        }
        if (home == null) {
            return; // a gift (or a page made by hand): never pooled
        }
        if (home == mine) {
            home.give(this);
        } else {
            home.giveBack(this);
        }
    }
}
