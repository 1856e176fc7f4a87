package dev.idempotent.seatgrant.server.junit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.platform.engine.discovery.DiscoverySelectors.selectClass;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.AppenderBase;
import com.sun.net.httpserver.HttpServer;
import dev.idempotent.seatgrant.server.Await;
import dev.idempotent.seatgrant.server.ProxyConfig;
import dev.idempotent.seatgrant.server.ProxyLedger;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.platform.testkit.engine.EngineTestKit;
import org.slf4j.LoggerFactory;

/**
 * The reset before each test as a service's tests meet it: a POST of one test still waiting on the service when
 * the next test starts is cut off, and the next test's ledger and journal hold nothing of it.
 */
class RequestsAcrossTestsTest {

    /** The request log's lines, at DEBUG, while the class below runs: the proxy says when it drops a late answer. */
    static final List<String> REQUEST_LOG = new CopyOnWriteArrayList<>();

    @Test
    void aPostStillWaitingOnTheServiceIsNotInTheNextTestsLedger() {
        Logger requests = (Logger) LoggerFactory.getLogger("dev.idempotent.seatgrant.server.requests");
        Level before = requests.getLevel();
        AppenderBase<ILoggingEvent> appender = new AppenderBase<>() {
            @Override
            protected void append(ILoggingEvent event) {
                REQUEST_LOG.add(event.getFormattedMessage());
            }
        };
        appender.setContext((LoggerContext) LoggerFactory.getILoggerFactory());
        appender.start();
        requests.addAppender(appender);
        requests.setLevel(Level.DEBUG);
        try {
            EngineTestKit.engine("junit-jupiter")
                    .selectors(selectClass(AnOrderLeftWaiting.class))
                    .configurationParameter(OnlyThroughTestKit.PARAMETER, "true")
                    .execute()
                    .testEvents().assertStatistics(stats -> stats.started(2).succeeded(2));
        } finally {
            requests.detachAppender(appender);
            requests.setLevel(before);
            appender.stop();
        }
    }

    @ExtendWith(OnlyThroughTestKit.class)
    @TestMethodOrder(MethodOrderer.OrderAnnotation.class)
    static class AnOrderLeftWaiting {
        static final CountDownLatch ARRIVED = new CountDownLatch(1);
        static final CountDownLatch RELEASE = new CountDownLatch(1);
        static HttpServer service;
        static CompletableFuture<HttpResponse<String>> leftWaiting;

        @RegisterExtension
        static FakeServerExtension fake = FakeServerExtension.proxy(() -> ProxyConfig.builder(
                URI.create("http://127.0.0.1:" + service.getAddress().getPort())).build());

        /** An orders service that holds its answer to the first order until the test lets it go. */
        @BeforeAll
        static void startService() throws IOException {
            service = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
            service.createContext("/orders", exchange -> {
                String body = new String(exchange.getRequestBody().readAllBytes());
                String id = body.contains("first") ? "1" : "2";
                if (id.equals("1")) {
                    ARRIVED.countDown();
                    await(RELEASE);
                }
                exchange.getResponseHeaders().add("Location", "/orders/" + id);
                exchange.sendResponseHeaders(201, -1);
                exchange.close();
            });
            service.start();
        }

        @AfterAll
        static void stopService() {
            RELEASE.countDown();
            service.stop(0);
        }

        @Test
        @Order(1)
        void sendsAnOrderAndEndsWhileTheServiceHoldsIt(URI baseUri) throws Exception {
            leftWaiting = order(baseUri, "first");
            assertTrue(ARRIVED.await(10, TimeUnit.SECONDS), "the service got the order");
        }

        @Test
        @Order(2)
        void startsWithNothingOfTheOrderBefore(URI baseUri) throws Exception {
            ExecutionException cut = assertThrows(ExecutionException.class,
                    () -> leftWaiting.get(10, TimeUnit.SECONDS), "the reset closed the connection it outlived");
            assertInstanceOf(IOException.class, cut.getCause());
            RELEASE.countDown();
            Await.until(Duration.ofSeconds(10), "the proxy to drop the service's late answer",
                    () -> REQUEST_LOG.contains("POST /orders: a reset outlived it; its outcome is dropped"));

            assertEquals(new ProxyLedger(0, 0, List.of()), fake.proxyLedger());
            assertEquals(List.of(), fake.journal());
            assertEquals(201, order(baseUri, "second").get(10, TimeUnit.SECONDS).statusCode());
            assertEquals(new ProxyLedger(1, 1, List.of()), fake.proxyLedger(), "this test's own order only");
        }

        private static CompletableFuture<HttpResponse<String>> order(URI baseUri, String item) {
            return HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build().sendAsync(
                    HttpRequest.newBuilder(baseUri.resolve("/orders")).timeout(Duration.ofSeconds(20))
                            .header("Content-Type", "application/json")
                            .POST(HttpRequest.BodyPublishers.ofString("{\"item\":\"" + item + "\"}")).build(),
                    HttpResponse.BodyHandlers.ofString());
        }

        private static void await(CountDownLatch latch) {
            try {
                latch.await(20, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }
}
