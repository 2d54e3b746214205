package dev.sluice.crossjvm;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** A child JVM per case: echo and sink over every transport, a wrong byte found, and the lifeline. */
class PeerTest {

    @ParameterizedTest
    @EnumSource(Transport.class)
    void echoesEveryByteAndItsStreamThenExits(Transport t) throws Exception {
        Peer p = Peer.start(t, Role.ECHO);
        try (p) {
            byte[] b = new byte[1];
            for (int i = 0; i < 2000; i++) {
                b[0] = (byte) i;
                p.write(b, 0, 1);
                assertThat(p.readFully(b, 0, 1)).isTrue();
                assertThat(b[0]).isEqualTo((byte) i);
            }
            byte[] big = new byte[100_000];
            System.arraycopy(Pattern.bytes(), 0, big, 0, big.length);
            p.write(big, 0, 50_000); // the ring's messages must fit the child's 64 KiB reads
            p.write(big, 50_000, 50_000);
            byte[] back = new byte[big.length];
            assertThat(p.readFully(back, 0, back.length)).isTrue();
            assertThat(back).isEqualTo(big);
            p.closeOutput();
            assertThat(p.read(b, 0, 1)).as("the child closes its side at end-of-stream").isEqualTo(-1);
        }
        assertThat(ProcessHandle.of(p.pid()).map(ProcessHandle::isAlive)).isIn(Optional.empty(), Optional.of(false));
    }

    @ParameterizedTest
    @EnumSource(Transport.class)
    void aSinkChecksAndCountsTheStream(Transport t) throws Exception {
        try (Peer p = Peer.start(t, Role.SINK)) {
            long pos = 0;
            for (int size : new int[] {1, 4096, 65536, 50_000}) {
                for (int i = 0; i < 40; i++) {
                    p.write(Pattern.bytes(), Pattern.offset(pos), size);
                    pos += size;
                }
            }
            assertThat(p.finish()).isEqualTo(pos).isEqualTo(p.sent());
            assertThat(p.childCpuNanos()).as("its JVM start alone takes CPU").isPositive();
        }
    }

    @Test
    void aSinkReportsAWrongByte() throws Exception {
        try (Peer p = Peer.start(Transport.SHM, Role.SINK)) {
            byte[] b = Pattern.bytes().clone();
            b[5000] ^= 1;
            p.write(b, 0, 10_000);
            assertThatThrownBy(p::finish).hasMessageContaining("wrong byte at stream offset 5000");
        }
    }

    @Test
    void aChildDiesWithItsParent() throws Exception {
        Process parent = new ProcessBuilder(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Xmx64m", "--enable-native-access=ALL-UNNAMED", "-cp", System.getProperty("java.class.path"),
                Orphaner.class.getName())).redirectError(ProcessBuilder.Redirect.INHERIT).start();
        long childPid;
        try (BufferedReader out = new BufferedReader(new InputStreamReader(parent.getInputStream(),
                StandardCharsets.UTF_8))) {
            childPid = Long.parseLong(out.readLine().trim());
            ProcessHandle child = ProcessHandle.of(childPid).orElseThrow();
            assertThat(child.isAlive()).isTrue();
            parent.destroyForcibly(); // SIGKILL: no shutdown hook, nothing closes anything
            assertThat(parent.waitFor(10, TimeUnit.SECONDS)).isTrue();
            child.onExit().get(10, TimeUnit.SECONDS);
            assertThat(child.isAlive()).isFalse();
        } finally {
            parent.destroyForcibly();
        }
    }

    /** The parent killed by {@link #aChildDiesWithItsParent}: starts an echo peer, prints its pid, waits. */
    static final class Orphaner {
        public static void main(String[] args) throws IOException, InterruptedException {
            Peer p = Peer.start(Transport.SHM, Role.ECHO);
            System.out.println(p.pid());
            System.out.flush();
            Thread.sleep(60_000);
        }
    }

    @Test
    void unknownNamesAreRefused() {
        assertThat(Transport.parse(" SHM ")).isEqualTo(Transport.SHM);
        assertThatThrownBy(() -> Transport.parse("tcp")).hasMessageContaining("shm, kernel, uds, agrona");
    }

}
