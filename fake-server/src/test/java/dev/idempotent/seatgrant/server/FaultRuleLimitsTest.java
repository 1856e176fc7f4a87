package dev.idempotent.seatgrant.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Every limit a fault rule validates, at its exact edge (the last value accepted, the first refused), how its
 * path selector matches, and that the JSON form carries every field there and back.
 */
class FaultRuleLimitsTest {

    private static void refused(String json, String reason) {
        InvalidFaultPlanException e = assertThrows(InvalidFaultPlanException.class,
                () -> FaultPlan.parse("{\"rules\":[" + json + "]}"));
        assertTrue(e.getMessage().contains(reason), e.getMessage());
    }

    private static FaultRule accepted(String json) {
        return FaultPlan.parse("{\"rules\":[" + json + "]}").rules().get(0);
    }

    @Test
    void statusRunsFrom200To599() {
        assertEquals(200, accepted("{\"fault\":\"status\",\"status\":200}").status());
        assertEquals(599, accepted("{\"fault\":\"status-after-commit\",\"status\":599}").status());
        refused("{\"fault\":\"status\",\"status\":199}", "between 200 and 599");
        refused("{\"fault\":\"status-after-commit\",\"status\":600}", "between 200 and 599");
    }

    @Test
    void probabilityRunsFromZeroToOneInclusive() {
        assertEquals(0.0, accepted("{\"fault\":\"reset\",\"probability\":0}").probability());
        assertEquals(1.0, accepted("{\"fault\":\"reset\",\"probability\":1}").probability());
        refused("{\"fault\":\"reset\",\"probability\":-0.0001}", "between 0 and 1");
        refused("{\"fault\":\"reset\",\"probability\":1.0001}", "between 0 and 1");
    }

    @ParameterizedTest
    @ValueSource(strings = {"attempt", "every", "times"})
    void countersStartAtOne(String field) {
        assertEquals("{\"seed\":0,\"rules\":[{\"" + field + "\":1,\"fault\":\"reset\"}]}",
                FaultPlan.parse("{\"rules\":[{\"fault\":\"reset\",\"" + field + "\":1}]}").toJson());
        refused("{\"fault\":\"reset\",\"" + field + "\":0}", field + " must be 1 or more");
        refused("{\"fault\":\"reset\",\"" + field + "\":-1}", field + " must be 1 or more");
    }

    @Test
    void retryAfterMayBeZeroButNotLess() {
        assertEquals(0, accepted("{\"fault\":\"status\",\"status\":503,\"retryAfter\":0}").retryAfter());
        refused("{\"fault\":\"status\",\"status\":503,\"retryAfter\":-1}", "retryAfter must be 0 or more");
        refused("{\"fault\":\"reset\",\"retryAfter\":1}", "retryAfter only goes with");
    }

    @Test
    void delayRunsFromZeroToTheMaximum() {
        assertEquals(0L, accepted("{\"fault\":\"delay\",\"delayMs\":0}").delayMs());
        assertEquals(FaultRule.MAX_DELAY_MS, accepted("{\"fault\":\"delay\",\"delayMs\":" + FaultRule.MAX_DELAY_MS + "}").delayMs());
        refused("{\"fault\":\"delay\",\"delayMs\":-1}", "delayMs must be between");
        refused("{\"fault\":\"hang-after-commit\",\"delayMs\":" + (FaultRule.MAX_DELAY_MS + 1) + "}", "delayMs must be between");
    }

    @Test
    void aMethodIsOneToSixteenLettersAndMatchesInUpperCase() {
        FaultRule rule = FaultRule.of(Fault.RESET).withMethodAndPath("post", null);
        assertEquals("POST", rule.method());
        assertTrue(rule.matches("POST", "/anything"));
        assertFalse(rule.matches("GET", "/anything"));
        assertEquals("ABCDEFGHIJKLMNOP", FaultRule.of(Fault.RESET).withMethodAndPath("abcdefghijklmnop", null).method());
        assertThrows(InvalidFaultPlanException.class, () -> FaultRule.of(Fault.RESET).withMethodAndPath("abcdefghijklmnopq", null));
        assertThrows(InvalidFaultPlanException.class, () -> FaultRule.of(Fault.RESET).withMethodAndPath("", null));
    }

    @Test
    void anExactPathMatchesOnlyItselfAndAStarPathMatchesItsPrefix() {
        FaultRule exact = FaultRule.of(Fault.RESET).withMethodAndPath(null, "/v1/seats");
        assertTrue(exact.matches("POST", "/v1/seats"));
        assertFalse(exact.matches("POST", "/v1/seats/seat_1"));
        assertFalse(exact.matches("POST", "/v1/seat"));

        FaultRule prefix = FaultRule.of(Fault.RESET).withMethodAndPath(null, "/v1/*");
        assertTrue(prefix.matches("GET", "/v1/"));
        assertTrue(prefix.matches("GET", "/v1/seats"));
        assertFalse(prefix.matches("GET", "/v2/seats"));
        assertFalse(prefix.matches("GET", "/v1"));
    }

    @Test
    void withStatusChangesOnlyTheStatus() {
        FaultRule rule = FaultRule.of(Fault.STATUS, 503).withRetryAfter(2).withStatus(429);
        assertEquals(429, rule.status());
        assertEquals(2, rule.retryAfter());
        assertEquals(Fault.STATUS, rule.fault());
    }

    @Test
    void everyFieldSurvivesTheJsonRoundTrip() {
        FaultPlan plan = new FaultPlan(-3, List.of(
                new FaultRule("POST", "/v1/*", 2, 3, 0.5, 4, Fault.STATUS_AFTER_COMMIT, 504, 1, 250L),
                new FaultRule(null, null, null, 5, null, 6, Fault.HANG_AFTER_COMMIT, null, null, 10L)));
        assertEquals(plan, FaultPlan.parse(plan.toJson()));
    }

    @Test
    void anUnknownFieldOnThePlanItselfIsRefused() {
        InvalidFaultPlanException e = assertThrows(InvalidFaultPlanException.class,
                () -> FaultPlan.parse("{\"sede\":7,\"rules\":[]}"));
        assertTrue(e.getMessage().contains("unknown field"), e.getMessage());
        assertEquals(7, FaultPlan.parse("{\"seed\":7,\"rules\":[],\"description\":\"ok\"}").seed());
    }
}
