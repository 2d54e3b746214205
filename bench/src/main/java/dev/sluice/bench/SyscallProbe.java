package dev.sluice.bench;

import java.io.FileOutputStream;
import java.lang.management.ManagementFactory;

/**
 * Not a benchmark: streams bytes through the kernel module's pipe or NIO's (one platform writer, one platform
 * reader with a 64 KiB buffer), three windows of warm-up, then one measured window, and prints the writes and
 * reads of that window and the bytes each side allocated per call (the thread's allocation counter), with the
 * kernel pipe's counters (waits). Given a perf control fifo, it enables perf's counters for the measured
 * window only, so system calls can be counted per write:
 *
 * <pre>{@code
 * mkfifo /tmp/ctl /tmp/ack
 * perf stat -D -1 --control fifo:/tmp/ctl,/tmp/ack \
 *     -e 'syscalls:sys_enter_read,syscalls:sys_enter_write,syscalls:sys_enter_poll,syscalls:sys_enter_futex' \
 *     java --enable-native-access=ALL-UNNAMED -cp bench/target/benchmarks.jar dev.sluice.bench.SyscallProbe \
 *     kernel 100 100000000 /tmp/ctl
 * }</pre>
 *
 * Arguments: {@code kernel} or {@code nio}, writeSize, bytes per window, optionally the perf control fifo;
 * {@code -Dbusy=2} adds busy threads as the benchmarks' {@code busy} does.
 */
public final class SyscallProbe {
    private SyscallProbe() {
    }

    /**
     * Runs the windows and prints one line (and the kernel pipe's counters).
     *
     * @param args kind, writeSize, bytes per window, [perf control fifo]
     * @throws Exception if the pipe fails
     */
    public static void main(String[] args) throws Exception {
        Transport t = args[0].equals("kernel") ? Transport.kernel() : Transport.nio();
        int ws = Integer.parseInt(args[1]);
        long bytes = Long.parseLong(args[2]);
        var mx = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        long[] reads = new long[3]; // reads in the window, allocated bytes at its start and end
        Thread reader = Thread.ofPlatform().start(() -> readAll(t, bytes, mx, reads));
        byte[] data = new byte[ws];
        for (int w = 0; w < 3; w++) {
            write(t, data, ws, bytes);
        }
        Busy busy = Busy.start(Integer.getInteger("busy", 0));
        dev.sluice.Pipe kp = t instanceof Transport.Sluice ts ? ts.pipe : null;
        if (kp != null) {
            kp.resetCounters();
        }
        FileOutputStream perf = args.length > 3 ? new FileOutputStream(args[3]) : null;
        control(perf, "enable");
        long a0 = mx.getCurrentThreadAllocatedBytes();
        long t0 = System.nanoTime();
        long writes = write(t, data, ws, bytes);
        long t1 = System.nanoTime();
        long a1 = mx.getCurrentThreadAllocatedBytes();
        Thread.sleep(200); // the reader drains the window
        control(perf, "disable");
        if (kp != null) {
            System.out.println(kp.counters());
        }
        busy.stop();
        write(t, data, ws, bytes); // ends the reader's window if it has not ended
        t.closeWriter();
        reader.join();
        System.out.printf("%s %d B: %.0f MB/s, %d writes, %d reads, writer %.3f B/write, reader %.3f B/read%n",
                args[0], ws, bytes * 1e3 / (t1 - t0), writes, reads[0], (double) (a1 - a0) / writes,
                (double) (reads[2] - reads[1]) / reads[0]);
        t.close();
    }

    private static void control(FileOutputStream perf, String command) throws Exception {
        if (perf != null) {
            perf.write((command + "\n").getBytes(java.nio.charset.StandardCharsets.US_ASCII));
            perf.flush();
        }
    }

    /** Reads to the end; the fourth window (after three of warm-up) is measured. */
    private static void readAll(Transport t, long bytes, com.sun.management.ThreadMXBean mx, long[] out) {
        byte[] buf = new byte[65536];
        try {
            long n = 0;
            long start = 3 * bytes;
            boolean in = false;
            for (int r; (r = t.read(buf, 0, buf.length)) >= 0; ) {
                n += r;
                if (!in && n >= start) {
                    in = true;
                    out[1] = mx.getCurrentThreadAllocatedBytes();
                } else if (in) {
                    out[0]++;
                    if (n >= start + bytes) {
                        out[2] = mx.getCurrentThreadAllocatedBytes();
                        in = false;
                        start = Long.MAX_VALUE;
                    }
                }
            }
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    private static long write(Transport t, byte[] data, int ws, long bytes) throws Exception {
        long writes = 0;
        for (long left = bytes; left > 0; left -= ws) {
            t.write(data, 0, (int) Math.min(ws, left));
            writes++;
        }
        return writes;
    }
}
