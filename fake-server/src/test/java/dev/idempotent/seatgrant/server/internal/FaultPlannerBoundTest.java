package dev.idempotent.seatgrant.server.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.idempotent.seatgrant.server.FaultPlan;
import org.junit.jupiter.api.Test;

/** The per-key attempt counts are bounded, and the bound forgets the identity seen least recently, not everything. */
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
}
