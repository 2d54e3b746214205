package dev.sluice.kernel;

import java.util.Locale;

/**
 * Which platform this JVM runs on, checked before anything native is touched: {@link LibC} looks up its
 * functions when it is initialised, which would fail with a linkage error off Linux. Keeping the check in
 * a class of its own is what lets the module load everywhere and fail with one clear exception.
 */
final class Platform {
    static final String OS = System.getProperty("os.name", "?");
    static final String ARCH = System.getProperty("os.arch", "?");

    private Platform() {
    }

    /** Throws the one exception callers see on a platform without Linux pipes. */
    static void checkSupported() {
        checkSupported(OS, ARCH);
    }

    /** The check behind {@link #checkSupported()}, for any platform name. */
    static void checkSupported(String os, String arch) {
        boolean ok = os.toLowerCase(Locale.ROOT).startsWith("linux")
                && (arch.equals("amd64") || arch.equals("x86_64") || arch.equals("aarch64"));
        if (!ok) {
            throw new UnsupportedOperationException("kernel pipes need Linux on x86_64 or aarch64 (pipe2, splice, "
                    + "epoll through the FFM API); this JVM runs on " + os + "/" + arch
                    + ". Use dev.sluice.Pipe.open() for the in-process pipe instead.");
        }
    }
}
