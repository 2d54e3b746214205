package dev.sluice.lab.reproduce;

/** How our figure stands to a finding's claim. */
public enum Verdict {
    /** Our interval lies wholly on the side the claim says. */
    REPRODUCED("reproduced"),
    /** Our point estimate is on the claim's side, but the interval reaches across "no change". */
    SAME_DIRECTION("same direction, within noise"),
    /** No resolvable effect, and the point estimate is not on the claim's side. */
    NOT_REPRODUCED("not reproduced"),
    /** Our interval lies wholly on the other side. */
    OPPOSITE("opposite"),
    /** Nothing to compare: a side did not run. */
    NONE("n/a");

    private final String words;

    Verdict(String words) {
        this.words = words;
    }

    /** {@return the verdict in words} */
    public String words() {
        return words;
    }

    /**
     * Judges our better-by and its interval against the claim's direction: a claim that the change hurt is
     * turned round (ratios inverted) so that one rule serves both.
     *
     * @param expected the original's better-by (above 1: the change helped; below: it hurt)
     * @param ratio    ours
     * @param lo       its interval's lower end
     * @param hi       its upper end
     * @return the verdict
     */
    public static Verdict of(double expected, double ratio, double lo, double hi) {
        if (Double.isNaN(ratio)) {
            return NONE;
        }
        boolean helps = expected >= 1;
        double r = helps ? ratio : 1 / ratio;
        double l = helps ? lo : 1 / hi;
        double h = helps ? hi : 1 / lo;
        if (l > 1) {
            return REPRODUCED;
        }
        if (h < 1) {
            return OPPOSITE;
        }
        return r > 1 ? SAME_DIRECTION : NOT_REPRODUCED;
    }
}
