package dev.idempotent.seatgrant.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.net.Socket;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * What the admin API gained for followers of the incident: seq, ids and sent on every journal entry,
 * {@code ?after=SEQ}, {@code {"scenario": NAME}} plans, and a bounded journal.
 */
class JournalAdminTest extends SharedServerTest {

    private static HttpResponse<String> admin(String method, String path, String body) {
        HttpRequest.BodyPublisher publisher = body == null
                ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofString(body);
        return http.send(HttpRequest.newBuilder(http.uri(path)).timeout(Duration.ofSeconds(10))
                .header("Content-Type", "application/json").method(method, publisher).build());
    }

    @Test
    void everyEntryCarriesSeqIdsAndSent() throws Exception {
        assertEquals(201, http.grant("j-1", Http.BODY).statusCode());
        assertEquals(400, http.grant("j-2", "{\"workspaceId\":").statusCode());
        assertEquals(200, http.get("/v1/seats?workspaceId=ws_9&userId=user_9").statusCode());

        JsonNode requests = http.getJson("/__admin/requests").get("requests");
        assertEquals(3, requests.size());
        JsonNode created = requests.get(0);
        assertEquals("ws_1", created.get("workspaceId").asText());
        assertEquals("user_1", created.get("userId").asText());
        assertTrue(created.get("sent").asBoolean());
        assertEquals(201, created.get("status").asInt());
        JsonNode unreadable = requests.get(1);
        assertTrue(unreadable.get("workspaceId").isNull());
        assertTrue(unreadable.get("userId").isNull());
        assertEquals("ws_9", requests.get(2).get("workspaceId").asText());
        assertEquals("user_9", requests.get(2).get("userId").asText());
        long previous = 0;
        for (JsonNode entry : requests) {
            assertTrue(entry.get("seq").asLong() > previous, "seq increases");
            previous = entry.get("seq").asLong();
        }
    }

    @Test
    void afterReturnsOnlyNewerEntriesAndSeqSurvivesAReset() throws Exception {
        for (int i = 0; i < 3; i++) {
            http.grant("a-" + i, Http.BODY);
        }
        List<JournalEntry> all = server.journal();
        long second = all.get(1).seq();

        JsonNode newer = http.getJson("/__admin/requests?after=" + second).get("requests");
        assertEquals(1, newer.size());
        assertEquals(all.get(2).seq(), newer.get(0).get("seq").asLong());
        assertEquals(0, http.getJson("/__admin/requests?after=" + all.get(2).seq()).get("requests").size());
        assertEquals(3, http.getJson("/__admin/requests?after=0").get("requests").size());

        server.reset();
        http.grant("a-after-reset", Http.BODY);
        JsonNode afterReset = http.getJson("/__admin/requests?after=" + all.get(2).seq()).get("requests");
        assertEquals(1, afterReset.size(), "a follower's after= still finds entries made after a reset");
    }

    @Test
    void aBadAfterIsA400Problem() {
        for (String bad : List.of("x", "-1", "1.5", "")) {
            HttpResponse<String> response = http.get("/__admin/requests?after=" + bad);
            assertEquals(400, response.statusCode(), bad);
            assertTrue(response.body().contains("problem:invalid-query"), response.body());
        }
    }

    @Test
    void aCommittedAnswerThatNeverReachedTheClientIsNotSent() throws Exception {
        // The POST is held 300 ms; meanwhile the client resets the connection, so the 201 the server then
        // writes cannot be delivered. The journal must say so rather than claim the client got it.
        server.faultPlan(FaultPlan.parse(
                "{\"rules\":[{\"method\":\"POST\",\"path\":\"/v1/seats\",\"fault\":\"delay\",\"delayMs\":300}]}"));
        try (Socket socket = new Socket(server.baseUri().getHost(), server.baseUri().getPort())) {
            socket.getOutputStream().write(Wire.seatPost("gone-1", Http.BODY).getBytes(StandardCharsets.ISO_8859_1));
            socket.getOutputStream().flush();
            socket.setSoLinger(true, 0);
        }
        Await.until(Duration.ofSeconds(10), "the held POST to finish", () -> server.journal().size() == 1);
        JournalEntry entry = server.journal().get(0);
        assertEquals(201, entry.status());
        assertTrue(entry.committed());
        Await.until(Duration.ofSeconds(10), "the write to be settled",
                () -> server.journal(0).size() == 1);
        assertFalse(server.journal().get(0).sent());
    }

    @Test
    void aFaultedAnswerIsNotSent() throws Exception {
        server.faultPlan(FaultPlan.of(FaultRule.of(Fault.CLOSE_AFTER_COMMIT)));
        try {
            http.grant("closed-1", Http.BODY);
        } catch (java.io.IOException expected) {
            // the point of the fault
        }
        JournalEntry entry = server.journal().get(0);
        assertEquals(null, entry.status());
        assertFalse(entry.sent());
        assertTrue(entry.committed());
    }

    @Test
    void aShippedScenarioCanBeInstalledByNameAndIsNamedBack() {
        HttpResponse<String> posted = admin("POST", "/__admin/faults", "{\"scenario\": \"incident\"}");
        assertEquals(200, posted.statusCode(), posted::body);
        assertEquals("incident", Http.json(posted.body()).get("scenario").asText());
        assertEquals(FaultPlan.scenario("incident"), server.faultPlan());
        assertEquals("incident", http.getJson("/__admin/faults").get("scenario").asText());

        admin("POST", "/__admin/faults", "{\"rules\":[{\"fault\":\"close\"}]}");
        assertTrue(http.getJson("/__admin/faults").get("scenario").isNull(), "a hand-written plan names none");

        server.faultPlan(FaultPlan.scenario("flaky"));
        assertEquals("flaky", http.getJson("/__admin/faults").get("scenario").asText());
    }

    @Test
    void anUnknownOrMalformedScenarioRequestIsRefusedAndTheOldPlanStays() {
        admin("POST", "/__admin/faults", "{\"scenario\": \"reset\"}");
        for (String bad : List.of("{\"scenario\": \"nope\"}", "{\"scenario\": 3}",
                "{\"scenario\": \"reset\", \"rules\": []}")) {
            HttpResponse<String> response = admin("POST", "/__admin/faults", bad);
            assertEquals(400, response.statusCode(), bad);
            assertTrue(response.body().contains("problem:invalid-fault-plan"), response.body());
        }
        assertEquals("reset", http.getJson("/__admin/faults").get("scenario").asText());
    }

    @Test
    void theJournalIsABoundedRingAndTheLedgerIsUnaffected() throws Exception {
        try (FakeSeatServer small = FakeSeatServer.start(ServerConfig.builder().journalCapacity(3).build())) {
            Http smallHttp = new Http(small);
            for (int i = 0; i < 5; i++) {
                assertEquals(201, smallHttp.grant("ring-" + i,
                        "{\"workspaceId\":\"w\",\"userId\":\"u" + i + "\",\"role\":\"member\"}").statusCode());
            }
            List<String> kept = new ArrayList<>();
            small.journal().forEach(e -> kept.add(e.idempotencyKey()));
            assertEquals(List.of("ring-2", "ring-3", "ring-4"), kept);
            assertEquals(List.of(3L, 4L, 5L), small.journal().stream().map(JournalEntry::seq).toList());
            // The last entry settles once its write completes, which may be a moment after the client read it.
            Await.until(Duration.ofSeconds(5), "entries 4 and 5 after seq 3", () -> small.journal(3).size() == 2);
            assertEquals(5, small.ledger().seats());
        }
    }
}
