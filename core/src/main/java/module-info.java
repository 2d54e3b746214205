/**
 * Sluice core: an in-process pipe with Linux pipe semantics.
 */
module dev.sluice {
    exports dev.sluice;
    exports dev.sluice.io;
    exports dev.sluice.policy;
}
