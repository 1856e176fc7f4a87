package dev.idempotent.seatgrant.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.http.HttpResponse;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * {@code serve} reads an {@code Idempotency-Key} that starts with {@code "} as the IETF draft's structured form, an
 * RFC 8941 sf-string (issue 35): the string it carries is the key, so a client that quotes its key and one that
 * does not dedupe against each other; parameters are ignored; a value that does not parse, and a decoded key that
 * breaks the key rule, are a 400 problem that writes nothing.
 */
class StructuredKeyTest {

    @Test
    void aQuotedKeyAndItsBareFormAreOneKeyAndTheJournalAndLedgerSeeTheDecodedKey() throws Exception {
        try (FakeSeatServer server = FakeSeatServer.start(ServerConfig.builder().build())) {
            Http http = new Http(server);
            HttpResponse<String> quoted = http.grant("\"k2\"", Http.BODY);
            HttpResponse<String> bare = http.grant("k2", Http.BODY);
            HttpResponse<String> withParameters = http.grant("\"k2\";a=1;b=\"x\";c=?1;d=-1.5;e=tok/en;f=:AQ==:",
                    Http.BODY);

            assertEquals(201, quoted.statusCode(), quoted.body());
            String seat = Http.json(quoted.body()).get("id").asText();
            for (HttpResponse<String> replay : List.of(bare, withParameters)) {
                assertEquals(409, replay.statusCode(), replay.body());
                assertEquals("true", replay.headers().firstValue("Idempotent-Replayed").orElse(null));
                assertEquals(seat, Http.json(replay.body()).get("id").asText());
            }
            assertEquals(List.of("k2", "k2", "k2"),
                    server.journal().stream().map(JournalEntry::idempotencyKey).toList());
            assertEquals(1, server.ledger().seats());
            assertEquals(1, server.ledger().keys());
        }
    }

    @Test
    void attemptsAreCountedPerDecodedKeySoAFaultPlanSeesOneGrant() throws Exception {
        FaultPlan lostFirst = FaultPlan.of(FaultRule.of(Fault.STATUS_AFTER_COMMIT, 504)
                .withMethodAndPath("POST", "/v1/seats").withAttempt(1));
        try (FakeSeatServer server = FakeSeatServer.start(ServerConfig.builder().faultPlan(lostFirst).build())) {
            Http http = new Http(server);
            assertEquals(504, http.grant("\"k9\"", Http.BODY).statusCode());
            assertEquals(409, http.grant("k9", Http.BODY).statusCode(), "attempt 2 of the same key: a replay");

            assertEquals(List.of(1, 2), server.journal().stream().map(JournalEntry::attempt).toList());
            assertEquals(1, server.ledger().seats());
        }
    }

    @Test
    void aValueThatDoesNotParseOrDecodesToAKeyTheRuleRefusesIsA400ThatWritesNothing() throws Exception {
        List<String> refused = List.of(
                "\"k2", "\"k2\" x", "\"k2\"\"", "\"k\\x2\"", "\"k2\";A=1", "\"k2\";a=", "\"k2\";a=1.2345",
                "\"k2\";a=?2", "\"k2\",\"k3\"",
                "\"\"", "\"a b\"", "\"\\\"k2\"", "\"" + "x".repeat(256) + "\"");
        try (FakeSeatServer server = FakeSeatServer.start(ServerConfig.builder().build())) {
            Http http = new Http(server);
            for (String value : refused) {
                HttpResponse<String> answer = http.grant(value, Http.BODY);
                assertEquals(400, answer.statusCode(), value + ": " + answer.body());
                assertEquals("application/problem+json", answer.headers().firstValue("Content-Type").orElse(null));
                assertTrue(Http.json(answer.body()).get("type").asText().endsWith(":invalid-idempotency-key"),
                        answer.body());
            }
            assertEquals(0, server.ledger().seats(), "nothing was written");
            assertEquals(201, http.grant("\"k2\"", Http.BODY).statusCode(), "and the server keeps serving");
        }
    }
}
