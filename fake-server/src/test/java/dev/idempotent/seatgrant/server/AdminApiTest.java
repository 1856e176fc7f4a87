package dev.idempotent.seatgrant.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/** The admin API under /__admin/: what anyone, in any language, uses to script faults and see the incident. */
class AdminApiTest extends SharedServerTest {

    private static final String ISSUE_PLAN = """
            {"seed": 7, "rules": [
              {"method": "POST", "path": "/v1/seats", "attempt": 1, "fault": "reset-after-commit"},
              {"method": "POST", "path": "/v1/seats", "probability": 0.3, "fault": "status", "status": 503, "retryAfter": 1},
              {"fault": "status-after-commit", "status": 504, "delayMs": 1500}
            ]}""";

    private static HttpResponse<String> admin(String method, String path, String body) {
        HttpRequest.BodyPublisher publisher = body == null
                ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofString(body);
        return http.send(HttpRequest.newBuilder(http.uri(path)).timeout(Duration.ofSeconds(10))
                .header("Content-Type", "application/json").method(method, publisher).build());
    }

    @Test
    void healthAnswersOk() {
        HttpResponse<String> response = admin("GET", "/__admin/health", null);

        assertEquals(200, response.statusCode());
        assertEquals("ok", Http.json(response.body()).get("status").asText());
    }

    @Test
    void theIssuesPlanIsAcceptedReadBackAndCleared() {
        HttpResponse<String> posted = admin("POST", "/__admin/faults", ISSUE_PLAN);
        assertEquals(200, posted.statusCode(), posted::body);

        JsonNode plan = Http.json(admin("GET", "/__admin/faults", null).body());
        assertEquals(7, plan.get("seed").asInt());
        assertEquals(3, plan.get("rules").size());
        assertEquals("reset-after-commit", plan.get("rules").get(0).get("fault").asText());
        assertEquals(1, plan.get("rules").get(0).get("attempt").asInt());
        assertEquals(0.3, plan.get("rules").get(1).get("probability").asDouble());
        assertEquals(1500, plan.get("rules").get(2).get("delayMs").asInt());
        assertEquals(FaultPlan.parse(ISSUE_PLAN), server.faultPlan());

        assertEquals(204, admin("DELETE", "/__admin/faults", null).statusCode());
        assertEquals(0, Http.json(admin("GET", "/__admin/faults", null).body()).get("rules").size());
    }

    @Test
    void aBadPlanIs400WithTheReasonAndTheOldPlanStays() {
        admin("POST", "/__admin/faults", ISSUE_PLAN);

        HttpResponse<String> bad = admin("POST", "/__admin/faults",
                "{\"rules\": [{\"fault\": \"status\"}]}");

        assertEquals(400, bad.statusCode());
        assertEquals("application/problem+json", bad.headers().firstValue("Content-Type").orElseThrow());
        assertTrue(Http.json(bad.body()).get("detail").asText().contains("needs a status"), bad::body);
        assertEquals(FaultPlan.parse(ISSUE_PLAN), server.faultPlan());
    }

    @Test
    void theJournalAndLedgerShowTheIncident() throws Exception {
        admin("POST", "/__admin/faults",
                "{\"rules\": [{\"method\": \"POST\", \"path\": \"/v1/seats\", \"attempt\": 1,"
                        + " \"fault\": \"status-after-commit\", \"status\": 504}]}");
        http.grant(null, Http.BODY);
        http.grant(null, Http.BODY);

        JsonNode requests = Http.json(admin("GET", "/__admin/requests", null).body()).get("requests");
        assertEquals(2, requests.size());
        JsonNode first = requests.get(0);
        for (String field : new String[] {"at", "method", "path", "idempotencyKey", "fault", "committed", "seatId", "status"}) {
            assertTrue(first.has(field), field);
        }
        assertEquals("status-after-commit", first.get("fault").asText());
        assertTrue(first.get("committed").asBoolean());
        assertEquals(504, first.get("status").asInt());
        assertTrue(first.get("idempotencyKey").isNull());
        assertTrue(requests.get(1).get("fault").isNull());

        JsonNode ledger = Http.json(admin("GET", "/__admin/ledger", null).body());
        assertEquals(2, ledger.get("seats").asInt());
        assertEquals(0, ledger.get("keys").asInt());
        JsonNode duplicate = ledger.get("duplicates").get(0);
        assertEquals("ws_1", duplicate.get("workspaceId").asText());
        assertEquals("user_1", duplicate.get("userId").asText());
        assertEquals(first.get("seatId"), duplicate.get("seatIds").get(0));
        assertEquals(requests.get(1).get("seatId"), duplicate.get("seatIds").get(1));
        assertEquals(0, duplicate.get("idempotencyKeys").size());
    }

    @Test
    void resetEmptiesSeatsKeysJournalAndPlan() throws Exception {
        assertEquals(201, http.grant("k", Http.BODY).statusCode());
        admin("POST", "/__admin/faults", ISSUE_PLAN);

        assertEquals(204, admin("POST", "/__admin/reset", null).statusCode());

        Ledger ledger = server.ledger();
        assertEquals(0, ledger.seats());
        assertEquals(0, ledger.keys());
        assertEquals(0, server.journal().size());
        assertEquals(FaultPlan.none(), server.faultPlan());
        // The attempt counts went too: this key's next request is attempt 1 again, not 2.
        assertEquals(201, http.grant("k", Http.BODY).statusCode());
        assertEquals(1, server.journal().get(0).attempt());
    }

    @Test
    void adminCallsAreNotJournaledAndWrongMethodsAre405() {
        HttpResponse<String> response = admin("DELETE", "/__admin/ledger", null);

        assertEquals(405, response.statusCode());
        assertEquals("GET", response.headers().firstValue("Allow").orElseThrow());
        assertEquals(404, admin("GET", "/__admin/nothing", null).statusCode());
        assertEquals(0, server.journal().size());
    }

    @Test
    void withATokenTheAdminApiNeedsTheBearer() {
        try (FakeSeatServer guarded = FakeSeatServer.start(ServerConfig.builder().adminToken("s3cret-token").build())) {
            Http g = new Http(guarded);
            HttpResponse<String> anonymous = g.get("/__admin/ledger");
            HttpResponse<String> wrong = g.send(HttpRequest.newBuilder(g.uri("/__admin/ledger"))
                    .header("Authorization", "Bearer nope").build());
            HttpResponse<String> right = g.send(HttpRequest.newBuilder(g.uri("/__admin/ledger"))
                    .header("Authorization", "Bearer s3cret-token").build());

            assertEquals(401, anonymous.statusCode());
            assertEquals("Bearer", anonymous.headers().firstValue("WWW-Authenticate").orElseThrow());
            assertEquals(401, wrong.statusCode());
            assertEquals(200, right.statusCode());
            assertTrue(!guarded.config().toString().contains("s3cret"), "the token must not appear in toString");
        }
    }
}
