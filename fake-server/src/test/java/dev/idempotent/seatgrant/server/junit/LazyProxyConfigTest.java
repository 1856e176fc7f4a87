package dev.idempotent.seatgrant.server.junit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.platform.engine.discovery.DiscoverySelectors.selectClass;

import dev.idempotent.seatgrant.server.ProxyConfig;
import dev.idempotent.seatgrant.server.ProxyLedger;
import dev.idempotent.seatgrant.server.orders.OrdersService;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.platform.testkit.engine.EngineExecutionResults;
import org.junit.platform.testkit.engine.EngineTestKit;

/**
 * {@link FakeServerExtension#proxy(java.util.function.Supplier)}: the upstream's address is read at the first test,
 * after the class's {@code @BeforeAll} started the service, and not before.
 */
class LazyProxyConfigTest {

    @Test
    void theConfigIsReadAtTheFirstTestAfterBeforeAllStartedTheService() {
        run().testEvents().assertStatistics(stats -> stats.started(2).succeeded(2));

        assertEquals(1, ServiceStartedInBeforeAll.CONFIGS_READ.get(), "one proxy for the class");
        assertTrue(ServiceStartedInBeforeAll.inBeforeAll instanceof IllegalStateException,
                String.valueOf(ServiceStartedInBeforeAll.inBeforeAll));
    }

    private static EngineExecutionResults run() {
        return EngineTestKit.engine("junit-jupiter")
                .selectors(selectClass(ServiceStartedInBeforeAll.class))
                .configurationParameter(OnlyThroughTestKit.PARAMETER, "true")
                .execute();
    }

    @ExtendWith(OnlyThroughTestKit.class)
    @TestMethodOrder(MethodOrderer.OrderAnnotation.class)
    static class ServiceStartedInBeforeAll {
        static final AtomicInteger CONFIGS_READ = new AtomicInteger();
        static OrdersService orders;
        static Exception inBeforeAll;

        @RegisterExtension
        static FakeServerExtension fake = FakeServerExtension.proxy(() -> {
            CONFIGS_READ.incrementAndGet();
            return ProxyConfig.builder(orders.baseUri()).route("POST", "/orders").build();
        });

        @BeforeAll
        static void startOrders() throws Exception {
            assertNull(orders);
            orders = OrdersService.start(0, false);
            inBeforeAll = assertThrows(IllegalStateException.class, fake::baseUri);
        }

        @AfterAll
        static void stopOrders() throws Exception {
            orders.close();
        }

        @Test
        @Order(1)
        void theProxyForwardsToTheServiceStartedInBeforeAll(URI baseUri) throws Exception {
            fake.scenario("incident-fast");
            HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
            HttpRequest order = HttpRequest.newBuilder(baseUri.resolve("/orders")).timeout(Duration.ofSeconds(10))
                    .header("Content-Type", "application/json")
                    .POST(HttpRequest.BodyPublishers.ofString("{\"item\":\"book\",\"quantity\":1}")).build();

            assertEquals(504, client.send(order, HttpResponse.BodyHandlers.ofString()).statusCode());
            assertEquals(201, client.send(order, HttpResponse.BodyHandlers.ofString()).statusCode());

            assertEquals(2, orders.orders().size(), "both reached the service");
            assertEquals(1, fake.proxyLedger().duplicates().size());
        }

        @Test
        @Order(2)
        void theSameProxyServesTheNextTestReset() {
            assertEquals(new ProxyLedger(0, 0, List.of()), fake.proxyLedger());
        }
    }
}
