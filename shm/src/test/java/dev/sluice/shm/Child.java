package dev.sluice.shm;

import dev.sluice.BrokenPipeException;
import dev.sluice.PipeEnd;
import dev.sluice.ReadEnd;
import dev.sluice.WriteEnd;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.zip.CRC32;

/**
 * The peer process of the cross-process tests, a JVM of its own ({@link ChildJvm} starts it). Modes:
 * <ul>
 *   <li>{@code write PATH WRITER COUNT [packet]}: claims a write handle and writes COUNT records (-1: until
 *       killed), in packet mode if asked; exits with {@value #EXIT_EPIPE} on broken pipe;</li>
 *   <li>{@code read PATH}: claims a read handle and reads packets to end-of-stream, each one whole record
 *       ({@link Records#verify}), each writer's in order; then prints, per writer, {@code WRITER BITSET} (the
 *       record numbers read, {@link BitSet} bytes in Base64) and {@code end}; exits with
 *       {@value #EXIT_BAD_RECORD} at a bad record;</li>
 *   <li>{@code stall PATH}: claims a read handle and never reads;</li>
 *   <li>{@code hold PATH}: attaches (a read and a write handle, an entry it registers itself), prints
 *       {@code attached}, and never uses them;</li>
 *   <li>{@code copy IN OUT}: claims IN's read handle and OUT's write handle, copies until end-of-stream;</li>
 *   <li>{@code serve}: runs the commands of its standard input, a line each, and answers each with a line
 *       ({@link #command}), until its standard input ends.</li>
 * </ul>
 */
public final class Child {
    static final int EXIT_EPIPE = 3;
    static final int EXIT_BAD_RECORD = 4;
    private static final Duration WAIT = Duration.ofSeconds(30);

    private Child() {
    }

    public static void main(String[] args) throws Exception {
        switch (args[0]) {
            case "write" -> write(ShmPipe.claim(Path.of(args[1]), WAIT), Integer.parseInt(args[2]),
                    Long.parseLong(args[3]), args.length > 4 && args[4].equals("packet"));
            case "read" -> read(ShmPipe.claim(Path.of(args[1]), WAIT).reader(), System.out);
            case "stall" -> {
                ShmPipe p = ShmPipe.claim(Path.of(args[1]), WAIT);
                if (!p.reader().isOpen()) {
                    throw new IllegalStateException("no read handle was handed over");
                }
                Thread.sleep(Long.MAX_VALUE);
            }
            case "hold" -> {
                ShmPipe p = ShmPipe.attach(Path.of(args[1]));
                System.out.println("attached " + p.stat().writers());
                System.out.flush();
                Thread.sleep(Long.MAX_VALUE);
            }
            case "copy" -> {
                ShmPipe in = ShmPipe.claim(Path.of(args[1]), WAIT);
                ShmPipe out = ShmPipe.claim(Path.of(args[2]), WAIT);
                copy(in.reader(), out.writer());
            }
            case "serve" -> serve(new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8)),
                    System.out);
            default -> throw new IllegalArgumentException(args[0]);
        }
    }

    private static void write(ShmPipe p, int writer, long count, boolean packet) throws IOException {
        try (WriteEnd out = p.writer()) {
            out.setPacketMode(packet);
            for (int seq = 0; count < 0 || seq < count; seq++) {
                out.write(Records.make(writer, seq));
            }
        } catch (BrokenPipeException e) {
            System.exit(EXIT_EPIPE);
        }
    }

    /** Reads whole-record packets to end-of-stream and prints which records of which writer it read. */
    private static void read(ReadEnd in, PrintStream out) throws IOException {
        Records.Tally got;
        try (in) {
            got = Records.Tally.readPackets(in, t -> { });
        } catch (AssertionError e) {
            System.err.println("child reader: " + e.getMessage());
            System.exit(EXIT_BAD_RECORD);
            return;
        }
        got.lines().forEach(out::println);
        out.println("end");
        out.flush();
    }

    private static void copy(ReadEnd in, WriteEnd out) throws IOException {
        try (in; out) {
            byte[] buf = new byte[5000];
            for (int n; (n = in.read(buf)) != -1; ) {
                out.write(buf, 0, n);
            }
        } catch (IOException e) {
            System.err.println("child copy failed: " + e);
            throw e;
        }
    }

    private static void serve(BufferedReader in, PrintStream out) throws IOException {
        List<ShmPipe> pipes = new ArrayList<>();
        for (String line; (line = in.readLine()) != null; ) {
            String reply;
            try {
                reply = command(line.split(" "), pipes);
            } catch (BrokenPipeException e) {
                reply = "epipe " + e.bytesTransferred();
            } catch (IOException | RuntimeException e) {
                reply = "error " + e;
            }
            out.println(reply);
            out.flush();
        }
    }

    /**
     * Runs one command of {@code serve} mode. K is the number {@code claim} answered for a pipe; SIDE is
     * {@code r} or {@code w}.
     * <ul>
     *   <li>{@code claim PATH}: claims what was handed over; answers {@code K}, then {@code r} and {@code w} for
     *       the sides it holds;</li>
     *   <li>{@code read K N}: blocking reads until N bytes or end-of-stream; answers {@code got BYTES CRC32},
     *       and {@code eof} if it met end-of-stream;</li>
     *   <li>{@code write K N}: one blocking write of N bytes of {@link #pattern}; answers {@code wrote N}, or
     *       {@code epipe BYTES} on broken pipe;</li>
     *   <li>{@code records K WRITER COUNT}: writes COUNT records, a write each; answers {@code wrote COUNT};</li>
     *   <li>{@code close K SIDE}: closes the handle; answers {@code closed}.</li>
     * </ul>
     */
    static String command(String[] a, List<ShmPipe> pipes) throws IOException {
        if (a[0].equals("claim")) {
            ShmPipe p = ShmPipe.claim(Path.of(a[1]), WAIT);
            pipes.add(p);
            return (pipes.size() - 1) + (p.reader().isOpen() ? " r" : "") + (p.writer().isOpen() ? " w" : "");
        }
        ShmPipe p = pipes.get(Integer.parseInt(a[1]));
        switch (a[0]) {
            case "read":
                return read(p.reader(), Integer.parseInt(a[2]));
            case "write":
                return "wrote " + p.writer().write(pattern(Integer.parseInt(a[2])));
            case "records":
                int writer = Integer.parseInt(a[2]);
                int count = Integer.parseInt(a[3]);
                for (int seq = 0; seq < count; seq++) {
                    p.writer().write(Records.make(writer, seq));
                }
                return "wrote " + count;
            case "close":
                PipeEnd end = a[2].equals("r") ? p.reader() : p.writer();
                end.close();
                return "closed";
            default:
                throw new IllegalArgumentException("unknown command " + a[0]);
        }
    }

    private static String read(ReadEnd in, int want) throws IOException {
        CRC32 crc = new CRC32();
        byte[] buf = new byte[8192];
        int got = 0;
        while (got < want) {
            int n = in.read(buf, 0, Math.min(buf.length, want - got));
            if (n == -1) {
                return "got " + got + " " + crc.getValue() + " eof";
            }
            crc.update(buf, 0, n);
            got += n;
        }
        return "got " + got + " " + crc.getValue();
    }

    /** @return {@code n} bytes that tell their own offsets apart ({@code (byte) (i * 31 + i / 255)}) */
    static byte[] pattern(int n) {
        byte[] b = new byte[n];
        for (int i = 0; i < n; i++) {
            b[i] = (byte) (i * 31 + i / 255);
        }
        return b;
    }

    /** @return the CRC32 {@code read} answers for the first {@code n} bytes of {@link #pattern} */
    static long patternCrc(int n) {
        CRC32 crc = new CRC32();
        crc.update(pattern(n));
        return crc.getValue();
    }
}
