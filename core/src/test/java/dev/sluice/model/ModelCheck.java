package dev.sluice.model;

import dev.sluice.testing.Capability;
import dev.sluice.testing.PipeFactory;
import dev.sluice.BrokenPipeException;
import dev.sluice.PartialTransferException;
import dev.sluice.Pipe;
import dev.sluice.PipeCounters;
import dev.sluice.PipeEnd;
import dev.sluice.PipeOptions;
import dev.sluice.PipeStat;
import dev.sluice.ReadEnd;
import dev.sluice.Readiness;
import dev.sluice.Splice;
import dev.sluice.WriteEnd;
import dev.sluice.model.PipeModel.Outcome;
import dev.sluice.testing.ScriptedChannel;
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
 * Runs one sequence of {@link Op}s on real pipes and on {@link PipeModel}s side by side, comparing after
 * every step what each call returned or threw, the bytes read (and the bytes a transfer's channel took), each
 * pipe's stat, capacity and counters, the readiness of every handle, FIONREAD on every open read handle, and
 * the readiness futures asked for so far (each must complete exactly at the first step after which its handle
 * is ready). One pipe for the ops of a single pipe; two for sequences that splice, tee and transfer between
 * them ({@link Op.On}, {@link Op.SpliceTee}, {@link Op.TransferTo}), which only in-process pipes can do.
 */
final class ModelCheck {
    /** How long a blocking call waits before it gives up; in one thread nothing can come to unblock it. */
    static final Duration TIMEOUT = Duration.ofMillis(1);

    /** The pipe under test and the options a sequence starts from. */
    record Setup(PipeFactory pipes, int capacity, int maxCapacity, boolean packetMode, boolean nonBlockingRead,
            boolean nonBlockingWrite) {
        PipeOptions options() {
            return pipes.options().capacity(capacity).maxCapacity(maxCapacity).packetMode(packetMode)
                    .nonBlockingRead(nonBlockingRead).nonBlockingWrite(nonBlockingWrite).build();
        }
    }

    private record Pending(boolean reader, int index, CompletableFuture<Readiness> future, int since) {
    }

    /** One pipe under test, its model, and every handle it has had (closed ones too, so indices stay put). */
    private static final class Side {
        final Pipe pipe;
        final boolean occupancy;
        final PipeModel model;
        final List<ReadEnd> readers = new ArrayList<>();
        final List<WriteEnd> writers = new ArrayList<>();
        final List<Pending> pending = new ArrayList<>();

        Side(Setup setup, boolean packetWritesMerge, java.util.Set<String> events) {
            this.occupancy = setup.pipes().has(Capability.OCCUPANCY);
            this.pipe = setup.pipes().open(setup.options());
            this.model = new PipeModel(setup.capacity(), setup.maxCapacity(), setup.packetMode(),
                    setup.nonBlockingRead(), setup.nonBlockingWrite(), packetWritesMerge, events);
            readers.add(pipe.reader());
            writers.add(pipe.writer());
            pipe.reader().setTimeout(TIMEOUT);
            pipe.writer().setTimeout(TIMEOUT);
        }
    }

    private final List<Side> sides = new ArrayList<>();
    private final java.util.Set<String> events = new java.util.TreeSet<>();
    private final StringBuilder trace = new StringBuilder();
    private int step;

    ModelCheck(Setup setup, boolean packetWritesMerge) {
        this(List.of(setup), packetWritesMerge);
    }

    /** A check of {@code setups.size()} pipes, each opened with its setup. */
    ModelCheck(List<Setup> setups, boolean packetWritesMerge) {
        for (Setup setup : setups) {
            sides.add(new Side(setup, packetWritesMerge, events));
            trace.append(setup).append('\n');
        }
        compareState();
    }

    /** @return the interesting cases the run went through, on every pipe */
    java.util.Set<String> events() {
        return events;
    }

    /** Runs every op, failing at the first difference. */
    void run(List<Op> ops) {
        try {
            for (Op op : ops) {
                step++;
                apply(op);
            }
        } finally {
            for (Side s : sides) {
                for (ReadEnd r : s.readers) {
                    r.close();
                }
                for (WriteEnd w : s.writers) {
                    w.close();
                }
            }
        }
    }

    private Side side(int pipe) {
        return sides.get(Math.floorMod(pipe, sides.size()));
    }

    private void apply(Op op) {
        Outcome expected;
        Outcome actual;
        switch (op) {
            case Op.On on -> {
                apply(side(on.pipe()), on.op());
                return;
            }
            case Op.SpliceTee st -> {
                Side from = side(st.from());
                Side to = side(st.to());
                int r = Math.floorMod(st.readHandle(), from.readers.size());
                int w = Math.floorMod(st.writeHandle(), to.writers.size());
                expected = from.model.spliceTo(from.model.readHandles.get(r), to.model, to.model.writeHandles.get(w),
                        st.max(), st.tee());
                actual = call(() -> Outcome.value(st.tee()
                        ? Splice.tee(from.readers.get(r), to.writers.get(w), st.max())
                        : Splice.splice(from.readers.get(r), to.writers.get(w), st.max())));
            }
            case Op.TransferTo t -> {
                Side s = side(t.pipe());
                int i = Math.floorMod(t.handle(), s.readers.size());
                ScriptedChannel channel = ScriptedChannel.failingAfter(t.budget(), 1000);
                expected = s.model.transferTo(s.model.readHandles.get(i), t.max(), t.budget());
                actual = call(() -> Outcome.value(Splice.transferTo(s.readers.get(i), channel, t.max())));
                if (!Arrays.equals(channel.bytes(), s.model.lastTransferred)) {
                    throw failure("the channel took " + channel.bytes().length + " bytes, the model "
                            + s.model.lastTransferred.length + " (or they differ at index "
                            + Arrays.mismatch(channel.bytes(), s.model.lastTransferred) + ")");
                }
            }
            default -> {
                apply(sides.get(0), op);
                return;
            }
        }
        finish(op, expected, actual);
    }

    /** Applies an op of one pipe to {@code s}. */
    private void apply(Side s, Op op) {
        final PipeModel model = s.model;
        final Pipe pipe = s.pipe;
        final List<ReadEnd> readers = s.readers;
        final List<WriteEnd> writers = s.writers;
        Outcome expected;
        Outcome actual;
        switch (op) {
            case Op.Write w -> {
                int i = Math.floorMod(w.handle(), writers.size());
                byte[] data = new byte[w.size()];
                new SplittableRandom(w.seed()).nextBytes(data);
                PipeModel.Handle h = model.writeHandles.get(i);
                expected = model.write(h, data);
                actual = call(() -> Outcome.value(Shapes.write(writers.get(i), data, w.shape(), w.seed())));
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
            }
            case Op.SetCapacity c -> {
                expected = model.setCapacity(c.bytes());
                long bytes = c.bytes();
                actual = call(() -> Outcome.value(bytes == (int) bytes ? pipe.setCapacity((int) bytes)
                        : pipe.setCapacity(bytes)));
            }
            case Op.Dup d -> {
                Result r = d.reader()
                        ? onHandle(readers, model.readHandles, d.handle(), model::dup, e -> added(readers, e.dup()))
                        : onHandle(writers, model.writeHandles, d.handle(), model::dup, e -> added(writers, e.dup()));
                expected = r.expected();
                actual = r.actual();
            }
            case Op.Reopen d -> {
                Result r = d.reader()
                        ? onHandle(readers, model.readHandles, d.handle(), model::reopen,
                                e -> added(readers, e.reopen()))
                        : onHandle(writers, model.writeHandles, d.handle(), model::reopen,
                                e -> added(writers, e.reopen()));
                expected = r.expected();
                actual = r.actual();
            }
            case Op.Close c -> {
                EndCall<PipeEnd> close = e -> {
                    e.close();
                    return Outcome.value(0);
                };
                Result r = c.reader() ? onHandle(readers, model.readHandles, c.handle(), model::close, close::run)
                        : onHandle(writers, model.writeHandles, c.handle(), model::close, close::run);
                expected = r.expected();
                actual = r.actual();
            }
            case Op.SetPacketMode m -> {
                Result r = onHandle(writers, model.writeHandles, m.handle(), h -> model.setPacketMode(h, m.on()), e -> {
                    e.setPacketMode(m.on());
                    return Outcome.value(0);
                });
                expected = r.expected();
                actual = r.actual();
            }
            case Op.SetNonBlocking m -> {
                EndCall<PipeEnd> set = e -> {
                    e.setNonBlocking(m.on());
                    return Outcome.value(0);
                };
                java.util.function.Function<PipeModel.Handle, Outcome> inModel = h -> model.setNonBlocking(h, m.on());
                Result r = m.reader() ? onHandle(readers, model.readHandles, m.handle(), inModel, set::run)
                        : onHandle(writers, model.writeHandles, m.handle(), inModel, set::run);
                expected = r.expected();
                actual = r.actual();
            }
            case Op.Available a -> {
                int i = Math.floorMod(a.handle(), readers.size());
                expected = model.available(model.readHandles.get(i));
                actual = call(() -> Outcome.value(readers.get(i).available()));
            }
            case Op.WhenReady w -> {
                int i = Math.floorMod(w.handle(), w.reader() ? readers.size() : writers.size());
                PipeEnd end = w.reader() ? readers.get(i) : writers.get(i);
                s.pending.add(new Pending(w.reader(), i, end.whenReady(), step));
                expected = actual = Outcome.value(0);
            }
            case Op.ResetCounters r -> {
                model.resetCounters();
                pipe.resetCounters();
                expected = actual = Outcome.value(0);
            }
            case Op.On on -> throw new IllegalArgumentException("nested " + on);
            case Op.SpliceTee st -> throw new IllegalArgumentException("not an op of one pipe: " + st);
            case Op.TransferTo t -> throw new IllegalArgumentException("not an op of one pipe: " + t);
        }
        finish(sides.size() > 1 ? "pipe " + sides.indexOf(s) + ": " + op : op, expected, actual);
    }

    /** What the model expected of a call, and what the real pipe did. */
    private record Result(Outcome expected, Outcome actual) {
    }

    /** A call on one real handle. */
    @FunctionalInterface
    private interface EndCall<E> {
        Outcome run(E end) throws Exception;
    }

    /**
     * Picks handle {@code index} of one side (modulo the handles it has had), asks the model what a call on it
     * does, and makes the call on the real handle.
     */
    private static <E extends PipeEnd> Result onHandle(List<E> ends, List<PipeModel.Handle> handles, int index,
            java.util.function.Function<PipeModel.Handle, Outcome> model, EndCall<E> real) {
        int i = Math.floorMod(index, ends.size());
        Outcome expected = model.apply(handles.get(i));
        return new Result(expected, call(() -> real.run(ends.get(i))));
    }

    /** Records a new real handle, in the same place as the model's. */
    private static <E> Outcome added(List<E> ends, E end) {
        ends.add(end);
        return Outcome.value(0);
    }

    private void finish(Object op, Outcome expected, Outcome actual) {
        trace.append(step).append(": ").append(op).append(" -> ").append(actual).append('\n');
        if (!matches(expected, actual)) {
            throw failure("call: expected " + expected + ", got " + actual + describeData(expected, actual));
        }
        // New handles get the same short timeout as the rest.
        for (Side s : sides) {
            for (ReadEnd r : s.readers) {
                r.setTimeout(TIMEOUT);
            }
            for (WriteEnd w : s.writers) {
                w.setTimeout(TIMEOUT);
            }
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
        } catch (PartialTransferException e) {
            return new Outcome.Threw(Set.of(e.getClass().getSimpleName()), e.bytesTransferred());
        } catch (InterruptedIOException e) {
            return new Outcome.Threw(Set.of(e.getClass().getSimpleName()), e.bytesTransferred);
        } catch (Exception e) {
            return new Outcome.Threw(Set.of(e.getClass().getSimpleName()), 0);
        }
    }

    private void compareState() {
        for (int i = 0; i < sides.size(); i++) {
            compareState(sides.get(i), sides.size() > 1 ? "pipe " + i + " " : "");
        }
    }

    private void compareState(Side side, String name) {
        final Pipe pipe = side.pipe;
        final PipeModel model = side.model;
        final List<ReadEnd> readers = side.readers;
        final List<WriteEnd> writers = side.writers;
        PipeStat s = pipe.stat();
        check(name + "capacity()", pipe.capacity(), (long) model.slots * PipeModel.PAGE);
        check(name + "stat().capacity", s.capacity(), (long) model.slots * PipeModel.PAGE);
        check(name + "stat().slots", s.slots(), model.slots);
        if (side.occupancy) { // kernel pipes do not export their occupancy
            check(name + "stat().slotsUsed", s.slotsUsed(), model.ring.size());
        }
        check(name + "stat().bytesQueued", s.bytesQueued(), model.queued());
        check(name + "stat().readers", s.readers(), model.readers);
        check(name + "stat().writers", s.writers(), model.writers);
        for (int i = 0; i < readers.size(); i++) {
            PipeModel.Handle h = model.readHandles.get(i);
            check(name + "reader " + i + " poll()", readers.get(i).poll().linuxPollMask(), model.poll(h));
            check(name + "reader " + i + " isNonBlocking()", readers.get(i).isNonBlocking() ? 1 : 0,
                    h.nonBlocking() ? 1 : 0);
            if (h.open) {
                int n = i;
                Outcome avail = call(() -> Outcome.value(readers.get(n).available()));
                if (!avail.equals(Outcome.value(model.queued()))) {
                    throw failure(name + "reader " + i + " available(): expected " + model.queued() + ", got " + avail);
                }
            }
        }
        for (int i = 0; i < writers.size(); i++) {
            PipeModel.Handle h = model.writeHandles.get(i);
            check(name + "writer " + i + " poll()", writers.get(i).poll().linuxPollMask(), model.poll(h));
            check(name + "writer " + i + " isNonBlocking()", writers.get(i).isNonBlocking() ? 1 : 0,
                    h.nonBlocking() ? 1 : 0);
            check(name + "writer " + i + " isPacketMode()", writers.get(i).isPacketMode() ? 1 : 0, h.packet() ? 1 : 0);
        }
        PipeCounters c = pipe.counters();
        check(name + "counters().bytesWritten", c.bytesWritten(), model.bytesWritten);
        check(name + "counters().bytesRead", c.bytesRead(), model.bytesRead);
        check(name + "counters().writeCalls", c.writeCalls(), model.writeCalls);
        check(name + "counters().readCalls", c.readCalls(), model.readCalls);
        if (side.occupancy) {
            check(name + "counters().peakSlotsUsed", c.peakSlotsUsed(), model.peakSlots);
        }
        check(name + "counters().readerWaits", c.readerWaits(), model.readerWaits);
        check(name + "counters().writerWaits", c.writerWaits(), model.writerWaits);
        for (Iterator<Pending> it = side.pending.iterator(); it.hasNext(); ) {
            Pending p = it.next();
            PipeModel.Handle h = p.reader() ? model.readHandles.get(p.index()) : model.writeHandles.get(p.index());
            boolean ready = model.ready(h);
            String what = name + (p.reader() ? "reader " : "writer ") + p.index() + " whenReady() from step "
                    + p.since();
            if (p.future().isDone()) {
                if (!ready) {
                    throw failure(what + " completed with " + p.future().getNow(null) + " but the handle is not ready");
                }
                check(what + " value", p.future().getNow(null).linuxPollMask(), model.poll(h));
                if (p.since() < step) {
                    events.add("whenReady: completed by a later step");
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
        StringBuilder state = new StringBuilder();
        for (Side s : sides) {
            state.append(s.model).append("\nreal: ").append(s.pipe).append('\n');
        }
        return new AssertionError("step " + step + ": " + what + "\n" + state + "trace:\n" + trace);
    }
}
