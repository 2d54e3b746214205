package dev.sluice.shm;

/** A shared-memory pipe's process table, read as the tests that forge a dead process's lock need it. */
final class ProcTable {
    private ProcTable() {
    }

    /** @return the table entry of process {@code id} ({@link Procs#idOf}); fails if it has none */
    static int entryOf(ShmPipe p, long id) {
        for (int i = 0; i < p.region.layout.procs; i++) {
            if (p.region.getLong(Layout.entry(i) + Layout.E_ID) == id) {
                return i;
            }
        }
        throw new AssertionError("process " + id + " has no entry in the table");
    }

    /** @return the lock word naming the process of {@code entry} as the owner, as its lock would write it */
    static int ownerToken(ShmPipe p, int entry) {
        int gen = p.region.getInt(Layout.entry(entry) + Layout.E_GEN);
        return (entry + 1) | (gen << 8);
    }
}
