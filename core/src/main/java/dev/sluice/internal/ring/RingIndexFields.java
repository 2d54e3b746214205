package dev.sluice.internal.ring;

/**
 * The fields of {@link PageRing} that threads read without the lock, kept on cache lines of their own.
 *
 * <p>A waiting reader or writer, especially one spinning before it parks, loads {@code index} and
 * {@code maxUsage} over and over; the lock holder writes {@code head}, {@code tail} and the byte count on
 * every slot. Were they on one cache line, each of those writes would pull the line away from the spinner
 * and each load back, slowing the very thread being waited for. The JVM orders fields within a class as it
 * likes but lays out a superclass's fields before a subclass's, so padding goes in classes of their own
 * (the JCTools pattern). The padding is bytes, not longs, because the JVM fills holes in a superclass's
 * layout (such as the 4 bytes after a compressed header) with a subclass's fields, and bytes leave none:
 * {@link RingPadBefore}, these two fields, {@link RingPadAfter}, then {@code PageRing}'s own.
 * {@code RingLayoutTest} checks the result with JOL.
 */
abstract class RingIndexFields extends RingPadBefore {
    /** head in the high 32 bits, tail in the low 32 bits; written only under the pipe's lock. */
    volatile long index;
    /** Slots a writer may fill: the capacity less reserved slots; changes on resize and reservations. */
    volatile int maxUsage;
}

/** Keeps whatever precedes the index (the object header, a neighbouring object) off its cache line. */
@SuppressWarnings("unused")
abstract class RingPadBefore {
    private byte p00, p01, p02, p03, p04, p05, p06, p07, p08, p09, p10, p11, p12, p13, p14, p15;
    private byte p16, p17, p18, p19, p20, p21, p22, p23, p24, p25, p26, p27, p28, p29, p30, p31;
    private byte p32, p33, p34, p35, p36, p37, p38, p39, p40, p41, p42, p43, p44, p45, p46, p47;
    private byte p48, p49, p50, p51, p52, p53, p54, p55, p56, p57, p58, p59, p60, p61, p62, p63;
}

/** Keeps {@link PageRing}'s own fields, written on every operation, off the index's cache line. */
@SuppressWarnings("unused")
abstract class RingPadAfter extends RingIndexFields {
    private byte q00, q01, q02, q03, q04, q05, q06, q07, q08, q09, q10, q11, q12, q13, q14, q15;
    private byte q16, q17, q18, q19, q20, q21, q22, q23, q24, q25, q26, q27, q28, q29, q30, q31;
    private byte q32, q33, q34, q35, q36, q37, q38, q39, q40, q41, q42, q43, q44, q45, q46, q47;
    private byte q48, q49, q50, q51, q52, q53, q54, q55, q56, q57, q58, q59, q60, q61, q62, q63;
}
