package dev.idempotent.seatgrant.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/** {@code --base-path}: the seat API under a prefix, the admin API where it was, and the prefix in no log line. */
class BasePathTest {

    private static final String PREFIX = "/t/tok_s3cr3t";

    @Test
    void theSeatApiLivesUnderThePrefixAndTheAdminApiStaysPut() throws Exception {
        try (LogCapture log = new LogCapture();
             FakeSeatServer server = FakeSeatServer.start(ServerConfig.builder().basePath(PREFIX).build())) {
            Http http = new Http(server);
            assertEquals(URI.create(server.baseUri().toString() + PREFIX.substring(1)), server.apiBaseUri());

            HttpResponse<String> created = http.send(HttpRequest.newBuilder(URI.create(server.apiBaseUri() + "/v1/seats"))
                    .timeout(Duration.ofSeconds(10)).header("Content-Type", "application/json")
                    .header("Idempotency-Key", "k1").POST(HttpRequest.BodyPublishers.ofString(Http.BODY)).build());
            assertEquals(201, created.statusCode());
            String location = created.headers().firstValue("Location").orElseThrow();
            assertTrue(location.startsWith(PREFIX + "/v1/seats/"), location);
            assertEquals(200, http.get(location).statusCode());
            assertEquals(200, http.get(PREFIX + "/v1/seats?userId=user_1").statusCode());

            // At the root, the seat API is not there: nothing is written.
            HttpResponse<String> root = http.grant("k2", Http.BODY);
            assertEquals(404, root.statusCode());
            assertEquals(1, server.ledger().seats());

            assertEquals(200, http.get("/__admin/health").statusCode());
            assertEquals(404, http.get(PREFIX + "/__admin/health").statusCode());

            // The journal names API paths, as fault rules do, so a plan works unchanged under a prefix.
            List<JournalEntry> journal = server.journal();
            assertEquals("/v1/seats", journal.get(0).path());
            assertTrue(journal.get(1).path().startsWith("/v1/seats/"));

            server.faultPlan(FaultPlan.parse("{\"rules\":[{\"path\":\"/v1/seats\",\"fault\":\"status\",\"status\":503}]}"));
            assertEquals(503, http.get(PREFIX + "/v1/seats").statusCode());

            assertTrue(log.lines().stream().anyMatch(l -> l.contains("/v1/seats")), "per-request lines were captured");
            assertEquals(List.of(), log.containing("tok_s3cr3t"));
        }
    }

    @Test
    void aBadPrefixIsRefused() {
        for (String bad : List.of("t/x", "/t/", "/t//x", "/t/../x", "/t/x?y", "/t/%41", "/__admin/x", "/t x")) {
            assertThrows(IllegalArgumentException.class, () -> ServerConfig.builder().basePath(bad), bad);
        }
        assertEquals("", ServerConfig.builder().basePath("/").build().basePath());
    }
}
