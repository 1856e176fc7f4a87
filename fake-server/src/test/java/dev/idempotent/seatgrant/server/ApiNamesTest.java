package dev.idempotent.seatgrant.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/** A server given a handout's names serves its route and fields on the wire, and keeps the packet's inside. */
class ApiNamesTest {

    private static final ApiNames RENTALS = new ApiNames("/v2/kayak-rentals", "renterRef", "boatRef", "reason",
            "late_return", "rentals");

    @Test
    void theHandoutsRouteAndFieldsAreServedAndThePacketsAreNot() throws Exception {
        try (FakeSeatServer server = FakeSeatServer.start(ServerConfig.builder().apiNames(RENTALS).build())) {
            Http http = new Http(server);
            String body = "{\"renterRef\":\"rnt_1\",\"boatRef\":\"boat_1\",\"reason\":\"late_return\"}";
            HttpResponse<String> created = post(http, server, "/v2/kayak-rentals", "k1", body);
            assertEquals(201, created.statusCode(), created.body());
            JsonNode seat = Http.json(created.body());
            assertEquals("rnt_1", seat.get("renterRef").asText());
            assertEquals("boat_1", seat.get("boatRef").asText());
            assertEquals("late_return", seat.get("reason").asText());
            assertTrue(created.headers().firstValue("Location").orElseThrow().startsWith("/v2/kayak-rentals/"));

            HttpResponse<String> replay = post(http, server, "/v2/kayak-rentals", "k1", body);
            assertEquals(409, replay.statusCode());
            HttpResponse<String> listed = http.get("/v2/kayak-rentals?boatRef=boat_1");
            assertEquals(1, Http.json(listed.body()).get("rentals").size(), listed.body());

            // The packet's fields are missing fields here, and the packet's route is no route.
            HttpResponse<String> packetBody = post(http, server, "/v2/kayak-rentals", "k2", Http.BODY);
            assertEquals(400, packetBody.statusCode());
            assertTrue(packetBody.body().contains("renterRef is required"), packetBody.body());
            assertEquals(404, post(http, server, "/v1/seats", "k3", body).statusCode());

            // Inside, the packet's names: one seat for the usual role, journaled under /v1/seats.
            assertEquals(1, server.ledger().seats());
            List<JournalEntry> journal = server.journal();
            assertEquals("/v1/seats", journal.get(0).path());
            assertEquals(201, journal.get(0).status());
            assertEquals("/-/v1/seats", journal.get(journal.size() - 1).path());
        }
    }

    @Test
    void namesThatCannotBeARouteAndFieldsAreRefused() {
        assertThrows(IllegalArgumentException.class, () -> new ApiNames("v1/x", "a", "b", "c", "m", "l"));
        assertThrows(IllegalArgumentException.class, () -> new ApiNames("/__admin/x", "a", "b", "c", "m", "l"));
        assertThrows(IllegalArgumentException.class, () -> new ApiNames("/v1/x", "a", "a", "c", "m", "l"));
        assertThrows(IllegalArgumentException.class, () -> new ApiNames("/v1/x", "a\"", "b", "c", "m", "l"));
    }

    private static HttpResponse<String> post(Http http, FakeSeatServer server, String path, String key, String body)
            throws Exception {
        return http.send(HttpRequest.newBuilder(URI.create(server.apiBaseUri() + path)).timeout(Duration.ofSeconds(10))
                .header("Content-Type", "application/json").header("Idempotency-Key", key)
                .POST(HttpRequest.BodyPublishers.ofString(body)).build());
    }
}
