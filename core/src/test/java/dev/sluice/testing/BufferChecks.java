package dev.sluice.testing;

import dev.sluice.BrokenPipeException;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.nio.ByteBuffer;
import java.util.SplittableRandom;

/**
 * What the stress and model suites need to drive scattering and gathering calls and to check that buffers
 * advanced by exactly the bytes a call reported, whether it returned or threw.
 */
public final class BufferChecks {
    private BufferChecks() {
    }

    /**
     * Splits {@code [off, off+len)} of {@code b} into 1..3 buffers (some may be empty), with an empty buffer
     * on each side, so gathering and scattering calls meet empty and uneven buffers.
     */
    public static ByteBuffer[] split(byte[] b, int off, int len, SplittableRandom rnd) {
        int parts = 1 + rnd.nextInt(3);
        ByteBuffer[] bs = new ByteBuffer[parts + 2];
        bs[0] = ByteBuffer.wrap(b, 0, 0);
        bs[parts + 1] = ByteBuffer.wrap(b, 0, 0);
        int at = off;
        int end = off + len;
        for (int i = 1; i <= parts; i++) {
            int n = i == parts ? end - at : rnd.nextInt(end - at + 1);
            bs[i] = ByteBuffer.wrap(b, at, n);
            at += n;
        }
        return bs;
    }

    /** @return each buffer's position, to compare with after a call */
    public static int[] positions(ByteBuffer[] bs) {
        int[] p = new int[bs.length];
        for (int i = 0; i < bs.length; i++) {
            p[i] = bs[i].position();
        }
        return p;
    }

    /** @return how far the buffers advanced since {@code start} (from {@link #positions}) */
    public static long consumed(ByteBuffer[] bs, int[] start) {
        long sum = 0;
        for (int i = 0; i < bs.length; i++) {
            sum += bs[i].position() - start[i];
        }
        return sum;
    }

    /** @return the bytes a failed call says it moved (broken pipe, interrupt, timeout), else 0 */
    public static long reported(IOException e) {
        if (e instanceof BrokenPipeException b) {
            return b.bytesTransferred();
        }
        if (e instanceof InterruptedIOException i) {
            return i.bytesTransferred;
        }
        return 0;
    }

    /** Fails if the buffers moved a different number of bytes than the call reported. */
    public static void checkMoved(String what, long moved, long reported) {
        if (moved != reported) {
            throw new AssertionError(what + ": buffers advanced by " + moved + " bytes, the call reported " + reported);
        }
    }
}
