package dev.sluice.shm;

import dev.sluice.ReadEnd;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.Base64;
import java.util.BitSet;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Numbered, self-checking records for the stress tests: {@code [int length][int writer][int seq][payload]},
 * 12 to 4096 bytes (so each is one atomic write), the length and every payload byte a function of
 * (writer, seq). A reader that parses the stream finds any lost, duplicated, reordered, torn or interleaved
 * record: the next record of a writer must carry the next number, and its bytes must be exactly the ones that
 * writer would have made.
 */
final class Records {
    static final int HEADER = 12;

    private Records() {
    }

    static int length(int writer, int seq) {
        int h = mix(writer * 0x9E3779B9 + seq);
        return HEADER + Math.floorMod(h, 4096 - HEADER + 1);
    }

    static byte[] make(int writer, int seq) {
        return make(writer, seq, length(writer, seq));
    }

    /** @return a record of exactly {@code len} bytes */
    static byte[] make(int writer, int seq, int len) {
        ByteBuffer b = ByteBuffer.allocate(len).order(ByteOrder.LITTLE_ENDIAN);
        b.putInt(len).putInt(writer).putInt(seq);
        for (int i = HEADER; i < len; i++) {
            b.put(payload(writer, seq, i));
        }
        return b.array();
    }

    private static byte payload(int writer, int seq, int i) {
        return (byte) mix(writer * 31 + seq * 17 + i);
    }

    private static int mix(int x) {
        x ^= x >>> 16;
        x *= 0x7feb352d;
        x ^= x >>> 15;
        return x;
    }

    /**
     * Checks one whole record read on its own.
     *
     * @return {@code writer << 32 | seq}
     * @throws AssertionError if the bytes are not a record its writer made
     */
    static long verify(byte[] b, int n) {
        ByteBuffer r = ByteBuffer.wrap(b, 0, n).order(ByteOrder.LITTLE_ENDIAN);
        int len = r.getInt(0);
        int writer = r.getInt(4);
        int seq = r.getInt(8);
        if (len != n) {
            throw new AssertionError("a read of " + n + " bytes holds a record of " + len);
        }
        for (int i = HEADER; i < len; i++) {
            if (b[i] != payload(writer, seq, i)) {
                throw new AssertionError("writer " + writer + " record " + seq + ": byte " + i + " differs");
            }
        }
        return (long) writer << 32 | seq;
    }

    /** Reads records until end-of-stream, checking each. */
    static Parser drain(ReadEnd in) throws IOException {
        return drain(in, 7000);
    }

    /** Reads records until end-of-stream in reads of at most {@code chunk} bytes, checking each. */
    static Parser drain(ReadEnd in, int chunk) throws IOException {
        Parser parser = new Parser();
        byte[] buf = new byte[chunk];
        for (int n; (n = in.read(buf)) != -1; ) {
            parser.feed(buf, 0, n);
        }
        return parser;
    }

    /**
     * What one reader of packets got: each packet one whole record ({@link #verify}), each writer's in order,
     * none twice; as sets of record numbers per writer, which readers of several processes can print and
     * {@link #parse}, and {@link #union} checks for records read twice.
     */
    static final class Tally {
        private final Map<Integer, BitSet> seen = new TreeMap<>();
        private final Map<Integer, Integer> last = new HashMap<>();

        /** @throws AssertionError if the packet is not a whole record or comes out of its writer's order */
        void add(byte[] b, int n) {
            long id = verify(b, n);
            int writer = (int) (id >>> 32);
            int seq = (int) id;
            Integer before = last.put(writer, seq);
            if (before != null && seq <= before) {
                throw new AssertionError("writer " + writer + ": record " + seq + " after " + before);
            }
            seen.computeIfAbsent(writer, w -> new BitSet()).set(seq);
        }

        /** @return how many records of {@code writer} were read */
        int count(int writer) {
            BitSet b = seen.get(writer);
            return b == null ? 0 : b.cardinality();
        }

        /**
         * Reads packets (one record each) until end-of-stream.
         *
         * @param progress called after each record, with this tally
         */
        static Tally readPackets(ReadEnd in, java.util.function.Consumer<Tally> progress) throws IOException {
            Tally t = new Tally();
            byte[] buf = new byte[4096];
            for (int n; (n = in.read(buf)) != -1; ) {
                t.add(buf, n);
                progress.accept(t);
            }
            return t;
        }

        /** @return a line per writer, {@code WRITER BITSET} (the set's bytes in Base64) */
        List<String> lines() {
            List<String> out = new ArrayList<>();
            seen.forEach((w, bits) -> out.add(w + " " + Base64.getEncoder().encodeToString(bits.toByteArray())));
            return out;
        }

        /** @return the tally {@link #lines()} printed */
        static Tally parse(List<String> lines) {
            Tally t = new Tally();
            for (String line : lines) {
                String[] f = line.split(" ");
                t.seen.put(Integer.parseInt(f[0]), BitSet.valueOf(Base64.getDecoder().decode(f[1])));
            }
            return t;
        }

        /**
         * @return per writer, every record number any of {@code tallies} read
         * @throws AssertionError if two of them read the same record
         */
        static Map<Integer, BitSet> union(List<Tally> tallies) {
            Map<Integer, BitSet> all = new TreeMap<>();
            for (Tally t : tallies) {
                t.seen.forEach((w, bits) -> {
                    BitSet sum = all.computeIfAbsent(w, x -> new BitSet());
                    if (sum.intersects(bits)) {
                        BitSet twice = (BitSet) sum.clone();
                        twice.and(bits);
                        throw new AssertionError("writer " + w + ": records " + twice + " were read twice");
                    }
                    sum.or(bits);
                });
            }
            return all;
        }
    }

    /** Parses a stream of records as it arrives in pieces, and checks each one. */
    static final class Parser {
        private final ByteBuffer pending = ByteBuffer.allocate(8192).order(ByteOrder.LITTLE_ENDIAN);
        private final Map<Integer, Integer> next = new HashMap<>();
        private long records;

        /** @throws AssertionError at the first record that is not what its writer wrote next */
        void feed(byte[] b, int off, int n) {
            for (int i = 0; i < n; i++) {
                pending.put(b[off + i]);
                if (pending.position() >= HEADER) {
                    int len = pending.getInt(0);
                    if (len < HEADER || len > 4096) {
                        throw new AssertionError("record " + records + ": bad length " + len);
                    }
                    if (pending.position() == len) {
                        check(len);
                        pending.clear();
                    }
                }
            }
        }

        private void check(int len) {
            int writer = pending.getInt(4);
            int seq = pending.getInt(8);
            int want = next.getOrDefault(writer, 0);
            if (seq != want) {
                throw new AssertionError("writer " + writer + ": record " + seq + " where " + want + " was due");
            }
            if (len != length(writer, seq)) {
                throw new AssertionError("writer " + writer + " record " + seq + ": length " + len);
            }
            for (int i = HEADER; i < len; i++) {
                if (pending.get(i) != payload(writer, seq, i)) {
                    throw new AssertionError("writer " + writer + " record " + seq + ": byte " + i + " differs");
                }
            }
            next.put(writer, seq + 1);
            records++;
        }

        long records() {
            return records;
        }

        /** @return records seen from one writer */
        int from(int writer) {
            return next.getOrDefault(writer, 0);
        }

        /** @return bytes of a record begun but not finished */
        int partial() {
            return pending.position();
        }
    }
}
