package dev.idempotent.seatgrant.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The proxy in front of the fake server itself, the fault moved from the server to the proxy: the seed's incident
 * through the proxy gives the same duplicates in both ledgers, the seat server's per user and the proxy's per
 * operation, read either from the answer's body ({@code json:/id}) or its {@code Location}.
 */
class ProxyInFrontOfFakeServerTest {

    @ParameterizedTest
    @ValueSource(strings = {"json:/id", "header:Location"})
    void theIncidentThroughTheProxyGivesTheSameDuplicatesInBothLedgers(String created) throws Exception {
        try (FakeSeatServer seats = FakeSeatServer.start(ServerConfig.builder().build());
             FakeProxy proxy = FakeProxy.start(ProxyConfig.builder(seats.baseUri())
                     .faultPlan(FaultPlan.scenario("incident")).created(created).build())) {
            Http client = new Http(proxy.baseUri());
            List<CompletableFuture<Void>> grants = new ArrayList<>();
            for (int user = 1; user <= 3; user++) {
                String body = "{\"workspaceId\":\"ws_1\",\"userId\":\"user_" + user + "\",\"role\":\"member\"}";
                // Users 1 and 2 retry without a key, as the agent-written worker did; user 3 with one.
                String key = user == 3 ? "req_3" : null;
                grants.add(CompletableFuture.runAsync(() -> grantWithRetry(client, key, body)));
            }
            for (CompletableFuture<Void> g : grants) {
                g.get();
            }

            Ledger seatLedger = seats.ledger();
            ProxyLedger proxyLedger = proxy.ledger();
            assertEquals(2, seatLedger.duplicates().size(), seatLedger.toString());
            assertEquals(seatLedger.seats(), proxyLedger.created(), "every seat was seen created through the proxy");
            Set<Set<String>> seatDuplicates = new HashSet<>();
            seatLedger.duplicates().forEach(d -> seatDuplicates.add(new HashSet<>(d.seatIds())));
            Set<Set<String>> proxyDuplicates = new HashSet<>();
            proxyLedger.duplicates().forEach(d -> proxyDuplicates.add(new HashSet<>(d.created().stream()
                    .map(id -> id.substring(id.lastIndexOf('/') + 1)).toList())));
            assertEquals(seatDuplicates, proxyDuplicates);
            assertTrue(proxyLedger.duplicates().stream().allMatch(d -> d.operation().startsWith("fingerprint:")),
                    "the keyed grant is no duplicate: " + proxyLedger);
            // The keyed retry got the server's 409 replay, which names the seat the lost answer carried.
            JournalEntry replay = proxy.journal().stream().filter(e -> "req_3".equals(e.idempotencyKey())
                    && e.attempt() == 2).findFirst().orElseThrow();
            assertEquals(409, replay.status());
            assertTrue(!replay.committed() && replay.seatId() != null, replay.toString());
        }
    }

    /** Up to 3 attempts, another on a 5xx: what the incident's worker did. */
    private static void grantWithRetry(Http client, String key, String body) {
        for (int attempt = 1; attempt <= 3; attempt++) {
            try {
                HttpResponse<String> response = client.grant(key, body);
                if (response.statusCode() < 500) {
                    return;
                }
            } catch (IOException e) {
                // retried
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
    }
}
