package dev.idempotent.seatgrant.server;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;

/**
 * Two server processes' worth of state (two servers, two pools) on one real PostgreSQL database: the same key
 * sent to both at once writes exactly one seat, because uniqueness lives in the database, not in a process.
 */
class PostgresTwoInstancesTest {

    @Test
    void theSameKeySentToBothServersAtOnceWritesOneSeat() throws Exception {
        String url = EmbeddedPostgresFixture.newDatabase();
        try (FakeSeatServer a = FakeSeatServer.start(ServerConfig.builder().db(url).build());
             FakeSeatServer b = FakeSeatServer.start(ServerConfig.builder().db(url).build())) {
            Http httpA = new Http(a);
            Http httpB = new Http(b);
            List<String> keys = List.of("pg-k1", "pg-k2", "pg-k3", "pg-k4", "pg-k5");
            List<CompletableFuture<HttpResponse<String>>> inFlight = new ArrayList<>();
            for (String key : keys) {
                // One user per key: five different grants, each sent six times, alternating servers.
                String body = "{\"workspaceId\":\"ws_1\",\"userId\":\"" + key + "\",\"role\":\"member\"}";
                for (int i = 0; i < 6; i++) {
                    Http target = i % 2 == 0 ? httpA : httpB;
                    inFlight.add(target.client().sendAsync(target.postSeat(key, body).build(),
                            HttpResponse.BodyHandlers.ofString()));
                }
            }
            List<HttpResponse<String>> responses = Http.awaitAll(inFlight);

            Map<Integer, Long> byStatus = Http.countByStatus(responses);
            assertEquals(5L, byStatus.get(201), byStatus::toString);
            assertEquals(25L, byStatus.get(409), byStatus::toString);
            // Both servers read the same store, so both ledgers agree: five seats, five keys.
            assertEquals(new Ledger(5, 5, List.of()), a.ledger());
            assertEquals(a.ledger(), b.ledger());
            long committed = a.journal().stream().filter(JournalEntry::committed).count()
                    + b.journal().stream().filter(JournalEntry::committed).count();
            assertEquals(5, committed);
        }
    }

    @Test
    void withoutKeysTwoServersWriteTheDuplicateTheLedgerReports() throws Exception {
        String url = EmbeddedPostgresFixture.newDatabase();
        try (FakeSeatServer a = FakeSeatServer.start(ServerConfig.builder().db(url).build());
             FakeSeatServer b = FakeSeatServer.start(ServerConfig.builder().db(url).build())) {
            assertEquals(201, new Http(a).grant(null, Http.BODY).statusCode());
            assertEquals(201, new Http(b).grant(null, Http.BODY).statusCode());

            Ledger ledger = b.ledger();
            assertEquals(2, ledger.seats());
            assertEquals(1, ledger.duplicates().size());
        }
    }
}
