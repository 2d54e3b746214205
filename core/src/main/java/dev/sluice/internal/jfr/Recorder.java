package dev.sluice.internal.jfr;

import jdk.jfr.FlightRecorder;

/**
 * Whether Flight Recorder has started in this JVM: until a recording is created (at start-up with
 * {@code -XX:StartFlightRecording}, by {@code jcmd JFR.start}, or through the API) no event can be enabled, so
 * {@link Flight} skips everything, and {@link Events}, whose event-type lookups start JFR's machinery, is never
 * loaded. No static state of its own, so loading it costs nothing.
 */
final class Recorder {
    private Recorder() {
    }

    static boolean started() {
        return FlightRecorder.isInitialized();
    }
}
