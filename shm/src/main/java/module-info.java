/**
 * Sluice shared-memory pipes: a pipe between JVMs with Linux pipe semantics, whose ring of pages and whose
 * state live in a shared mapping, and whose waits sleep on process-shared futexes.
 *
 * <p>The module calls native code: run with {@code --enable-native-access=dev.sluice.shm} (on the module
 * path) or {@code --enable-native-access=ALL-UNNAMED} (on the class path).
 */
module dev.sluice.shm {
    requires transitive dev.sluice;

    exports dev.sluice.shm;
}
