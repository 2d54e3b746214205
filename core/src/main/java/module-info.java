/**
 * Sluice core: an in-process pipe with Linux pipe semantics.
 *
 * <p>The API is {@code dev.sluice} (pipes, ends, options, splice), {@code dev.sluice.io} (stream adapters) and
 * {@code dev.sluice.policy} (the kernel list's choices as options). Everything under {@code dev.sluice.internal}
 * is the implementation: {@code dev.sluice.internal} itself is exported to the kernel and shm modules only
 * (the checks, failures, open file descriptions and handle base every pipe shares), and
 * {@code dev.sluice.internal.sync} to the shm module only (its waits learn their spin from the engine's
 * {@code SpinBudget}); the other sub-packages to nobody.
 */
module dev.sluice {
    // Flight Recorder events, if the runtime has the module (internal.jfr.Flight checks).
    requires static jdk.jfr;

    exports dev.sluice;
    exports dev.sluice.io;
    exports dev.sluice.policy;
    exports dev.sluice.internal to dev.sluice.kernel, dev.sluice.shm;
    exports dev.sluice.internal.sync to dev.sluice.shm;
}
