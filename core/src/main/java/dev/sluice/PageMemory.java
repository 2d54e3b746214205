package dev.sluice;

import dev.sluice.policy.Aliased;

/**
 * Where a pipe's own pages live ({@link PipeOptions.Builder#pageMemory}): on the Java heap or in direct
 * (native) memory. Either way a page is 4096 bytes, pooled and recycled the same way, and reads and writes
 * behave identically, byte for byte; what differs is what a page costs to hand to the operating system.
 *
 * <p>The JDK can pass only direct memory to a system call. A heap page given to a file or socket channel
 * ({@link Splice#transferTo}, {@link Splice#transferFrom}) is first copied into a temporary direct buffer of
 * the JDK's, which a direct page skips: its memory goes to {@code write(2)}, {@code read(2)} or their
 * vectored forms as it is. On the other hand, copying between a {@code byte[]} and a heap page is one
 * {@code System.arraycopy}, and to or from direct memory a slightly dearer bulk copy. So heap suits pipes that
 * are read and written with arrays, direct suits pipes that feed or drain channels.
 *
 * <p>Pages move between pipes by splice and keep the memory they were born in: a pipe of either kind reads
 * and writes both. Direct pages are freed when the collector finds them unreachable: a pipe keeps its spare
 * pages in its pool while it is open, and a closed pipe's pages are freed by a later garbage collection,
 * not at {@code close()}. Direct memory is limited by {@code -XX:MaxDirectMemorySize} (by default the
 * maximum heap size); see {@link #DIRECT}.
 */
public enum PageMemory implements Aliased {
    /** {@code byte[]} pages on the Java heap: the cheapest to copy to and from arrays. The default. */
    HEAP,

    /**
     * Direct {@link java.nio.ByteBuffer} pages ({@link java.nio.ByteBuffer#allocateDirect}): handed to
     * channels without the JDK's extra copy. Allocating one is slower than allocating an array and counts
     * against {@code -XX:MaxDirectMemorySize}; the pool (see {@link PipeOptions.Builder#poolPages}) is what
     * makes them cheap, so a pipe with direct pages should keep the default pool, which reuses every page.
     * With too little direct memory left, a write that needs a new page throws
     * {@link OutOfMemoryError} after the JDK's own attempt to free some.
     */
    DIRECT;



    @Override
    public String toString() {
        return alias();
    }
}
