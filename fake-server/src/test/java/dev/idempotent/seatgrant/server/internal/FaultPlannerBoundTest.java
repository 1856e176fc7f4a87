package dev.idempotent.seatgrant.server.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.idempotent.seatgrant.server.FaultPlan;
import org.junit.jupiter.api.Test;

/**
 * The per-key attempt counts are bounded, by count and by bytes, and each bound forgets the identity seen least
 * recently, not everything; a GET is named by a fixed-size hash of its target, however long the target.
 */
class FaultPlannerBoundTest {

    @Test
    void pastTheBoundTheLeastRecentlySeenKeyStartsOverAndTheOthersKeepCounting() {
        FaultPlanner planner = new FaultPlanner(FaultPlan.none());
        planner.decide("POST", "/v1/seats", "key:first");
        planner.decide("POST", "/v1/seats", "key:kept");
        for (int i = 0; i < FaultPlanner.MAX_TRACKED_IDENTITIES - 2; i++) {
            planner.decide("POST", "/v1/seats", "key:" + i);
        }
        // Seen again, so it is now the most recent: the next newcomer pushes out "first" instead.
        assertEquals(2, planner.decide("POST", "/v1/seats", "key:kept").attempt());

        planner.decide("POST", "/v1/seats", "key:newcomer");

        assertEquals(3, planner.decide("POST", "/v1/seats", "key:kept").attempt());
        assertEquals(2, planner.decide("POST", "/v1/seats", "key:newcomer").attempt());
        assertEquals(1, planner.decide("POST", "/v1/seats", "key:first").attempt());
    }

    /** An identity of {@code length} characters, numbered {@code n}. */
    private static String identity(int n, int length) {
        String number = Integer.toString(n);
        return "x".repeat(length - number.length()) + number;
    }

    @Test
    void pastTheByteBoundTheLeastRecentlySeenIsForgottenAndExactlyTheBoundIsKept() {
        // 142 characters cost 100 + 2 * 142 = 384 bytes, and 24 MiB is exactly 65,536 of them.
        int fit = (int) (FaultPlanner.MAX_TRACKED_BYTES / 384);
        assertEquals(FaultPlanner.MAX_TRACKED_BYTES, 384L * fit);
        FaultPlanner planner = new FaultPlanner(FaultPlan.none());
        for (int i = 0; i < fit; i++) {
            planner.decide("POST", "/v1/seats", identity(i, 142));
        }
        assertEquals(fit, planner.trackedIdentities(), "exactly the byte bound is kept whole");
        assertEquals(FaultPlanner.MAX_TRACKED_BYTES, planner.trackedBytes());

        planner.decide("POST", "/v1/seats", identity(fit, 142));

        assertEquals(fit, planner.trackedIdentities());
        assertEquals(FaultPlanner.MAX_TRACKED_BYTES, planner.trackedBytes());
        assertEquals(2, planner.decide("POST", "/v1/seats", identity(1, 142)).attempt(), "the second eldest stays");
        assertEquals(1, planner.decide("POST", "/v1/seats", identity(0, 142)).attempt(), "the eldest was forgotten");
    }

    @Test
    void longKeysReachTheByteBoundLongBeforeTheCount() {
        FaultPlanner planner = new FaultPlanner(FaultPlan.none());
        for (int i = 0; i < 60_000; i++) {
            planner.decide("POST", "/v1/seats", "key:" + identity(i, 255));
        }
        long cost = 100 + 2 * 259;
        assertEquals(FaultPlanner.MAX_TRACKED_BYTES / cost, planner.trackedIdentities());
        assertTrue(planner.trackedBytes() <= FaultPlanner.MAX_TRACKED_BYTES);
    }

    @Test
    void repeatingAnIdentityCostsNothingMoreAndResetForgetsTheBytes() {
        FaultPlanner planner = new FaultPlanner(FaultPlan.none());
        planner.decide("POST", "/v1/seats", "key:abc");
        long once = planner.trackedBytes();
        assertEquals(100 + 2 * 7, once);
        planner.decide("POST", "/v1/seats", "key:abc");
        assertEquals(once, planner.trackedBytes());

        planner.reset();

        assertEquals(0, planner.trackedBytes());
        assertEquals(0, planner.trackedIdentities());
    }

    @Test
    void aGetIsNamedByAHashOfItsTargetSoALongTargetCostsNoMore() {
        String shortTarget = FaultPlanner.targetIdentity("GET", "/v1/seats?workspaceId=w");
        String longTarget = FaultPlanner.targetIdentity("GET", "/v1/seats?workspaceId=w&x=" + "y".repeat(8_000));

        assertEquals("GET sha256:".length() + 64, shortTarget.length());
        assertEquals(shortTarget.length(), longTarget.length());
        assertTrue(shortTarget.startsWith("GET sha256:"), shortTarget);
        assertEquals(shortTarget, FaultPlanner.targetIdentity("GET", "/v1/seats?workspaceId=w"), "the same target");
        assertTrue(!shortTarget.equals(FaultPlanner.targetIdentity("GET", "/v1/seats?workspaceId=v")));
        // SHA-256 of "abc", as FIPS 180-2 gives it.
        assertEquals("GET sha256:ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad",
                FaultPlanner.targetIdentity("GET", "abc"));
    }
}
