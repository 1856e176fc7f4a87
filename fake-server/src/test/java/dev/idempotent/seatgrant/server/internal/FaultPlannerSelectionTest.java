package dev.idempotent.seatgrant.server.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.idempotent.seatgrant.server.Fault;
import dev.idempotent.seatgrant.server.FaultPlan;
import dev.idempotent.seatgrant.server.FaultRule;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * How the planner picks requests at the edges: the probabilities 0 and 1 and a lopsided one (so "applies with
 * probability p" cannot silently become "1 - p"), and what replacing or resetting a plan keeps and forgets.
 * (The bound on how many keys it remembers has its own test, {@code FaultPlannerBoundTest}.)
 */
class FaultPlannerSelectionTest {

    private static int applied(FaultPlanner planner, int requests) {
        int hits = 0;
        for (int i = 0; i < requests; i++) {
            hits += planner.decide("POST", "/v1/seats", "key:" + i).rule() != null ? 1 : 0;
        }
        return hits;
    }

    @Test
    void probabilityOneAppliesToEveryRequestAndZeroToNone() {
        assertEquals(500, applied(new FaultPlanner(FaultPlan.of(FaultRule.of(Fault.RESET).withProbability(1.0))), 500));
        assertEquals(0, applied(new FaultPlanner(FaultPlan.of(FaultRule.of(Fault.RESET).withProbability(0.0))), 500));
    }

    @Test
    void aLowProbabilityFaultsFewRequestsNotMost() {
        // Seeded, so the count is the same on every run; the band only says "about a fifth".
        int hits = applied(new FaultPlanner(new FaultPlan(7, List.of(FaultRule.of(Fault.RESET).withProbability(0.2)))), 2000);
        assertTrue(hits > 300 && hits < 500, "about 400 of 2000, got " + hits);
    }

    @Test
    void aProbabilityRuleThatDoesNotFireLetsALaterRuleDecide() {
        FaultPlanner planner = new FaultPlanner(FaultPlan.of(
                FaultRule.of(Fault.RESET).withProbability(0.0),
                FaultRule.of(Fault.CLOSE)));
        assertEquals(Fault.CLOSE, planner.decide("POST", "/v1/seats", "key:a").rule().fault());
    }

    @Test
    void exactlyTheBoundOfKeysIsRememberedInFull() {
        // One more would push out the least recently seen key; exactly the bound pushes out none.
        FaultPlanner planner = new FaultPlanner(FaultPlan.none());
        for (int i = 0; i < FaultPlanner.MAX_TRACKED_IDENTITIES; i++) {
            planner.decide("POST", "/v1/seats", "key:" + i);
        }
        assertEquals(2, planner.decide("POST", "/v1/seats", "key:0").attempt(), "the eldest key is still counted");
    }

    @Test
    void replacingAPlanRestartsItsRuleCountersButKeepsAttempts() {
        FaultPlanner planner = new FaultPlanner(FaultPlan.of(FaultRule.of(Fault.RESET).withTimes(1)));
        assertEquals(Fault.RESET, planner.decide("POST", "/v1/seats", "key:a").rule().fault());
        assertNull(planner.decide("POST", "/v1/seats", "key:b").rule(), "times: 1 is spent");

        FaultPlan next = FaultPlan.of(FaultRule.of(Fault.CLOSE).withTimes(1));
        planner.replace(next);

        assertSame(next, planner.plan());
        FaultPlanner.Decision d = planner.decide("POST", "/v1/seats", "key:a");
        assertEquals(Fault.CLOSE, d.rule().fault());
        assertEquals(2, d.attempt(), "attempt counts are history and survive a new plan");
    }

    @Test
    void resetForgetsThePlanAndTheAttempts() {
        FaultPlanner planner = new FaultPlanner(FaultPlan.of(FaultRule.of(Fault.RESET)));
        planner.decide("POST", "/v1/seats", "key:a");

        planner.reset();

        assertEquals(FaultPlan.none(), planner.plan());
        FaultPlanner.Decision d = planner.decide("POST", "/v1/seats", "key:a");
        assertNull(d.rule());
        assertEquals(1, d.attempt());
    }

    @Test
    void everyCountsOnlyTheRequestsItsRuleMatches() {
        FaultPlanner planner = new FaultPlanner(FaultPlan.of(FaultRule.of(Fault.RESET).withMethodAndPath("POST", "/v1/seats").withEvery(2)));
        assertNull(planner.decide("POST", "/v1/seats", "k1").rule());
        assertNull(planner.decide("GET", "/v1/seats", "k2").rule());
        assertNull(planner.decide("POST", "/other", "k3").rule());
        assertEquals(Fault.RESET, planner.decide("POST", "/v1/seats", "k4").rule().fault());
    }
}
