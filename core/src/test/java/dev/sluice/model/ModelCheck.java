package dev.sluice.model;

import dev.sluice.testing.TestPipes;
import dev.sluice.BrokenPipeException;
import dev.sluice.Pipe;
import dev.sluice.PipeCounters;
import dev.sluice.PipeEnd;
import dev.sluice.PipeOptions;
import dev.sluice.PipeStat;
import dev.sluice.ReadEnd;
import dev.sluice.Readiness;
import dev.sluice.WriteEnd;
import dev.sluice.model.PipeModel.Outcome;
import java.io.InterruptedIOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Iterator;
import java.util.List;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.concurrent.CompletableFuture;

/**
 * Runs one sequence of {@link Op}s on a real pipe and on a {@link PipeModel} side by side, comparing after
 * every step what each call returned or threw, the bytes read, the pipe's stat, capacity and counters, the
 * readiness of every handle, FIONREAD on every open read handle, and the readiness futures asked for so
 * far (each must complete exactly at the first step after which its handle is ready).
 */
final class ModelCheck {
    /** How long a blocking call waits before it gives up; in one thread nothing can come to unblock it. */
    static final Duration TIMEOUT = Duration.ofMillis(1);

    /** The options a sequence starts from. */
    record Setup(int capacity, int maxCapacity, boolean packetMode, boolean nonBlockingRead, boolean nonBlockingWrite) {
        PipeOptions options() {
            return PipeOptions.builder().capacity(capacity).maxCapacity(maxCapacity).packetMode(packetMode)
                    .nonBlockingRead(nonBlockingRead).nonBlockingWrite(nonBlockingWrite).build();
        }
    }

    private record Pending(boolean reader, int index, CompletableFuture<Readiness> future, int since) {
    }

    private final Pipe pipe;
    private final PipeModel model;
    private final List<ReadEnd> readers = new ArrayList<>();
    private final List<WriteEnd> writers = new ArrayList<>();
    private final List<Pending> pending = new ArrayList<>();
    private final StringBuilder trace = new StringBuilder();
    private long readerWaits;
    private long writerWaits;
    private int step;

    ModelCheck(Setup setup, boolean packetWritesMerge) {
        this.pipe = TestPipes.open(setup.options());
        this.model = new PipeModel(setup.capacity(), setup.maxCapacity(), setup.packetMode(), setup.nonBlockingRead(),
                setup.nonBlockingWrite(), packetWritesMerge);
        readers.add(pipe.reader());
        writers.add(pipe.writer());
        pipe.reader().setTimeout(TIMEOUT);
        pipe.writer().setTimeout(TIMEOUT);
        trace.append(setup).append('\n');
        compareState();
    }

    /** @return the interesting cases the run went through */
    java.util.Set<String> events() {
        return model.events;
    }

    /** Runs every op, failing at the first difference. */
    void run(List<Op> ops) {
        try {
            for (Op op : ops) {
                step++;
                apply(op);
            }
        } finally {
            for (ReadEnd r : readers) {
                r.close();
            }
            for (WriteEnd w : writers) {
                w.close();
            }
        }
    }

    private void apply(Op op) {
        Outcome expected;
        Outcome actual;
        switch (op) {
            case Op.Write w -> {
                int i = Math.floorMod(w.handle(), writers.size());
                byte[] data = new byte[w.size()];
                new SplittableRandom(w.seed()).nextBytes(data);
                PipeModel.Handle h = model.writeHandles.get(i);
                boolean blocks = !h.open ? false : !h.nonBlocking;
                expected = model.write(h, data);
                actual = call(() -> Outcome.value(Shapes.write(writers.get(i), data, w.shape(), w.seed())));
                if (blocks && expected instanceof Outcome.Threw t && t.types().contains(PipeModel.TIMEOUT)) {
                    writerWaits++;
                }
            }
            case Op.Read r -> {
                int i = Math.floorMod(r.handle(), readers.size());
                PipeModel.Handle h = model.readHandles.get(i);
                expected = model.read(h, r.size());
                actual = call(() -> {
                    byte[] b = new byte[r.size()];
                    int n = Shapes.read(readers.get(i), b, r.shape(), r.size() * 31L + step);
                    return new Outcome.Returned(n, Arrays.copyOf(b, Math.max(n, 0)));
                });
                if (expected instanceof Outcome.Threw t && t.types().contains(PipeModel.TIMEOUT)) {
                    readerWaits++;
                }
            }
            case Op.SetCapacity c -> {
                expected = model.setCapacity(c.bytes());
                actual = call(() -> Outcome.value(pipe.setCapacity(c.bytes())));
            }
            case Op.Dup d -> {
                if (d.reader()) {
                    int i = Math.floorMod(d.handle(), readers.size());
                    expected = model.dup(model.readHandles.get(i));
                    actual = call(() -> {
                        readers.add(readers.get(i).dup());
                        return Outcome.value(0);
                    });
                } else {
                    int i = Math.floorMod(d.handle(), writers.size());
                    expected = model.dup(model.writeHandles.get(i));
                    actual = call(() -> {
                        writers.add(writers.get(i).dup());
                        return Outcome.value(0);
                    });
                }
            }
            case Op.Close c -> {
                if (c.reader()) {
                    int i = Math.floorMod(c.handle(), readers.size());
                    expected = model.close(model.readHandles.get(i));
                    actual = call(() -> {
                        readers.get(i).close();
                        return Outcome.value(0);
                    });
                } else {
                    int i = Math.floorMod(c.handle(), writers.size());
                    expected = model.close(model.writeHandles.get(i));
                    actual = call(() -> {
                        writers.get(i).close();
                        return Outcome.value(0);
                    });
                }
            }
            case Op.SetPacketMode m -> {
                int i = Math.floorMod(m.handle(), writers.size());
                model.writeHandles.get(i).packet = m.on();
                writers.get(i).setPacketMode(m.on());
                expected = actual = Outcome.value(0);
            }
            case Op.SetNonBlocking m -> {
                if (m.reader()) {
                    int i = Math.floorMod(m.handle(), readers.size());
                    model.readHandles.get(i).nonBlocking = m.on();
                    readers.get(i).setNonBlocking(m.on());
                } else {
                    int i = Math.floorMod(m.handle(), writers.size());
                    model.writeHandles.get(i).nonBlocking = m.on();
                    writers.get(i).setNonBlocking(m.on());
                }
                expected = actual = Outcome.value(0);
            }
            case Op.Available a -> {
                int i = Math.floorMod(a.handle(), readers.size());
                expected = model.available(model.readHandles.get(i));
                actual = call(() -> Outcome.value(readers.get(i).available()));
            }
            case Op.WhenReady w -> {
                int i = Math.floorMod(w.handle(), w.reader() ? readers.size() : writers.size());
                PipeEnd end = w.reader() ? readers.get(i) : writers.get(i);
                pending.add(new Pending(w.reader(), i, end.whenReady(), step));
                expected = actual = Outcome.value(0);
            }
            case Op.ResetCounters r -> {
                model.resetCounters();
                pipe.resetCounters();
                readerWaits = writerWaits = 0;
                expected = actual = Outcome.value(0);
            }
        }
        trace.append(step).append(": ").append(op).append(" -> ").append(actual).append('\n');
        if (!matches(expected, actual)) {
            throw failure("call: expected " + expected + ", got " + actual + describeData(expected, actual));
        }
        // New handles get the same short timeout as the rest.
        for (ReadEnd r : readers) {
            r.setTimeout(TIMEOUT);
        }
        for (WriteEnd w : writers) {
            w.setTimeout(TIMEOUT);
        }
        compareState();
    }

    private static boolean matches(Outcome expected, Outcome actual) {
        if (expected instanceof Outcome.Threw e) {
            return actual instanceof Outcome.Threw a && e.types().containsAll(a.types())
                    && e.bytesTransferred() == a.bytesTransferred();
        }
        return expected.equals(actual);
    }

    private static String describeData(Outcome expected, Outcome actual) {
        if (expected instanceof Outcome.Returned e && actual instanceof Outcome.Returned a && e.data() != null
                && a.data() != null && e.value() == a.value()) {
            int at = Arrays.mismatch(e.data(), a.data());
            return " (same count, bytes differ first at index " + at + ")";
        }
        return "";
    }

    @FunctionalInterface
    private interface Call {
        Outcome run() throws Exception;
    }

    private static Outcome call(Call c) {
        try {
            return c.run();
        } catch (BrokenPipeException e) {
            return new Outcome.Threw(Set.of(e.getClass().getSimpleName()), e.bytesTransferred());
        } catch (InterruptedIOException e) {
            return new Outcome.Threw(Set.of(e.getClass().getSimpleName()), e.bytesTransferred);
        } catch (Exception e) {
            return new Outcome.Threw(Set.of(e.getClass().getSimpleName()), 0);
        }
    }

    private void compareState() {
        PipeStat s = pipe.stat();
        check("capacity()", pipe.capacity(), (long) model.slots * PipeModel.PAGE);
        check("stat().capacity", s.capacity(), (long) model.slots * PipeModel.PAGE);
        check("stat().slots", s.slots(), model.slots);
        if (TestPipes.inProcess()) { // kernel pipes do not export their occupancy
            check("stat().slotsUsed", s.slotsUsed(), model.ring.size());
        }
        check("stat().bytesQueued", s.bytesQueued(), model.queued());
        check("stat().readers", s.readers(), model.readers);
        check("stat().writers", s.writers(), model.writers);
        for (int i = 0; i < readers.size(); i++) {
            PipeModel.Handle h = model.readHandles.get(i);
            check("reader " + i + " poll()", readers.get(i).poll().linuxPollMask(), model.poll(h));
            if (h.open) {
                int n = i;
                Outcome avail = call(() -> Outcome.value(readers.get(n).available()));
                if (!avail.equals(Outcome.value(model.queued()))) {
                    throw failure("reader " + i + " available(): expected " + model.queued() + ", got " + avail);
                }
            }
        }
        for (int i = 0; i < writers.size(); i++) {
            check("writer " + i + " poll()", writers.get(i).poll().linuxPollMask(),
                    model.poll(model.writeHandles.get(i)));
        }
        PipeCounters c = pipe.counters();
        check("counters().bytesWritten", c.bytesWritten(), model.bytesWritten);
        check("counters().bytesRead", c.bytesRead(), model.bytesRead);
        check("counters().writeCalls", c.writeCalls(), model.writeCalls);
        check("counters().readCalls", c.readCalls(), model.readCalls);
        if (TestPipes.inProcess()) {
            check("counters().peakSlotsUsed", c.peakSlotsUsed(), model.peakSlots);
        }
        check("counters().readerWaits", c.readerWaits(), readerWaits);
        check("counters().writerWaits", c.writerWaits(), writerWaits);
        for (Iterator<Pending> it = pending.iterator(); it.hasNext(); ) {
            Pending p = it.next();
            PipeModel.Handle h = p.reader() ? model.readHandles.get(p.index()) : model.writeHandles.get(p.index());
            boolean ready = model.ready(h);
            String what = (p.reader() ? "reader " : "writer ") + p.index() + " whenReady() from step " + p.since();
            if (p.future().isDone()) {
                if (!ready) {
                    throw failure(what + " completed with " + p.future().getNow(null) + " but the handle is not ready");
                }
                check(what + " value", p.future().getNow(null).linuxPollMask(), model.poll(h));
                if (p.since() < step) {
                    model.events.add("whenReady: completed by a later step");
                }
                it.remove();
            } else if (ready) {
                throw failure(what + " is still pending although the handle is ready (mask "
                        + Integer.toHexString(model.poll(h)) + ")");
            }
        }
    }

    private void check(String what, long actual, long expected) {
        if (actual != expected) {
            throw failure(what + ": expected " + expected + ", got " + actual);
        }
    }

    private AssertionError failure(String what) {
        return new AssertionError("step " + step + ": " + what + "\n" + model + "\nreal: " + pipe + "\ntrace:\n" + trace);
    }
}
