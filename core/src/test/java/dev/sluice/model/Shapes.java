package dev.sluice.model;

import dev.sluice.ReadEnd;
import dev.sluice.WriteEnd;
import dev.sluice.testing.BufferChecks;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.SplittableRandom;

import static dev.sluice.testing.BufferChecks.checkMoved;
import static dev.sluice.testing.BufferChecks.consumed;
import static dev.sluice.testing.BufferChecks.positions;
import static dev.sluice.testing.BufferChecks.reported;

/**
 * Reads and writes through the API's different shapes (array, heap buffer, direct buffer, gathering or
 * scattering buffer array), which must all behave alike; each also checks that the buffers advanced by
 * exactly the bytes the call reported, whether it returned or threw.
 */
final class Shapes {
    private Shapes() {
    }

    private static ByteBuffer[] split(byte[] b, long seed) {
        return BufferChecks.split(b, 0, b.length, new SplittableRandom(seed));
    }

    static int write(WriteEnd out, byte[] data, int shape, long seed) throws IOException {
        switch (shape) {
            case 1, 2 -> {
                ByteBuffer bb = shape == 1 ? ByteBuffer.wrap(data) : ByteBuffer.allocateDirect(data.length).put(data)
                        .flip();
                try {
                    int n = out.write(bb);
                    checkMoved("write(ByteBuffer)", bb.position(), n);
                    return n;
                } catch (IOException e) {
                    checkMoved("failed write(ByteBuffer)", bb.position(), reported(e));
                    throw e;
                }
            }
            case 3 -> {
                ByteBuffer[] bs = split(data, seed);
                int[] start = positions(bs);
                try {
                    long n = out.write(bs, 1, bs.length - 2);
                    checkMoved("gathering write", consumed(bs, start), n);
                    return (int) n;
                } catch (IOException e) {
                    checkMoved("failed gathering write", consumed(bs, start), reported(e));
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
                checkMoved("read(ByteBuffer)", bb.position(), Math.max(n, 0));
                return n;
            }
            case 2 -> {
                ByteBuffer d = ByteBuffer.allocateDirect(b.length);
                int n = in.read(d);
                checkMoved("read(direct ByteBuffer)", d.position(), Math.max(n, 0));
                d.flip().get(b, 0, d.remaining());
                return n;
            }
            case 3 -> {
                ByteBuffer[] bs = split(b, seed);
                int[] start = positions(bs);
                long n = in.read(bs, 1, bs.length - 2);
                checkMoved("scattering read", consumed(bs, start), Math.max(n, 0));
                return (int) n;
            }
            default -> {
                return in.read(b, 0, b.length);
            }
        }
    }
}
