package dev.idempotent.seatgrant.server.junit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.idempotent.seatgrant.server.Await;
import dev.idempotent.seatgrant.server.Fault;
import dev.idempotent.seatgrant.server.FaultPlan;
import dev.idempotent.seatgrant.server.FaultRule;
import dev.idempotent.seatgrant.server.JournalEntry;
import dev.idempotent.seatgrant.server.ProxyConfig;
import dev.idempotent.seatgrant.server.ProxyLedger;
import dev.idempotent.seatgrant.server.orders.OrdersService;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * {@link FakeServerExtension#assertNoSuspectedDuplicates()} and the suspects in
 * {@link FakeServerExtension#assertNoDuplicates()}'s message (issue 33 item 7): a keyless client that sends a fresh
 * nonce on every attempt makes each attempt an operation of its own, so no operation created two orders and
 * {@code assertNoDuplicates()} passes, however many orders it made; the suspects assertion fails on it. The service
 * is the test sources' orders API; every first attempt of an operation is forwarded, inserted, and answered 504.
 */
class AssertNoSuspectedDuplicatesTest {

    private static final FaultPlan LOST_FIRST_ANSWER = FaultPlan.of(
            FaultRule.of(Fault.STATUS_AFTER_COMMIT, 504).withMethodAndPath("POST", "/orders").withAttempt(1));
    private static final HttpClient CLIENT = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(5)).build();

    private static final OrdersService ORDERS = orders();

    @RegisterExtension
    static FakeServerExtension fake = FakeServerExtension.proxy(ProxyConfig.builder(ORDERS.baseUri())
            .faultPlan(LOST_FIRST_ANSWER).volatileField("/nonce").build());

    private static OrdersService orders() {
        try {
            return OrdersService.start(0, true);
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    @AfterAll
    static void stopOrders() throws Exception {
        ORDERS.close();
    }

    @Test
    void aFreshNonceOnEveryAttemptPassesAssertNoDuplicatesAndFailsAssertNoSuspectedDuplicates(URI baseUri)
            throws Exception {
        assertEquals(504, order(baseUri, "book", "n-1").statusCode());
        assertEquals(504, order(baseUri, "book", "n-2").statusCode(), "a new body: a new operation's attempt 1");
        Await.until(Duration.ofSeconds(10), "the journal to see both answers written",
                () -> fake.journal().stream().allMatch(JournalEntry::sent));

        fake.assertNoDuplicates();
        AssertionError failure = assertThrows(AssertionError.class, fake::assertNoSuspectedDuplicates);

        ProxyLedger.Suspected group = fake.proxyLedger().suspected().get(0);
        List<Long> seq = fake.journal().stream().map(JournalEntry::seq).toList();
        assertEquals("""
                Expected no suspected duplicates; found 1 (operations with the same method and path, bodies that \
                differ only in volatile fields, each creating a resource):
                  POST /orders: 2 operations, each created a resource: %s created %s, %s created %s; their requests:
                    #%d POST /orders, attempt 1, no key: committed %s; fault status-after-commit answered 504; \
                the upstream had answered 201
                    #%d POST /orders, attempt 1, no key: committed %s; fault status-after-commit answered 504; \
                the upstream had answered 201"""
                .formatted(group.operations().get(0), group.created().get(0), group.operations().get(1),
                        group.created().get(1), seq.get(0), group.created().get(0), seq.get(1),
                        group.created().get(1)), failure.getMessage());
        assertEquals(2, ORDERS.orders().stream().filter(o -> group.created().contains(o.location())).count());
    }

    @Test
    void assertNoDuplicatesNamesTheSuspectsWhenItFails(URI baseUri) throws Exception {
        assertEquals(504, order(baseUri, "lamp", null).statusCode());
        assertEquals(201, order(baseUri, "lamp", null).statusCode(), "the same body: attempt 2, a second order");
        assertEquals(504, order(baseUri, "pen", "n-1").statusCode());
        assertEquals(504, order(baseUri, "pen", "n-2").statusCode());

        AssertionError failure = assertThrows(AssertionError.class, fake::assertNoDuplicates);

        String message = failure.getMessage();
        ProxyLedger ledger = fake.proxyLedger();
        assertEquals(1, ledger.duplicates().size());
        assertEquals(1, ledger.suspected().size());
        assertTrue(message.startsWith("Expected at most one resource per operation"), message);
        int also = message.indexOf("\nAlso 1 suspected duplicate (");
        assertTrue(also > message.indexOf(ledger.duplicates().get(0).operation()), message);
        for (String operation : ledger.suspected().get(0).operations()) {
            assertTrue(message.indexOf(operation, also) > also, operation + " in " + message);
        }
    }

    @Test
    void aKeyTheServiceHonoursLeavesNothingToSuspect(URI baseUri) throws Exception {
        assertEquals(504, keyedOrder(baseUri, "order-1").statusCode());
        assertEquals(200, keyedOrder(baseUri, "order-1").statusCode());

        fake.assertNoDuplicates();
        fake.assertNoSuspectedDuplicates();
    }

    private static HttpResponse<String> order(URI baseUri, String item, String nonce)
            throws IOException, InterruptedException {
        String body = "{\"item\":\"" + item + "\",\"quantity\":1" + (nonce == null ? "" : ",\"nonce\":\"" + nonce + "\"")
                + "}";
        return CLIENT.send(HttpRequest.newBuilder(baseUri.resolve("/orders")).timeout(Duration.ofSeconds(10))
                .header("Content-Type", "application/json").POST(HttpRequest.BodyPublishers.ofString(body)).build(),
                HttpResponse.BodyHandlers.ofString());
    }

    private static HttpResponse<String> keyedOrder(URI baseUri, String key) throws IOException, InterruptedException {
        return CLIENT.send(HttpRequest.newBuilder(baseUri.resolve("/orders")).timeout(Duration.ofSeconds(10))
                .header("Content-Type", "application/json").header("Idempotency-Key", key)
                .POST(HttpRequest.BodyPublishers.ofString("{\"item\":\"cup\",\"quantity\":1}")).build(),
                HttpResponse.BodyHandlers.ofString());
    }
}
