package dev.idempotent.seatgrant.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.http.HttpRequest;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * {@code adminApi(false)}, the switch {@code grade} sets: a client of the seat API cannot read or change what the
 * server knows through {@code /__admin}; each such request is answered {@code 404} and journaled for whoever started
 * the server, which still reads the journal and the ledger in process.
 */
class AdminApiOffTest {

    @Test
    void withTheAdminApiOffItsRequestsAre404sInTheJournalAndTheResetResetsNothing() throws Exception {
        ServerConfig config = ServerConfig.builder().adminApi(false).build();
        try (FakeSeatServer server = FakeSeatServer.start(config)) {
            Http http = new Http(server);
            assertEquals(201, http.grant("k1", Http.BODY).statusCode());
            assertEquals(404, http.get("/__admin/health").statusCode());
            assertEquals(404, http.get("/__admin/ledger").statusCode());
            assertEquals(404, http.send(HttpRequest.newBuilder(http.uri("/__admin/reset"))
                    .timeout(Duration.ofSeconds(10)).POST(HttpRequest.BodyPublishers.noBody()).build()).statusCode());
            assertEquals(1, server.ledger().seats(), "the reset did nothing");
            List<String> seen = server.journal().stream().map(e -> e.method() + " " + e.path() + " " + e.status())
                    .toList();
            assertEquals(List.of("POST /v1/seats 201", "GET /__admin/health 404", "GET /__admin/ledger 404",
                    "POST /__admin/reset 404"), seen);
        }
        assertTrue(ServerConfig.builder().build().adminApi(), "on unless switched off");
    }
}
