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
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * {@link FakeServerExtension#proxy(ProxyConfig)} as a service's own test uses it: the proxy in front of the
 * service (here the test sources' orders API on the JDK's HTTP server over H2), the same reset between tests,
 * and {@link FakeServerExtension#assertNoDuplicates()} per operation. Every first attempt of an order is forwarded,
 * inserted, and answered 504 at once.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class FakeServerExtensionProxyTest {

    private static final FaultPlan LOST_FIRST_ANSWER = FaultPlan.of(
            FaultRule.of(Fault.STATUS_AFTER_COMMIT, 504).withMethodAndPath("POST", "/orders").withAttempt(1));
    private static final HttpClient CLIENT = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(5)).build();

    /** The service under test: started before the extension, which needs its address. */
    private static final OrdersService ORDERS = orders();

    @RegisterExtension
    static FakeServerExtension fake = FakeServerExtension.proxy(ProxyConfig.builder(ORDERS.baseUri())
            .route("POST", "/orders").faultPlan(LOST_FIRST_ANSWER).build());

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
    @Order(1)
    void aKeylessRetryFailsNamingTheOperationItsResourcesAndWhatTheUpstreamAnswered(URI baseUri) throws Exception {
        assertEquals(504, order(baseUri, null, "book").statusCode());
        assertEquals(201, order(baseUri, null, "book").statusCode());
        // The client can read an answer a moment before the server's write completes and the journal says so.
        Await.until(Duration.ofSeconds(10), "the journal to see both answers written",
                () -> fake.journal().stream().allMatch(JournalEntry::sent));

        AssertionError failure = assertThrows(AssertionError.class, fake::assertNoDuplicates);

        ProxyLedger.Duplicate duplicate = fake.proxyLedger().duplicates().get(0);
        List<String> orders = duplicate.created();
        List<Long> seq = fake.journal().stream().map(JournalEntry::seq).toList();
        assertEquals("""
                Expected at most one resource per operation; found 1 duplicate:
                  operation %s has 2 resources: %s, %s; keys: none; its requests:
                    #%d POST /orders, attempt 1, no key: committed %s; fault status-after-commit answered 504; \
                the upstream had answered 201
                    #%d POST /orders, attempt 2, no key: committed %s; answered 201"""
                .formatted(duplicate.operation(), orders.get(0), orders.get(1), seq.get(0), orders.get(0), seq.get(1),
                        orders.get(1)), failure.getMessage());
        assertTrue(duplicate.operation().startsWith("fingerprint:"), duplicate.operation());
    }

    @Test
    @Order(2)
    void eachTestStartsWithAnEmptyJournalAndLedgerAndTheConfiguredPlan() {
        assertEquals(List.of(), fake.journal());
        assertEquals(new ProxyLedger(0, 0, List.of()), fake.proxyLedger());
        assertEquals(LOST_FIRST_ANSWER, fake.faultPlan());
    }

    @Test
    @Order(3)
    void aKeyTheServiceHonoursPassesAndTheRetryIsAReplay(URI baseUri) throws Exception {
        assertEquals(504, order(baseUri, "order-1", "pen").statusCode());
        assertEquals(200, order(baseUri, "order-1", "pen").statusCode());

        fake.assertNoDuplicates();
        assertEquals(new ProxyLedger(1, 1, List.of()), fake.proxyLedger());
    }

    @Test
    @Order(4)
    void aScenarioIsAimedAtTheProxysRouteAndTheSeatLedgerIsNotAProxys() {
        fake.scenario("incident");

        assertEquals(FaultPlan.scenario("incident").onRoute("POST", "/orders"), fake.faultPlan());
        IllegalStateException e = assertThrows(IllegalStateException.class, fake::ledger);
        assertTrue(e.getMessage().contains("not a FakeSeatServer"), e.getMessage());
        assertEquals(ORDERS.baseUri().toString(), fake.fakeProxy().upstream());
    }

    private static HttpResponse<String> order(URI baseUri, String key, String item)
            throws IOException, InterruptedException {
        HttpRequest.Builder request = HttpRequest.newBuilder(baseUri.resolve("/orders"))
                .timeout(Duration.ofSeconds(10)).header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString("{\"item\":\"" + item + "\",\"quantity\":1}"));
        if (key != null) {
            request.header("Idempotency-Key", key);
        }
        return CLIENT.send(request.build(), HttpResponse.BodyHandlers.ofString());
    }
}
