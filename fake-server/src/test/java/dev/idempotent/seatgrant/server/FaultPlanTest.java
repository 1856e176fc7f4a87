package dev.idempotent.seatgrant.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.idempotent.seatgrant.server.internal.FaultPlanner;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.Test;

/** The fault plan's JSON contract and how the planner picks requests (attempt, every, probability, times). */
class FaultPlanTest {

    private static final String ISSUE_PLAN = """
            {"seed": 7, "rules": [
              {"method": "POST", "path": "/v1/seats", "attempt": 1, "fault": "reset-after-commit"},
              {"method": "POST", "path": "/v1/seats", "probability": 0.3, "fault": "status", "status": 503, "retryAfter": 1},
              {"fault": "status-after-commit", "status": 504, "delayMs": 1500}
            ]}""";

    @Test
    void theIssuesExampleParsesFieldForField() {
        FaultPlan plan = FaultPlan.parse(ISSUE_PLAN);

        assertEquals(7, plan.seed());
        assertEquals(new FaultRule("POST", "/v1/seats", 1, null, null, null, Fault.RESET_AFTER_COMMIT, null, null, null),
                plan.rules().get(0));
        assertEquals(new FaultRule("POST", "/v1/seats", null, null, 0.3, null, Fault.STATUS, 503, 1, null),
                plan.rules().get(1));
        assertEquals(new FaultRule(null, null, null, null, null, null, Fault.STATUS_AFTER_COMMIT, 504, null, 1500L),
                plan.rules().get(2));
        assertEquals(plan, FaultPlan.parse(plan.toJson()));
    }

    @ParameterizedTest
    @ValueSource(strings = {"incident", "incident-fast", "reset", "flaky"})
    void everyShippedScenarioLoads(String name) {
        FaultPlan plan = FaultPlan.scenario(name);

        assertTrue(!plan.rules().isEmpty());
    }

    @Test
    void incidentFastIsTheIncidentWithoutTheGatewayWait() {
        FaultRule incident = FaultPlan.scenario("incident").rules().get(0);

        FaultPlan fast = FaultPlan.scenario("incident-fast");

        assertEquals(1500L, incident.delayMs());
        assertEquals(List.of(new FaultRule(incident.method(), incident.path(), incident.attempt(), incident.every(),
                incident.probability(), incident.times(), incident.fault(), incident.status(), incident.retryAfter(),
                null)), fast.rules());
        assertEquals(FaultPlan.scenario("incident").seed(), fast.seed());
    }

    @Test
    void onRouteMovesEveryRuleThatNamesARouteAndLeavesTheOthers() {
        FaultPlan plan = FaultPlan.parse(ISSUE_PLAN);

        FaultPlan moved = plan.onRoute("put", "/orders/*");

        assertEquals(7, moved.seed());
        assertEquals(plan.rules().get(0).withMethodAndPath("PUT", "/orders/*"), moved.rules().get(0));
        assertEquals(plan.rules().get(1).withMethodAndPath("PUT", "/orders/*"), moved.rules().get(1));
        assertEquals(plan.rules().get(2), moved.rules().get(2), "a rule for any request stays one");
        assertThrows(InvalidFaultPlanException.class, () -> plan.onRoute("POST", "orders"));
        assertThrows(InvalidFaultPlanException.class, () -> plan.onRoute("PO ST", "/orders"));
    }

    @ParameterizedTest
    @ValueSource(strings = {"incident", "incident-fast", "reset", "flaky"})
    void aShippedScenarioIsNamedOnItsOwnRouteAndOnAnother(String name) {
        FaultPlan shipped = FaultPlan.scenario(name);

        assertEquals(Optional.of(name), shipped.scenarioName());
        assertEquals(Optional.of(name), shipped.onRoute("POST", "/orders").scenarioName());
        assertEquals(Optional.of(name), shipped.onRoute("PATCH", "/v2/*").scenarioName());
    }

    @Test
    void anyOtherPlanHasNoScenarioName() {
        FaultPlan incident = FaultPlan.scenario("incident");
        FaultPlan flaky = FaultPlan.scenario("flaky");
        List<FaultRule> split = new ArrayList<>(flaky.rules());
        split.set(1, split.get(1).withMethodAndPath("POST", "/elsewhere"));

        assertEquals(Optional.empty(), FaultPlan.none().scenarioName());
        assertEquals(Optional.empty(), FaultPlan.parse(ISSUE_PLAN).scenarioName());
        assertEquals(Optional.empty(), new FaultPlan(1, incident.rules()).scenarioName(), "another seed");
        assertEquals(Optional.empty(), FaultPlan.of(incident.rules().get(0).withAttempt(2)).scenarioName());
        assertEquals(Optional.empty(), new FaultPlan(flaky.seed(), split).scenarioName(),
                "rules on two routes are no one scenario moved");
        assertEquals(Optional.empty(), FaultPlan.of(FaultRule.of(Fault.STATUS_AFTER_COMMIT, 504).withAttempt(1)
                .withDelayMs(1500)).scenarioName(), "the incident's rule for any route is not the incident");
    }

    @Test
    void theIncidentScenarioIsAGatewayTimeoutAfterTheFirstCommit() {
        FaultRule rule = FaultPlan.scenario("incident").rules().get(0);

        assertEquals(Fault.STATUS_AFTER_COMMIT, rule.fault());
        assertEquals(504, rule.status());
        assertEquals(1, rule.attempt());
        assertTrue(rule.delayMs() > 0);
    }

    @Test
    void theFlakyScenarioUsesEveryFault() {
        assertEquals(java.util.EnumSet.allOf(Fault.class), FaultPlan.scenario("flaky").rules().stream()
                .map(FaultRule::fault).collect(java.util.stream.Collectors.toCollection(() -> java.util.EnumSet.noneOf(Fault.class))));
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {
        "not json                  | {                                             | not valid JSON",
        "an array                  | []                                            | must be a JSON object",
        "no rules                  | {}                                            | rules must be an array",
        "an unknown fault          | {\"rules\":[{\"fault\":\"explode\"}]}         | unknown fault",
        "a typo in a field         | {\"rules\":[{\"fault\":\"reset\",\"attempts\":1}]} | unknown field",
        "status without a status   | {\"rules\":[{\"fault\":\"status\"}]}          | needs a status",
        "status on a reset         | {\"rules\":[{\"fault\":\"reset\",\"status\":500}]} | status only goes",
        "probability above one     | {\"rules\":[{\"fault\":\"reset\",\"probability\":1.5}]} | between 0 and 1",
        "attempt zero              | {\"rules\":[{\"fault\":\"reset\",\"attempt\":0}]} | attempt must be 1 or more",
        "a negative delay          | {\"rules\":[{\"fault\":\"delay\",\"delayMs\":-1}]} | delayMs must be",
        "a relative path           | {\"rules\":[{\"fault\":\"reset\",\"path\":\"v1\"}]} | path must start with /",
        "a string attempt          | {\"rules\":[{\"fault\":\"reset\",\"attempt\":\"1\"}]} | attempt must be an integer",
        "a 1xx status              | {\"rules\":[{\"fault\":\"status\",\"status\":100}]} | between 200 and 599",
        "a repeated fault          | {\"rules\":[{\"fault\":\"reset\",\"fault\":\"close\"}]} | not valid JSON",
        "text after the plan       | {\"rules\":[]} {\"rules\":[{\"fault\":\"reset\"}]} | not valid JSON",
    })
    void aBadPlanIsRefusedWithItsReason(String what, String json, String reason) {
        InvalidFaultPlanException e = assertThrows(InvalidFaultPlanException.class, () -> FaultPlan.parse(json));

        assertTrue(e.getMessage().contains(reason), e.getMessage());
    }

    @Test
    void attemptCountsPerKeyAndTheFirstMatchWins() {
        FaultPlanner planner = new FaultPlanner(FaultPlan.of(
                FaultRule.of(Fault.RESET).withAttempt(1),
                FaultRule.of(Fault.CLOSE)));

        assertEquals(Fault.RESET, planner.decide("POST", "/v1/seats", "key:a").rule().fault());
        assertEquals(Fault.RESET, planner.decide("POST", "/v1/seats", "key:b").rule().fault());
        FaultPlanner.Decision second = planner.decide("POST", "/v1/seats", "key:a");
        assertEquals(2, second.attempt());
        assertEquals(Fault.CLOSE, second.rule().fault());
    }

    @Test
    void everyAndTimesAndMethodAndPathSelect() {
        FaultPlanner planner = new FaultPlanner(FaultPlan.of(
                FaultRule.of(Fault.RESET).withMethodAndPath("POST", "/v1/seats").withEvery(3).withTimes(2)));

        List<Boolean> struck = new ArrayList<>();
        for (int i = 0; i < 12; i++) {
            struck.add(planner.decide("POST", "/v1/seats", "key:" + i).rule() != null);
        }
        assertEquals(List.of(false, false, true, false, false, true, false, false, false, false, false, false), struck);
        assertNull(new FaultPlanner(FaultPlan.of(FaultRule.of(Fault.RESET).withMethodAndPath("POST", "/v1/seats")))
                .decide("GET", "/v1/seats", "x").rule());
        assertTrue(FaultRule.of(Fault.RESET).withMethodAndPath(null, "/v1/seats/*").matches("GET", "/v1/seats/abc"));
    }

    @Test
    void probabilityIsReproducibleForASeed() {
        FaultPlan plan = new FaultPlan(42, List.of(FaultRule.of(Fault.RESET).withProbability(0.5)));

        List<Boolean> first = draws(new FaultPlanner(plan));
        List<Boolean> second = draws(new FaultPlanner(plan));
        List<Boolean> otherSeed = draws(new FaultPlanner(new FaultPlan(43, plan.rules())));

        assertEquals(first, second);
        assertTrue(!first.equals(otherSeed), "a different seed should fault a different set of 64 requests");
        long hits = first.stream().filter(b -> b).count();
        assertTrue(hits > 16 && hits < 48, "about half of 64, got " + hits);
    }

    private static List<Boolean> draws(FaultPlanner planner) {
        List<Boolean> out = new ArrayList<>();
        for (int i = 0; i < 64; i++) {
            out.add(planner.decide("POST", "/v1/seats", "key:" + i).rule() != null);
        }
        return out;
    }
}
