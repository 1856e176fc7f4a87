package dev.idempotent.seatgrant.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.idempotent.seatgrant.server.orders.OrdersService;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * Issue 23's three cases, with a real orders service (the JDK's HTTP server over an H2 table) behind the proxy
 * under the shipped {@code incident} scenario aimed at {@code POST /orders}: the first attempt of every order is
 * forwarded, the order is inserted, and the answer is lost to a 504 after 1.5 s. A client with retries then:
 * (a) without a key, makes two orders of one; (b) with a key the server ignores, still two ("the key only helps
 * if the server honours it"); (c) with a key the server honours, one, and the proxy's ledger names exactly the
 * table's rows.
 */
class BringYourOwnApiTest {

    private static final int ORDERS = 3;

    private final HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(5)).build();

    @Test
    void aKeylessClientWithRetriesMakesTwoOrdersOfOne() throws Exception {
        try (OrdersService orders = OrdersService.start(0, true); FakeProxy proxy = incidentProxy(orders)) {
            List<HttpResponse<String>> answers = placeOrders(proxy, false);

            answers.forEach(a -> assertEquals(201, a.statusCode(), "the retry is answered: " + a.body()));
            ProxyLedger ledger = proxy.ledger();
            assertEquals(ORDERS, ledger.operations());
            assertEquals(2 * ORDERS, ledger.created());
            assertEquals(ORDERS, ledger.duplicates().size(), "every order was made twice: " + ledger);
            ledger.duplicates().forEach(d -> {
                assertTrue(d.operation().startsWith("fingerprint:"), d.operation());
                assertEquals(2, d.created().size());
            });
            assertEquals(2 * ORDERS, orders.orders().size());
            assertOneToOne(ledger, orders.orders());
        }
    }

    @Test
    void aKeyTheServerIgnoresStillMakesTwoOrdersOfOne() throws Exception {
        try (OrdersService orders = OrdersService.start(0, false); FakeProxy proxy = incidentProxy(orders)) {
            List<HttpResponse<String>> answers = placeOrders(proxy, true);

            answers.forEach(a -> assertEquals(201, a.statusCode(), a.body()));
            ProxyLedger ledger = proxy.ledger();
            assertEquals(ORDERS, ledger.duplicates().size(), "the key only helps if the server honours it: " + ledger);
            assertEquals(Set.of("key:order-0", "key:order-1", "key:order-2"),
                    ledger.duplicates().stream().map(ProxyLedger.Duplicate::operation).collect(Collectors.toSet()));
            assertEquals(2 * ORDERS, orders.orders().size());
            assertOneToOne(ledger, orders.orders());
            assertTrue(orders.orders().stream().allMatch(o -> o.idempotencyKey() == null),
                    "this server never stored a key");
        }
    }

    @Test
    void aKeyTheServerHonoursMakesOneOrderAndTheLedgerNamesIt() throws Exception {
        try (OrdersService orders = OrdersService.start(0, true); FakeProxy proxy = incidentProxy(orders)) {
            List<HttpResponse<String>> answers = placeOrders(proxy, true);

            answers.forEach(a -> {
                assertEquals(200, a.statusCode(), "the retry gets the order that exists: " + a.body());
                assertEquals("true", a.headers().firstValue("Idempotent-Replayed").orElse(null));
            });
            ProxyLedger ledger = proxy.ledger();
            assertEquals(new ProxyLedger(ORDERS, ORDERS, List.of()), ledger);
            List<OrdersService.Order> rows = orders.orders();
            assertEquals(ORDERS, rows.size());
            // One to one: each operation's one created resource is the row that carries its key.
            Map<String, String> createdByOperation = proxy.journal().stream().filter(JournalEntry::committed)
                    .collect(Collectors.toMap(JournalEntry::operation, JournalEntry::seatId));
            Map<String, String> rowsByKey = rows.stream()
                    .collect(Collectors.toMap(o -> "key:" + o.idempotencyKey(), OrdersService.Order::location));
            assertEquals(rowsByKey, createdByOperation);
            // Each retry was forwarded and answered with the same order: a replay in the journal, not a creation.
            List<JournalEntry> retries = proxy.journal().stream().filter(e -> e.attempt() == 2).toList();
            assertEquals(ORDERS, retries.size());
            retries.forEach(e -> {
                assertEquals(200, e.upstreamStatus());
                assertEquals(createdByOperation.get(e.operation()), e.seatId());
                assertTrue(!e.committed());
            });
        }
    }

    @Test
    void theJournalKeepsWhatTheUpstreamAnsweredWhenTheClientNeverSawIt() throws Exception {
        try (OrdersService orders = OrdersService.start(0, true); FakeProxy proxy = incidentProxy(orders)) {
            placeOrders(proxy, true);

            List<JournalEntry> lost = proxy.journal().stream().filter(e -> e.attempt() == 1).toList();
            assertEquals(ORDERS, lost.size());
            lost.forEach(e -> {
                assertEquals("status-after-commit", e.fault());
                assertEquals(504, e.status(), "what the client got");
                assertEquals(201, e.upstreamStatus(), "what the upstream answered");
                assertNull(e.upstreamError());
                assertTrue(e.committed());
            });
        }
    }

    /** The created resources in the ledger are exactly the table's rows, each once. */
    private static void assertOneToOne(ProxyLedger ledger, List<OrdersService.Order> rows) {
        List<String> created = new ArrayList<>();
        ledger.duplicates().forEach(d -> created.addAll(d.created()));
        Set<String> locations = new HashSet<>();
        rows.forEach(o -> locations.add(o.location()));
        assertEquals(rows.size(), created.size());
        assertEquals(locations, new HashSet<>(created));
    }

    private static FakeProxy incidentProxy(OrdersService orders) {
        return FakeProxy.start(ProxyConfig.builder(orders.baseUri())
                .faultPlan(FaultPlan.scenario("incident").onRoute("POST", "/orders")).build());
    }

    /** {@link #ORDERS} orders at once, each by a client with retries, with or without a key per order. */
    private List<HttpResponse<String>> placeOrders(FakeProxy proxy, boolean withKey) throws Exception {
        List<CompletableFuture<HttpResponse<String>>> placing = new ArrayList<>();
        for (int i = 0; i < ORDERS; i++) {
            String body = "{\"item\":\"book-" + i + "\",\"quantity\":1}";
            String key = withKey ? "order-" + i : null;
            placing.add(CompletableFuture.supplyAsync(() -> placeOrder(proxy.baseUri().resolve("/orders"), body, key)));
        }
        List<HttpResponse<String>> answers = new ArrayList<>();
        for (CompletableFuture<HttpResponse<String>> f : placing) {
            answers.add(f.get(60, TimeUnit.SECONDS));
        }
        return answers;
    }

    /**
     * A client with retries, as many are written: up to 3 attempts, another on a 5xx or a broken connection, the
     * same body (and the same key, if any) each time.
     */
    private HttpResponse<String> placeOrder(URI orders, String body, String key) {
        IOException last = null;
        for (int attempt = 1; attempt <= 3; attempt++) {
            HttpRequest.Builder request = HttpRequest.newBuilder(orders).timeout(Duration.ofSeconds(20))
                    .header("Content-Type", "application/json").POST(HttpRequest.BodyPublishers.ofString(body));
            if (key != null) {
                request.header("Idempotency-Key", key);
            }
            try {
                HttpResponse<String> response = http.send(request.build(), HttpResponse.BodyHandlers.ofString());
                if (response.statusCode() < 500 || attempt == 3) {
                    return response;
                }
            } catch (IOException e) {
                last = e;
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException(e);
            }
        }
        throw new IllegalStateException("no answer in 3 attempts", last);
    }
}
