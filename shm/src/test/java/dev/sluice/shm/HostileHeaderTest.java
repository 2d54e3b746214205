package dev.sluice.shm;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.sluice.PipeOptions;
import java.io.IOException;
import java.lang.foreign.ValueLayout;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A peer (or anyone who can write the file) is trusted with the bytes in the pipe, never with this process's
 * memory: a header or shared state that is wrong gives a {@link ShmPipeFormatException} that says what is
 * wrong, and nothing is read or written outside the mapping.
 */
class HostileHeaderTest {
    /** Header fields: offset and width. */
    private static final long[][] FIELDS = {
        {Layout.OFF_MAGIC, 8}, {Layout.OFF_VERSION, 4}, {Layout.OFF_PAGE, 4}, {Layout.OFF_SLOTS, 4},
        {Layout.OFF_PROCS, 4}, {Layout.OFF_TOTAL, 8}, {Layout.OFF_UID, 4}, {Layout.OFF_PIDNS, 8},
    };

    @Test
    void randomlyCorruptedHeaderFieldsAreRefusedWithAReason() throws IOException {
        Random rnd = new Random(0x5EED);
        int refused = 0;
        for (int i = 0; i < 400; i++) {
            try (ShmPipe a = ShmPipe.create(PipeOptions.builder().capacity(8192).build())) {
                long[] f = FIELDS[rnd.nextInt(FIELDS.length)];
                long value = switch (rnd.nextInt(4)) {
                    case 0 -> rnd.nextLong();
                    case 1 -> rnd.nextInt(5) - 2;                                  // around zero
                    case 2 -> a.region.seg.get(ValueLayout.JAVA_INT, f[0]) + (rnd.nextBoolean() ? 1 : -1);
                    default -> 1L << rnd.nextInt(63);                               // powers of two
                };
                if (f[1] == 8) {
                    a.region.seg.set(ValueLayout.JAVA_LONG, f[0], value);
                } else {
                    a.region.seg.set(ValueLayout.JAVA_INT, f[0], (int) value);
                }
                try (ShmPipe b = ShmPipe.attach(a.path())) {
                    // The corruption happened to be harmless (e.g. the same value): the pipe must then work.
                    b.writer().write(new byte[] {42});
                    assertThat(a.reader().read(new byte[1])).isEqualTo(1);
                } catch (ShmPipeFormatException e) {
                    assertThat(e.getMessage()).contains(a.path().toString());
                    refused++;
                }
            }
        }
        assertThat(refused).isGreaterThan(300);
    }

    @Test
    void corruptSharedStateEndsTheCallNotTheProcess() throws IOException {
        long[][] pokes = {
            {Layout.HEAD, 1000},                                          // head and tail far apart
            {Layout.TAIL, 1000},                                          // the tail past the head
            {Layout.HEAD, 1, 1},                                          // a slot word that is too long
            {Layout.entry(0) + Layout.E_COUNTS, -5L},                    // a negative handle count
        };
        for (long[] poke : pokes) {
            try (ShmPipe a = ShmPipe.create(PipeOptions.builder().capacity(8192).build())) {
                if (poke.length > 2) {
                    a.region.setInt(a.region.layout.slotWord(0), Region.slotWord(4000, 500, 0));
                }
                if (poke[0] == Layout.HEAD || poke[0] == Layout.TAIL) {
                    a.region.setInt(poke[0], (int) poke[1]);
                } else {
                    a.region.setLong(poke[0], poke[1]);
                }
                a.reader().setNonBlocking(true); // a count is only read when HANDLES is recomputed (the dup)
                assertThatThrownBy(() -> {
                    a.reader().read(new byte[10]);
                    a.writer().dup().close();
                }).isInstanceOf(ShmPipeFormatException.class).hasMessageContaining("corrupt");
            }
        }
    }

    @Test
    void aLockWordNamingNoEntryIsCorrupt() throws IOException {
        try (ShmPipe a = ShmPipe.create()) {
            a.region.setInt(Layout.LOCK, 0x7F); // entry 126 of 64
            assertThatThrownBy(() -> a.writer().dup()).isInstanceOf(ShmPipeFormatException.class)
                    .hasMessageContaining("lock");
            a.region.setInt(Layout.LOCK, 0);
        }
    }

    @Test
    void filesThatAreNotPipesAreRefused(@TempDir Path dir) throws IOException {
        Path empty = Files.createFile(dir.resolve("empty"), PosixFilePermissions.asFileAttribute(
                PosixFilePermissions.fromString("rw-------")));
        assertThatThrownBy(() -> ShmPipe.attach(empty)).isInstanceOf(ShmPipeFormatException.class)
                .hasMessageContaining("not a Sluice");
        assertThatThrownBy(() -> ShmPipe.attach(dir)).isInstanceOf(IOException.class);
        assertThatThrownBy(() -> ShmPipe.attach(dir.resolve("missing"))).isInstanceOf(IOException.class)
                .hasMessageContaining("ENOENT");
        Path junk = dir.resolve("junk");
        Files.write(junk, new byte[3 * 4096]);
        Files.setPosixFilePermissions(junk, PosixFilePermissions.fromString("rw-------"));
        assertThatThrownBy(() -> ShmPipe.attach(junk)).isInstanceOf(ShmPipeFormatException.class)
                .hasMessageContaining("magic");
    }

    @Test
    void aTruncatedOrOpenFileIsRefused(@TempDir Path dir) throws IOException {
        Path f = dir.resolve("pipe");
        try (ShmPipe a = ShmPipe.create(f, PipeOptions.defaults())) {
            assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(f))).isEqualTo("rw-------");
            try (ShmPipe b = ShmPipe.attach(f)) {
                assertThat(b.stat().readers()).isEqualTo(2);
            }
            Files.setPosixFilePermissions(f, PosixFilePermissions.fromString("rw-rw-rw-"));
            assertThatThrownBy(() -> ShmPipe.attach(f)).isInstanceOf(ShmPipeFormatException.class)
                    .hasMessageContaining("other users");
            Files.setPosixFilePermissions(f, PosixFilePermissions.fromString("rw-------"));
            try (FileChannel ch = FileChannel.open(f, StandardOpenOption.WRITE)) {
                ch.truncate(a.region.layout.totalBytes - 4096);
            }
            assertThatThrownBy(() -> ShmPipe.attach(f)).isInstanceOf(ShmPipeFormatException.class)
                    .hasMessageContaining("truncated");
        }
        assertThatThrownBy(() -> ShmPipe.create(f, PipeOptions.defaults()))
                .isInstanceOf(java.nio.file.FileAlreadyExistsException.class);
    }

    @Test
    void anotherUsersFileIsRefused(@TempDir Path dir) throws IOException {
        Path f = dir.resolve("pipe");
        try (ShmPipe a = ShmPipe.create(f, PipeOptions.defaults())) {
            try {
                Files.setAttribute(f, "unix:uid", 54321); // needs root
            } catch (IOException | SecurityException e) {
                org.junit.jupiter.api.Assumptions.abort("cannot give the file to another user here: " + e);
            }
            assertThatThrownBy(() -> ShmPipe.attach(f)).isInstanceOf(ShmPipeFormatException.class)
                    .hasMessageContaining("belongs to user 54321");
        }
    }

    @Test
    void aMemfdCannotBeResizedByAPeer() throws IOException {
        try (ShmPipe a = ShmPipe.create()) {
            try (FileChannel ch = FileChannel.open(a.path(), StandardOpenOption.WRITE)) {
                assertThatThrownBy(() -> ch.truncate(4096)).isInstanceOf(IOException.class);
            }
        }
    }
}
