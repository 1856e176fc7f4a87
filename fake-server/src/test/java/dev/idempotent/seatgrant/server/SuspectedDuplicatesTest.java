package dev.idempotent.seatgrant.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.idempotent.seatgrant.server.orders.OrdersService;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * Issue 33 item 7, over real sockets with a real orders service behind the proxy (the JDK's HTTP server over H2): a
 * keyless client whose body changes on every attempt (a fresh nonce and timestamp) makes each attempt an operation
 * of its own, so the first answer lost makes every retry a first attempt again: six orders for two intents, and no
 * operation with two resources. The proxy reports such operations as suspected duplicates, and
 * {@code --operation json:POINTER} names the operation by the intent id the body carries, which makes them proof.
 */
class SuspectedDuplicatesTest {

    /** Every first attempt of an operation is forwarded, committed, and answered 504 at once. */
    private static final FaultPlan LOST_FIRST_ANSWER = FaultPlan.of(
            FaultRule.of(Fault.STATUS_AFTER_COMMIT, 504).withMethodAndPath("POST", "/orders").withAttempt(1));

    private final HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(5)).build();
    private final AtomicLong stamps = new AtomicLong(1_700_000_000_000L);

    @Test
    void aKeylessClientThatChangesItsBodyOnEveryAttemptIsReportedAsSuspectedDuplicates() throws Exception {
        try (OrdersService orders = OrdersService.start(0, true);
             FakeProxy proxy = FakeProxy.start(ProxyConfig.builder(orders.baseUri()).faultPlan(LOST_FIRST_ANSWER)
                     .volatileField("/nonce").volatileField("/stamp").build())) {
            placeTwoIntents(proxy, attempt -> null);

            List<OrdersService.Order> rows = orders.orders();
            assertEquals(6, rows.size(), "three attempts, three orders, for each of two intents");
            ProxyLedger ledger = proxy.ledger();
            assertEquals(List.of(), ledger.duplicates(), "no operation created two: each attempt is its own");
            assertEquals(6, ledger.operations());
            assertEquals(2, ledger.suspected().size(), "one group per intent: " + ledger);
            for (ProxyLedger.Suspected group : ledger.suspected()) {
                assertEquals("POST", group.method());
                assertEquals("/orders", group.path());
                assertEquals(3, group.operations().size(), group.toString());
                assertEquals(3, new HashSet<>(group.operations()).size());
                group.operations().forEach(op -> assertTrue(op.startsWith("fingerprint:"), op));
                // Each group is one intent's orders: the same item, and exactly the rows the service holds for it.
                Set<String> items = rows.stream().filter(o -> group.created().contains(o.location()))
                        .map(OrdersService.Order::item).collect(Collectors.toSet());
                assertEquals(1, items.size(), group + " / " + rows);
                assertEquals(rows.stream().filter(o -> items.contains(o.item())).map(OrdersService.Order::location)
                        .collect(Collectors.toSet()), new HashSet<>(group.created()));
            }
            Set<String> reported = new HashSet<>();
            ledger.suspected().forEach(g -> reported.addAll(g.created()));
            assertEquals(rows.stream().map(OrdersService.Order::location).collect(Collectors.toSet()), reported);

            JsonNode listed = new Http(proxy.baseUri()).getJson("/__admin/ledger");
            assertEquals(2, listed.get("suspected").size(), listed.toString());
            JsonNode first = listed.get("suspected").get(0);
            assertEquals("POST", first.get("method").asText());
            assertEquals("/orders", first.get("path").asText());
            assertEquals(3, first.get("operations").size());
            assertEquals(3, first.get("created").size());
        }
    }

    @Test
    void withoutTheVolatileFieldsTheSameClientLeavesNothingToSuspect() throws Exception {
        try (OrdersService orders = OrdersService.start(0, true);
             FakeProxy proxy = FakeProxy.start(ProxyConfig.builder(orders.baseUri()).faultPlan(LOST_FIRST_ANSWER)
                     .build())) {
            placeTwoIntents(proxy, attempt -> null);

            assertEquals(6, orders.orders().size());
            assertEquals(new ProxyLedger(6, 6, List.of(), List.of()), proxy.ledger(),
                    "bodies that differ in a nonce are different bodies unless the nonce is named volatile");
        }
    }

    @Test
    void theBodysIntentIdNamesTheOperationAndTheKeyHeaderIsIgnored() throws Exception {
        try (OrdersService orders = OrdersService.start(0, false);
             FakeProxy proxy = FakeProxy.start(ProxyConfig.builder(orders.baseUri()).faultPlan(LOST_FIRST_ANSWER)
                     .operation("json:/intent").build())) {
            // A fresh key on every attempt, too: it no longer names anything.
            placeTwoIntents(proxy, attempt -> UUID.randomUUID().toString());

            assertEquals(4, orders.orders().size(), "the retry is attempt 2 of the intent: answered, so no third");
            ProxyLedger ledger = proxy.ledger();
            assertEquals(Set.of("json:/intent=a", "json:/intent=b"), ledger.duplicates().stream()
                    .map(ProxyLedger.Duplicate::operation).collect(Collectors.toSet()));
            ledger.duplicates().forEach(d -> assertEquals(2, d.created().size(), d.toString()));
            List<JournalEntry> journal = proxy.journal();
            assertEquals(List.of(1, 1, 2, 2), journal.stream().map(JournalEntry::attempt).sorted().toList());
            journal.forEach(e -> assertNull(e.idempotencyKey(), "the key header names no operation"));
        }
    }

    @Test
    void aNumberNamesTheOperationAndABodyWithoutTheFieldIsFingerprinted() throws Exception {
        AtomicInteger ids = new AtomicInteger();
        try (ScriptedUpstream upstream = new ScriptedUpstream(r -> ScriptedUpstream.ok(201, "{}",
                "Location: /orders/" + ids.incrementAndGet()));
             FakeProxy proxy = FakeProxy.start(ProxyConfig.builder(upstream.baseUri())
                     .operation("json:/data/uid").build())) {
            post(proxy, "{\"data\":{\"uid\":7},\"stamp\":1}", "k1");
            post(proxy, "{\"data\":{\"uid\":7},\"stamp\":2}", "k2");
            post(proxy, "{\"data\":{\"uid\":\"r 8\"}}", null);
            post(proxy, "{\"data\":{\"uid\":true}}", null);
            post(proxy, "{\"data\":{}}", null);
            post(proxy, "not json", null);

            List<String> operations = proxy.journal().stream().map(JournalEntry::operation).toList();
            assertEquals(List.of("json:/data/uid=7", "json:/data/uid=7", "json:/data/uid=r 8"),
                    operations.subList(0, 3));
            operations.subList(3, 6).forEach(op -> assertTrue(op.startsWith("fingerprint:"), op));
            assertEquals(List.of(new ProxyLedger.Duplicate("json:/data/uid=7", List.of("/orders/1", "/orders/2"))),
                    proxy.ledger().duplicates());
        }
    }

    @Test
    void operationsOfOneShapeAreSuspectedOnlyWithinTheWindowOfEachOther() throws Exception {
        MutableClock clock = new MutableClock(Instant.parse("2026-12-04T12:00:00Z"));
        AtomicInteger ids = new AtomicInteger();
        try (ScriptedUpstream upstream = new ScriptedUpstream(r -> ScriptedUpstream.ok(201, "{}",
                "Location: /orders/" + ids.incrementAndGet()));
             FakeProxy proxy = FakeProxy.start(ProxyConfig.builder(upstream.baseUri()).clock(clock)
                     .suspectWindow(Duration.ofSeconds(5)).build())) {
            // A client that mints a fresh key per attempt: each attempt its own operation, the body the same.
            post(proxy, "{\"item\":\"book\"}", "k1");
            clock.advance(Duration.ofSeconds(6));
            post(proxy, "{\"item\":\"book\"}", "k2");
            assertEquals(List.of(), proxy.ledger().suspected(), "6 s apart, outside the 5 s window");

            clock.advance(Duration.ofSeconds(5));
            post(proxy, "{\"item\":\"book\"}", "k3");
            clock.advance(Duration.ofSeconds(4));
            post(proxy, "{\"item\":\"book\"}", "k4");
            post(proxy, "{\"item\":\"pen\"}", "k5");
            post(proxy, "{\"item\":\"book\"}", "k4");

            assertEquals(List.of(new ProxyLedger.Suspected("POST", "/orders", List.of("key:k2", "key:k3", "key:k4"),
                    List.of("/orders/2", "/orders/3", "/orders/4"))), proxy.ledger().suspected(),
                    "each within the window of the one before; another body is another shape; the duplicate of "
                            + "k4 is a duplicate, not another suspect");
            assertEquals(List.of(new ProxyLedger.Duplicate("key:k4", List.of("/orders/4", "/orders/6"))),
                    proxy.ledger().duplicates());
            proxy.reset();
            assertEquals(List.of(), proxy.ledger().suspected(), "a reset forgets them");
        }
    }

    private void post(FakeProxy proxy, String body, String key) throws IOException, InterruptedException {
        HttpRequest.Builder request = HttpRequest.newBuilder(proxy.baseUri().resolve("/orders"))
                .timeout(Duration.ofSeconds(10)).header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(body));
        if (key != null) {
            request.header("Idempotency-Key", key);
        }
        HttpResponse<String> answer = http.send(request.build(), HttpResponse.BodyHandlers.ofString());
        assertEquals(201, answer.statusCode(), answer.body());
    }

    /** Two intents at once, each by {@link #placeOrder}: intent {@code a} orders a book, {@code b} a pen. */
    private void placeTwoIntents(FakeProxy proxy, Function<Integer, String> keyPerAttempt) throws Exception {
        URI orders = proxy.baseUri().resolve("/orders");
        List<CompletableFuture<HttpResponse<String>>> placing = new ArrayList<>();
        placing.add(CompletableFuture.supplyAsync(() -> placeOrder(orders, "a", "book", keyPerAttempt)));
        placing.add(CompletableFuture.supplyAsync(() -> placeOrder(orders, "b", "pen", keyPerAttempt)));
        for (CompletableFuture<HttpResponse<String>> f : placing) {
            f.get(60, TimeUnit.SECONDS);
        }
    }

    /**
     * A client with retries as some are written: up to 3 attempts, another on a 5xx, each attempt's body built
     * anew, so it carries a fresh nonce and timestamp.
     */
    private HttpResponse<String> placeOrder(URI orders, String intent, String item,
                                            Function<Integer, String> keyPerAttempt) {
        HttpResponse<String> response = null;
        for (int attempt = 1; attempt <= 3; attempt++) {
            String body = "{\"intent\":\"" + intent + "\",\"item\":\"" + item + "\",\"quantity\":1,\"nonce\":\""
                    + UUID.randomUUID() + "\",\"stamp\":" + stamps.incrementAndGet() + "}";
            HttpRequest.Builder request = HttpRequest.newBuilder(orders).timeout(Duration.ofSeconds(20))
                    .header("Content-Type", "application/json").POST(HttpRequest.BodyPublishers.ofString(body));
            String key = keyPerAttempt.apply(attempt);
            if (key != null) {
                request.header("Idempotency-Key", key);
            }
            try {
                response = http.send(request.build(), HttpResponse.BodyHandlers.ofString());
            } catch (IOException e) {
                throw new IllegalStateException("the proxy answers every attempt", e);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException(e);
            }
            if (response.statusCode() < 500) {
                return response;
            }
        }
        return response;
    }
}
