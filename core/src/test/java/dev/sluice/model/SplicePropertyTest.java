package dev.sluice.model;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.Pipe;
import dev.sluice.PipeOptions;
import dev.sluice.Splice;
import dev.sluice.testing.Capability;
import dev.sluice.testing.PipeFactory;
import dev.sluice.testing.Requires;
import dev.sluice.testing.RequiresHook;
import dev.sluice.testing.TestPipes;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Deque;
import java.util.List;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.ShrinkingMode;
import net.jqwik.api.lifecycle.AddLifecycleHook;
import net.jqwik.api.statistics.Statistics;

/**
 * Random single-threaded sequences of writes, gifts, reads, splices and tees over three nonblocking pipes,
 * against a model of the slots each pipe holds (page offset, length, packet, CAN_MERGE), written from the
 * rules of linux-pipe.md §1.6 and §5 and {@link Splice}'s documentation. After every step the results, the
 * bytes read and each pipe's queued bytes and slots must agree. This is what pins down the bookkeeping of
 * partly read buffers, cut buffers, merges next to shared pages and packets travelling between pipes.
 */
@Requires(Capability.SPLICE)
@AddLifecycleHook(RequiresHook.class)
class SplicePropertyTest {
    private static final int PAGE = Pipe.PAGE_SIZE;

    /** One model slot: where its bytes sit in the page (for the merge rule), and the bytes. */
    private static final class Slot {
        int offset;
        byte[] bytes;
        boolean packet;
        boolean canMerge;

        Slot(int offset, byte[] bytes, boolean packet, boolean canMerge) {
            this.offset = offset;
            this.bytes = bytes;
            this.packet = packet;
            this.canMerge = canMerge;
        }
    }

    /** One model pipe. */
    private static final class Model {
        final Deque<Slot> slots = new ArrayDeque<>();
        final int maxSlots;

        Model(int maxSlots) {
            this.maxSlots = maxSlots;
        }

        boolean full() {
            return slots.size() >= maxSlots;
        }

        long queued() {
            return slots.stream().mapToLong(s -> s.bytes.length).sum();
        }

        /** A nonblocking write (pipe_write): merge the sub-page remainder first, then whole pages. */
        int write(byte[] data, boolean packet) {
            int done = 0;
            int chars = data.length % PAGE;
            Slot last = slots.peekLast();
            if (chars != 0 && last != null && last.canMerge && last.offset + last.bytes.length + chars <= PAGE) {
                last.bytes = concat(last.bytes, Arrays.copyOf(data, chars));
                done = chars;
            }
            while (done < data.length && !full()) {
                int n = Math.min(PAGE, data.length - done);
                slots.add(new Slot(0, Arrays.copyOfRange(data, done, done + n), packet, !packet));
                done += n;
            }
            return done;
        }

        int gift(byte[] data, boolean packet) {
            int done = 0;
            while (done < data.length && !full()) {
                int n = Math.min(PAGE, data.length - done);
                slots.add(new Slot(done, Arrays.copyOfRange(data, done, done + n), packet, false));
                done += n;
            }
            return done;
        }

        byte[] read(int max) {
            byte[] out = new byte[0];
            while (out.length < max && !slots.isEmpty()) {
                Slot s = slots.peekFirst();
                int n = Math.min(s.bytes.length, max - out.length);
                out = concat(out, Arrays.copyOf(s.bytes, n));
                if (s.packet || n == s.bytes.length) {
                    slots.removeFirst(); // a packet's unread rest is discarded
                } else {
                    s.bytes = Arrays.copyOfRange(s.bytes, n, s.bytes.length);
                    s.offset += n;
                }
                if (s.packet) {
                    break;
                }
            }
            return out;
        }

        /** splice (move) or tee (share) into {@code to}: whole slots while they fit; only a first one is cut. */
        long transfer(Model to, long max, boolean tee) {
            long done = 0;
            List<Slot> source = new ArrayList<>(slots);
            int i = 0;
            while (done < max && i < source.size() && !to.full()) {
                Slot s = source.get(i);
                int len = s.bytes.length;
                if (len <= max - done) {
                    if (tee) {
                        s.canMerge = false;
                        to.slots.add(new Slot(s.offset, s.bytes, s.packet, false));
                        i++;
                    } else {
                        slots.removeFirst();
                        to.slots.add(s); // moved whole: flags travel with it
                        i++;
                    }
                    done += len;
                } else {
                    if (done == 0) {
                        int n = (int) max;
                        s.canMerge = false;
                        to.slots.add(new Slot(s.offset, Arrays.copyOf(s.bytes, n), s.packet, false));
                        if (!tee) {
                            s.bytes = Arrays.copyOfRange(s.bytes, n, len);
                            s.offset += n;
                        }
                        done = n;
                    }
                    break;
                }
            }
            return done;
        }
    }

    private static byte[] concat(byte[] a, byte[] b) {
        byte[] c = Arrays.copyOf(a, a.length + b.length);
        System.arraycopy(b, 0, c, a.length, b.length);
        return c;
    }

    /** An operation: kind, pipe indices, a size, and a flag (packet mode, or a direct gift). */
    record Step(String kind, int from, int to, int size, boolean flag) {
    }

    /** {@return the pipes under test that splice, one drawn per try} */
    @Provide
    Arbitrary<PipeFactory> pipes() {
        return Arbitraries.of(TestPipes.underTest(Capability.AS_REQUESTED, Capability.SPLICE));
    }

    @Property(tries = 900, shrinking = ShrinkingMode.BOUNDED)
    void spliceTeeAndGiftsMatchTheModel(@ForAll("pipes") PipeFactory under, @ForAll("steps") List<Step> steps)
            throws IOException {
        int[] slotCounts = {4, 2, 8};
        Pipe[] pipes = new Pipe[3];
        Model[] models = new Model[3];
        for (int i = 0; i < 3; i++) {
            pipes[i] = under.open(under.options().capacity(slotCounts[i] * PAGE).nonBlocking(true).build());
            models[i] = new Model(slotCounts[i]);
        }
        int counter = 0;
        for (Step s : steps) {
            Pipe p = pipes[s.from()];
            Model m = models[s.from()];
            String where = "step " + s;
            switch (s.kind()) {
                case "write" -> {
                    byte[] data = data(s.size(), counter++);
                    p.writer().setPacketMode(s.flag());
                    int want = m.write(data, s.flag());
                    assertThat(p.writer().write(data)).as(where).isEqualTo(want);
                    Statistics.label("cases").collect(want == 0 ? "write: EAGAIN" : "write");
                }
                case "gift" -> {
                    byte[] data = data(s.size(), counter++);
                    ByteBuffer b = s.flag() ? ByteBuffer.allocateDirect(data.length) : ByteBuffer.allocate(data.length);
                    b.put(data).flip();
                    p.writer().setPacketMode(false);
                    assertThat(Splice.gift(p.writer(), b)).as(where).isEqualTo(m.gift(data, false));
                }
                case "read" -> {
                    byte[] want = m.read(s.size());
                    byte[] got = new byte[s.size()];
                    int n = p.reader().read(got);
                    assertThat(Arrays.copyOf(got, Math.max(n, 0))).as(where).isEqualTo(want);
                }
                case "splice", "tee" -> {
                    boolean tee = s.kind().equals("tee");
                    long want = m.transfer(models[s.to()], s.size(), tee);
                    long got = tee ? Splice.tee(p.reader(), pipes[s.to()].writer(), s.size())
                            : Splice.splice(p.reader(), pipes[s.to()].writer(), s.size());
                    assertThat(got).as(where).isEqualTo(want);
                    Statistics.label("cases").collect(s.kind() + (want == 0 ? ": EAGAIN" : want < s.size()
                            ? ": partial" : ""));
                }
                default -> throw new AssertionError(s.kind());
            }
            for (int i = 0; i < 3; i++) {
                assertThat(pipes[i].stat().bytesQueued()).as("%s: pipe %d queued bytes", where, i)
                        .isEqualTo(models[i].queued());
                assertThat(pipes[i].stat().slotsUsed()).as("%s: pipe %d slots", where, i)
                        .isEqualTo(models[i].slots.size());
            }
        }
        for (int i = 0; i < 3; i++) { // drain: every byte still matches
            byte[] want = models[i].read(Integer.MAX_VALUE);
            while (!models[i].slots.isEmpty()) {
                want = concat(want, models[i].read(Integer.MAX_VALUE));
            }
            byte[] got = ByteBuffer.allocate(0).array();
            byte[] buf = new byte[64 * 1024];
            for (int n; (n = pipes[i].reader().read(buf)) > 0; ) {
                got = concat(got, Arrays.copyOf(buf, n));
            }
            assertThat(got).as("pipe %d drained", i).isEqualTo(want);
        }
    }

    private static byte[] data(int n, int tag) {
        byte[] b = new byte[n];
        for (int i = 0; i < n; i++) {
            b[i] = (byte) (tag * 7 + i * 13 + (i >> 8));
        }
        return b;
    }

    @Provide
    Arbitrary<List<Step>> steps() {
        Arbitrary<Integer> pipe = Arbitraries.integers().between(0, 2);
        Arbitrary<Integer> size = Arbitraries.oneOf(
                Arbitraries.integers().between(1, 200),
                Arbitraries.integers().between(3000, 5000),
                Arbitraries.of(PAGE - 1, PAGE, PAGE + 1, 2 * PAGE, 3 * PAGE + 7),
                Arbitraries.integers().between(1, 20000));
        Arbitrary<String> kind = Arbitraries.frequencyOf(
                net.jqwik.api.Tuple.of(4, Arbitraries.just("write")),
                net.jqwik.api.Tuple.of(1, Arbitraries.just("gift")),
                net.jqwik.api.Tuple.of(3, Arbitraries.just("read")),
                net.jqwik.api.Tuple.of(3, Arbitraries.just("splice")),
                net.jqwik.api.Tuple.of(2, Arbitraries.just("tee")));
        Arbitrary<Step> step = net.jqwik.api.Combinators.combine(kind, pipe, pipe, size, Arbitraries.of(false, true))
                .as((k, f, t, n, flag) -> new Step(k, f, t, n, flag))
                .filter(s -> !(s.kind().equals("splice") || s.kind().equals("tee")) || s.from() != s.to());
        return step.list().ofMinSize(1).ofMaxSize(40);
    }
}
