package dev.sluice.policy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** Each wake rule as a pure function of the ring's state, checked against its definition. */
class WakePolicyTest {
    private static final int MAX = 16;

    @Test
    void alwaysWakesOnEveryFreedSlot() {
        for (int occ = 1; occ <= MAX; occ++) {
            assertThat(WakePolicy.ALWAYS.wakeOnFree(occ, MAX, 0)).isTrue();
        }
        assertThat(WakePolicy.ALWAYS.wakeIfFullAtStart()).isFalse();
    }

    @Test
    void halfEmptyWakesOnlyAtOrBelowHalfAfterTheFree() {
        for (int occ = 1; occ <= MAX; occ++) {
            // after the free, occ - 1 slots are in use
            assertThat(WakePolicy.HALF_EMPTY.wakeOnFree(occ, MAX, 0)).as("occupancy before %d", occ)
                    .isEqualTo(occ - 1 <= MAX / 2);
        }
        assertThat(WakePolicy.HALF_EMPTY.wakeOnFree(9, MAX, 0)).isTrue();
        assertThat(WakePolicy.HALF_EMPTY.wakeOnFree(10, MAX, 0)).isFalse();
    }

    @Test
    void fullAtStartIgnoresFreesAndWakesOnAFullStart() {
        for (int occ = 1; occ <= MAX; occ++) {
            assertThat(WakePolicy.FULL_AT_START.wakeOnFree(occ, MAX, 0)).isFalse();
        }
        assertThat(WakePolicy.FULL_AT_START.wakeIfFullAtStart()).isTrue();
    }

    @Test
    void fullAndFreedWakesOnlyForTheSlotThatEndsFullness() {
        for (int occ = 1; occ <= MAX; occ++) {
            assertThat(WakePolicy.FULL_AND_FREED.wakeOnFree(occ, MAX, 0)).isEqualTo(occ == MAX);
        }
        assertThat(WakePolicy.FULL_AND_FREED.wakeIfFullAtStart()).isFalse();
    }

    @Test
    void adaptiveWakesWhenTheFreeSlotsReachTheWritersNeed() {
        for (int need = 1; need <= MAX / 2; need++) {
            for (int occ = 1; occ <= MAX; occ++) {
                int freeAfter = MAX - (occ - 1);
                assertThat(WakePolicy.ADAPTIVE.wakeOnFree(occ, MAX, need)).as("need %d, occupancy %d", need, occ)
                        .isEqualTo(freeAfter >= need);
            }
        }
        // Unknown need (nobody queued yet) counts as 1: never later than full-and-freed.
        assertThat(WakePolicy.ADAPTIVE.wakeOnFree(MAX, MAX, 0)).isTrue();
        assertThat(WakePolicy.ADAPTIVE.usesWriterNeed()).isTrue();
    }

    @Test
    void writerNeedIsOneForWhatFitsInAPageElsePagesLeftCappedAtHalfTheRing() {
        assertThat(WakePolicy.writerNeed(1, MAX, 4096)).isEqualTo(1);
        assertThat(WakePolicy.writerNeed(4096, MAX, 4096)).isEqualTo(1);
        assertThat(WakePolicy.writerNeed(4097, MAX, 4096)).isEqualTo(2);
        assertThat(WakePolicy.writerNeed(3 * 4096, MAX, 4096)).isEqualTo(3);
        assertThat(WakePolicy.writerNeed(1 << 20, MAX, 4096)).isEqualTo(MAX / 2);
        assertThat(WakePolicy.writerNeed(1 << 20, 1, 4096)).as("a 1-slot ring still needs 1").isEqualTo(1);
    }

    @ParameterizedTest
    @EnumSource(WakePolicy.class)
    void everyPolicyWakesWhenAReadEmptiesAFullRingWithOneSlotNeeded(WakePolicy p) {
        // Draining a full ring slot by slot: some slot's free (or the full start) must wake a writer that
        // needs one slot, or the policy could strand it.
        boolean woke = p.wakeIfFullAtStart();
        for (int occ = MAX; occ >= 1; occ--) {
            woke |= p.wakeOnFree(occ, MAX, 1);
        }
        assertThat(woke).isTrue();
    }

    @ParameterizedTest
    @EnumSource(WakePolicy.class)
    void aNeedStatedBeforeTheRingShrankStillGetsTheWriterWoken(WakePolicy p) {
        // The writer said "8 slots" on a 16-slot ring; the ring is now 2 slots. Draining it must wake.
        for (int max : new int[] {1, 2, 4}) {
            boolean woke = p.wakeIfFullAtStart();
            for (int occ = max; occ >= 1; occ--) {
                woke |= p.wakeOnFree(occ, max, 8);
            }
            assertThat(woke).as("ring of %d slots", max).isTrue();
        }
    }

    @ParameterizedTest
    @EnumSource(WakePolicy.class)
    void aliasesRoundTrip(WakePolicy p) {
        assertThat(WakePolicy.fromAlias(p.alias())).isSameAs(p);
        assertThat(WakePolicy.fromAlias(p.name())).isSameAs(p);
        assertThat(p.toString()).isEqualTo(p.alias());
    }

    @Test
    void unknownAliasIsRefusedWithTheChoices() {
        assertThatThrownBy(() -> WakePolicy.fromAlias("sometimes")).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("sometimes").hasMessageContaining("full-and-freed");
    }

    @Test
    void readerWakePolicies() {
        assertThat(ReaderWakePolicy.ON_EMPTY.wakeReader(true, false)).isTrue();
        assertThat(ReaderWakePolicy.ON_EMPTY.wakeReader(false, false)).isFalse();
        assertThat(ReaderWakePolicy.ON_EMPTY.wakeReader(false, true)).as("polled pipes wake on every write").isTrue();
        assertThat(ReaderWakePolicy.EVERY_WRITE.wakeReader(false, false)).isTrue();
    }
}
