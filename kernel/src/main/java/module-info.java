/**
 * Sluice kernel pipes: real Linux pipes behind Sluice's {@code Pipe} interface, through the Foreign
 * Function and Memory API (no JNI), with splice, tee, vmsplice and pipes into child processes.
 *
 * <p>The module calls native code: run with {@code --enable-native-access=dev.sluice.kernel} (on the module
 * path) or {@code --enable-native-access=ALL-UNNAMED} (on the class path). Without the flag, JDK 25 prints
 * a warning on first use; later JDKs will refuse.
 */
module dev.sluice.kernel {
    requires transitive dev.sluice;

    exports dev.sluice.kernel;
}
