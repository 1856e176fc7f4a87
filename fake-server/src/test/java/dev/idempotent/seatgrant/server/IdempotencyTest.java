package dev.idempotent.seatgrant.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** How keys dedupe: replays, payload mismatches, requests still in progress, and a burst on one key. */
class IdempotencyTest extends SharedServerTest {

    @Test
    void aNewKeyCommitsAndAnswers201WithLocation() throws Exception {
        HttpResponse<String> response = http.grant("k-new", Http.BODY);

        assertEquals(201, response.statusCode());
        JsonNode seat = Http.json(response.body());
        assertTrue(seat.get("id").asText().startsWith("seat_"));
        assertEquals("ws_1", seat.get("workspaceId").asText());
        assertEquals("user_1", seat.get("userId").asText());
        assertEquals("member", seat.get("role").asText());
        assertFalse(seat.get("createdAt").asText().isBlank());
        assertEquals("/v1/seats/" + seat.get("id").asText(), response.headers().firstValue("Location").orElseThrow());
        assertTrue(response.headers().firstValue("Idempotent-Replayed").isEmpty());
        assertEquals(seat, http.getJson("/v1/seats/" + seat.get("id").asText()));
        assertEquals(1, http.getJson("/v1/seats?workspaceId=ws_1&userId=user_1").get("seats").size());
        assertEquals(0, http.getJson("/v1/seats?workspaceId=ws_1&userId=someone_else").get("seats").size());
    }

    @Test
    void aCompletedKeyReplaysAs409WithTheSameSeat() throws Exception {
        String first = http.grant("k-replay", Http.BODY).body();
        // Same payload, other field order and spacing: still the same grant.
        HttpResponse<String> replay = http.grant("k-replay",
                "{ \"role\": \"member\", \"userId\": \"user_1\", \"workspaceId\": \"ws_1\" }");

        assertEquals(409, replay.statusCode());
        assertEquals("true", replay.headers().firstValue("Idempotent-Replayed").orElseThrow());
        assertEquals("application/json", replay.headers().firstValue("Content-Type").orElseThrow());
        assertEquals(Http.json(first), Http.json(replay.body()));
        assertEquals(1, server.ledger().seats());
    }

    @Test
    void replayStatusOriginalAnswersTheOriginal201() throws Exception {
        try (FakeSeatServer stripeStyle = FakeSeatServer.start(
                ServerConfig.builder().replayStatus(ReplayStatus.ORIGINAL).build())) {
            Http h = new Http(stripeStyle);
            HttpResponse<String> first = h.grant("k", Http.BODY);
            HttpResponse<String> replay = h.grant("k", Http.BODY);

            assertEquals(201, replay.statusCode());
            assertEquals("true", replay.headers().firstValue("Idempotent-Replayed").orElseThrow());
            assertEquals(Http.json(first.body()), Http.json(replay.body()));
            assertEquals(1, stripeStyle.ledger().seats());
        }
    }

    @Test
    void aKeyReusedWithAnotherPayloadIs422AndWritesNothing() throws Exception {
        http.grant("k-422", Http.BODY);

        HttpResponse<String> response = http.grant("k-422",
                "{\"workspaceId\":\"ws_1\",\"userId\":\"user_2\",\"role\":\"member\"}");

        assertEquals(422, response.statusCode());
        assertEquals("application/problem+json", response.headers().firstValue("Content-Type").orElseThrow());
        assertEquals(1, server.ledger().seats());
        assertTrue(http.getJson("/v1/seats?userId=user_2").get("seats").isEmpty());
    }

    @Test
    void aKeyStillInProgressIs409WithRetryAfterAndNoSeat() throws Exception {
        // The first attempt claims the key, then the delay fault holds it uncommitted for a while.
        server.faultPlan(FaultPlan.of(FaultRule.of(Fault.DELAY).withAttempt(1).withDelayMs(1500)));
        CompletableFuture<HttpResponse<String>> slow = http.client().sendAsync(
                http.postSeat("k-busy", Http.BODY).build(), HttpResponse.BodyHandlers.ofString());
        Await.until(Duration.ofSeconds(5), "the slow request's claim", () -> server.ledger().keys() == 1);

        HttpResponse<String> busy = http.grant("k-busy", Http.BODY);

        assertEquals(409, busy.statusCode());
        assertEquals("1", busy.headers().firstValue("Retry-After").orElseThrow());
        assertTrue(busy.headers().firstValue("Idempotent-Replayed").isEmpty());
        assertEquals("tag:idempotent.dev,2026:problem:request-in-progress", Http.json(busy.body()).get("type").asText());
        assertEquals(0, server.ledger().seats());

        HttpResponse<String> created = slow.get(10, TimeUnit.SECONDS);
        assertEquals(201, created.statusCode());
        HttpResponse<String> replay = http.grant("k-busy", Http.BODY);
        assertEquals(409, replay.statusCode());
        assertEquals(Http.json(created.body()).get("id"), Http.json(replay.body()).get("id"));
        assertEquals(1, server.ledger().seats());
    }

    @Test
    void aStalledHoldersClaimIsTakenOverAndTheStalledRequestWritesNothing() throws Exception {
        MutableClock clock = new MutableClock(java.time.Instant.parse("2026-01-01T00:00:00Z"));
        try (FakeSeatServer s = FakeSeatServer.start(ServerConfig.builder().clock(clock)
                .claimLease(Duration.ofSeconds(10))
                .faultPlan(FaultPlan.of(FaultRule.of(Fault.DELAY).withAttempt(1).withDelayMs(1500))).build())) {
            Http h = new Http(s);
            CompletableFuture<HttpResponse<String>> stalled = h.client().sendAsync(
                    h.postSeat("k-stalled", Http.BODY).build(), HttpResponse.BodyHandlers.ofString());
            Await.until(Duration.ofSeconds(5), "the stalled request's claim", () -> s.ledger().keys() == 1);

            clock.advance(Duration.ofSeconds(11));
            HttpResponse<String> rescuer = h.grant("k-stalled", Http.BODY);

            assertEquals(201, rescuer.statusCode());
            HttpResponse<String> late = stalled.get(10, TimeUnit.SECONDS);
            // The stalled request lost its claim: it answers with the rescuer's seat and writes none of its own.
            assertEquals(409, late.statusCode());
            assertEquals(Http.json(rescuer.body()).get("id"), Http.json(late.body()).get("id"));
            assertEquals(1, s.ledger().seats());
            assertEquals(1, s.journal().stream().filter(JournalEntry::committed).count());
        }
    }

    @Test
    void fiftyConcurrentRequestsWithOneKeyWriteOneSeat() throws Exception {
        List<CompletableFuture<HttpResponse<String>>> inFlight = new ArrayList<>();
        for (int i = 0; i < 50; i++) {
            inFlight.add(http.client().sendAsync(http.postSeat("k-burst", Http.BODY).build(),
                    HttpResponse.BodyHandlers.ofString()));
        }
        List<HttpResponse<String>> responses = Http.awaitAll(inFlight);

        Map<Integer, Long> byStatus = Http.countByStatus(responses);
        assertEquals(1L, byStatus.get(201), byStatus::toString);
        assertEquals(Set.of(201, 409), byStatus.keySet(), byStatus::toString);
        String seatId = responses.stream().filter(r -> r.statusCode() == 201)
                .map(r -> Http.json(r.body()).get("id").asText()).findFirst().orElseThrow();
        for (HttpResponse<String> r : responses) {
            if (r.headers().firstValue("Idempotent-Replayed").isPresent()) {
                assertEquals(seatId, Http.json(r.body()).get("id").asText());
            } else if (r.statusCode() == 409) {
                assertEquals("1", r.headers().firstValue("Retry-After").orElseThrow());
            }
        }
        assertEquals(1, server.ledger().seats());
        assertEquals(1, server.journal().stream().filter(JournalEntry::committed).count());
    }

    @Test
    void withoutAKeyEveryPostIsANewSeat() throws Exception {
        http.grant(null, Http.BODY);
        http.grant(null, Http.BODY);

        Ledger ledger = server.ledger();
        assertEquals(2, ledger.seats());
        assertEquals(0, ledger.keys());
        assertEquals(1, ledger.duplicates().size());
        assertEquals(List.of(), ledger.duplicates().get(0).idempotencyKeys());
    }
}
