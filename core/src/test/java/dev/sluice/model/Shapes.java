package dev.sluice.model;

import dev.sluice.BrokenPipeException;
import dev.sluice.ReadEnd;
import dev.sluice.WriteEnd;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.nio.ByteBuffer;
import java.util.SplittableRandom;

/**
 * Reads and writes through the API's different shapes (array, heap buffer, direct buffer, gathering or
 * scattering buffer array), which must all behave alike; each also checks that the buffers advanced by
 * exactly the bytes the call reported, whether it returned or threw.
 */
final class Shapes {
    private Shapes() {
    }

    private static ByteBuffer[] split(byte[] b, long seed) {
        SplittableRandom rnd = new SplittableRandom(seed);
        int parts = 1 + rnd.nextInt(3);
        ByteBuffer[] bs = new ByteBuffer[parts + 2];
        bs[0] = ByteBuffer.allocate(0);
        bs[parts + 1] = ByteBuffer.allocate(0);
        int at = 0;
        for (int i = 1; i <= parts; i++) {
            int n = i == parts ? b.length - at : rnd.nextInt(b.length - at + 1);
            bs[i] = ByteBuffer.wrap(b, at, n);
            at += n;
        }
        return bs;
    }

    private static long consumed(ByteBuffer[] bs, int[] start) {
        long sum = 0;
        for (int i = 0; i < bs.length; i++) {
            sum += bs[i].position() - start[i];
        }
        return sum;
    }

    private static int[] positions(ByteBuffer[] bs) {
        int[] p = new int[bs.length];
        for (int i = 0; i < bs.length; i++) {
            p[i] = bs[i].position();
        }
        return p;
    }

    private static long reported(IOException e) {
        if (e instanceof BrokenPipeException b) {
            return b.bytesTransferred();
        }
        if (e instanceof InterruptedIOException i) {
            return i.bytesTransferred;
        }
        return 0;
    }

    private static void check(String what, long moved, long reported) {
        if (moved != reported) {
            throw new AssertionError(what + ": buffers advanced by " + moved + " bytes, the call reported " + reported);
        }
    }

    static int write(WriteEnd out, byte[] data, int shape, long seed) throws IOException {
        switch (shape) {
            case 1, 2 -> {
                ByteBuffer bb = shape == 1 ? ByteBuffer.wrap(data) : ByteBuffer.allocateDirect(data.length).put(data).flip();
                try {
                    int n = out.write(bb);
                    check("write(ByteBuffer)", bb.position(), n);
                    return n;
                } catch (IOException e) {
                    check("failed write(ByteBuffer)", bb.position(), reported(e));
                    throw e;
                }
            }
            case 3 -> {
                ByteBuffer[] bs = split(data, seed);
                int[] start = positions(bs);
                try {
                    long n = out.write(bs, 1, bs.length - 2);
                    check("gathering write", consumed(bs, start), n);
                    return (int) n;
                } catch (IOException e) {
                    check("failed gathering write", consumed(bs, start), reported(e));
                    throw e;
                }
            }
            default -> {
                return out.write(data);
            }
        }
    }

    static int read(ReadEnd in, byte[] b, int shape, long seed) throws IOException {
        switch (shape) {
            case 1 -> {
                ByteBuffer bb = ByteBuffer.wrap(b);
                int n = in.read(bb);
                check("read(ByteBuffer)", bb.position(), Math.max(n, 0));
                return n;
            }
            case 2 -> {
                ByteBuffer d = ByteBuffer.allocateDirect(b.length);
                int n = in.read(d);
                check("read(direct ByteBuffer)", d.position(), Math.max(n, 0));
                d.flip().get(b, 0, d.remaining());
                return n;
            }
            case 3 -> {
                ByteBuffer[] bs = split(b, seed);
                int[] start = positions(bs);
                long n = in.read(bs, 1, bs.length - 2);
                check("scattering read", consumed(bs, start), Math.max(n, 0));
                return (int) n;
            }
            default -> {
                return in.read(b, 0, b.length);
            }
        }
    }
}
