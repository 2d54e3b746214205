package dev.sluice;

import static dev.sluice.ConformanceSupport.pattern;
import static dev.sluice.ConformanceSupport.readFully;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.channels.WritableByteChannel;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Pipes whose pages are direct memory ({@link PageMemory#DIRECT}): the channel gets the pages' own direct
 * memory, and pages of both kinds mix in one pipe through splice and tee, byte for byte. (Reads and writes of
 * every shape on direct pages, allocation-free, are in {@link Rule09PagePoolTest}; splice and tee across the
 * two kinds without allocating, in {@link SpliceAllocationTest}; the whole conformance suite runs on direct
 * pages in the build's {@code direct-pages} execution.)
 */
class DirectPagesTest {

    /** A channel that keeps what it is given and whether each buffer it was handed was direct memory. */
    private static final class Recording implements WritableByteChannel {
        final ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        final List<Boolean> direct = new ArrayList<>();

        @Override
        public int write(ByteBuffer src) {
            direct.add(src.isDirect());
            int n = src.remaining();
            byte[] b = new byte[n];
            src.get(b);
            bytes.write(b, 0, n);
            return n;
        }

        @Override
        public boolean isOpen() {
            return true;
        }

        @Override
        public void close() {
        }
    }

    @ParameterizedTest
    @EnumSource(PageMemory.class)
    void aChannelIsHandedThePagesOwnMemory(PageMemory memory) throws Exception {
        Pipe p = Pipe.open(PipeOptions.builder().pageMemory(memory).build());
        byte[] data = pattern(3 * 4096 + 5);
        p.writer().write(data);
        Recording ch = new Recording();
        assertThat(Splice.transferTo(p.reader(), ch, Long.MAX_VALUE)).isEqualTo(data.length);
        assertThat(ch.bytes.toByteArray()).isEqualTo(data);
        assertThat(ch.direct).as("one buffer per page, each of the pipe's memory").hasSize(4)
                .containsOnly(memory == PageMemory.DIRECT);
        assertThat(p.options().pageMemory()).isEqualTo(memory);
    }

    @Test
    void pagesOfBothKindsMixInOnePipeAndKeepTheirMemory() throws Exception {
        Pipe heap = Pipe.open(PipeOptions.builder().pageMemory(PageMemory.HEAP).build());
        Pipe direct = Pipe.open(PipeOptions.builder().pageMemory(PageMemory.DIRECT).build());
        Pipe teed = Pipe.open(PipeOptions.builder().pageMemory(PageMemory.HEAP).build());
        byte[] first = pattern(4096 + 100); // two heap pages, the second mergeable
        heap.writer().write(first);
        assertThat(Splice.splice(heap.reader(), direct.writer(), Long.MAX_VALUE)).isEqualTo(first.length);
        byte[] merged = ConformanceSupport.filled(10, 0x33); // lands in the heap page, now in the direct pipe
        direct.writer().write(merged);
        byte[] last = ConformanceSupport.filled(2 * 4096, 0x44); // page-sized: no merge, two fresh direct pages
        direct.writer().write(last);
        assertThat(direct.stat().slotsUsed()).as("the merge used no new slot").isEqualTo(4);
        byte[] all = concat(first, merged, last);
        assertThat(Splice.tee(direct.reader(), teed.writer(), Long.MAX_VALUE)).isEqualTo(all.length);

        assertThat(readFully(teed.reader(), all.length)).isEqualTo(all);
        Recording ch = new Recording();
        assertThat(Splice.transferTo(direct.reader(), ch, Long.MAX_VALUE)).isEqualTo(all.length);
        assertThat(ch.bytes.toByteArray()).isEqualTo(all);
        assertThat(ch.direct).as("each page in the memory it was born in").containsExactly(false, false, true, true);
    }

    @Test
    void theOptionIsValidatedAndShown() {
        assertThatThrownBy(() -> PipeOptions.builder().pageMemory(null)).isInstanceOf(NullPointerException.class);
        PipeOptions o = PipeOptions.builder().pageMemory(PageMemory.DIRECT).build();
        assertThat(o.toString()).contains("pageMemory=direct");
        assertThat(o.toBuilder().build()).isEqualTo(o).hasSameHashCodeAs(o);
        assertThat(o).isNotEqualTo(o.toBuilder().pageMemory(PageMemory.HEAP).build());
        assertThat(PipeOptions.DEFAULT_PAGE_MEMORY).isEqualTo(PageMemory.HEAP);
        assertThat(dev.sluice.policy.Aliased.parse(PageMemory.class, "Direct", "sluice.pageMemory"))
                .isEqualTo(PageMemory.DIRECT);
    }

    private static byte[] concat(byte[]... parts) {
        byte[] out = new byte[0];
        for (byte[] p : parts) {
            int at = out.length;
            out = Arrays.copyOf(out, at + p.length);
            System.arraycopy(p, 0, out, at, p.length);
        }
        return out;
    }
}
