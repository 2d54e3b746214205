/**
 * Sluice for Okio: an Okio {@code Source} over a Sluice {@code ReadEnd} and a {@code Sink} over a
 * {@code WriteEnd} ({@link dev.sluice.okio.SluiceOkio}).
 */
module dev.sluice.okio {
    requires transitive dev.sluice;
    requires transitive okio;

    exports dev.sluice.okio;
}
