package dev.idempotent.seatgrant.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * A reset (what {@code FakeServerExtension} runs before each test) cuts off the requests still in flight: their
 * connections are closed, and what they would have written later (a journal entry, a seat, a resource in a
 * proxy's ledger) never lands in the next test's evidence.
 */
class ResetOutlivedRequestsTest {

    private static final HttpClient CLIENT = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(5)).build();

    @Test
    void aPostWaitingOnTheUpstreamWhenTheProxyIsResetLeavesNothingInTheLedgerOrTheJournal() throws Exception {
        CountDownLatch arrived = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        try (LogCapture log = new LogCapture();
             ScriptedUpstream upstream = new ScriptedUpstream(request -> {
                 if (request.body().contains("held")) {
                     arrived.countDown();
                     await(release);
                     return ScriptedUpstream.ok(201, "{}", "Location: /orders/1");
                 }
                 return ScriptedUpstream.ok(201, "{}", "Location: /orders/2");
             });
             FakeProxy proxy = FakeProxy.start(ProxyConfig.builder(upstream.baseUri()).build())) {
            CompletableFuture<HttpResponse<String>> held = order(proxy.baseUri(), "held");
            assertEquals(true, arrived.await(10, TimeUnit.SECONDS), "the upstream got the POST");

            proxy.reset();

            ExecutionException cut = assertThrows(ExecutionException.class, () -> held.get(10, TimeUnit.SECONDS),
                    "the reset closed the connection it outlived");
            assertInstanceOf(IOException.class, cut.getCause());
            release.countDown();
            Await.until(Duration.ofSeconds(10), "the proxy to drop the late answer",
                    () -> !log.containing("POST /orders: a reset outlived it; its outcome is dropped").isEmpty());
            assertEquals(new ProxyLedger(0, 0, List.of()), proxy.ledger());
            assertEquals(List.of(), proxy.journal());

            assertEquals(201, order(proxy.baseUri(), "next").get(10, TimeUnit.SECONDS).statusCode());
            assertEquals(new ProxyLedger(1, 1, List.of()), proxy.ledger(), "the next test's own order counts");
            assertEquals(List.of("/orders/2"), proxy.journal().stream().map(JournalEntry::seatId).toList());
        }
    }

    @Test
    void aGrantHeldByADelayWhenTheServerIsResetWritesNoSeatAndNoJournalEntry() throws Exception {
        // Keyless, so nothing but the reset generation keeps the held grant from writing its seat after the reset.
        FaultPlan hold = FaultPlan.of(FaultRule.of(Fault.DELAY).withMethodAndPath("POST", "/v1/seats")
                .withAttempt(1).withDelayMs(1_000));
        try (LogCapture log = new LogCapture();
             FakeSeatServer server = FakeSeatServer.start(ServerConfig.builder().faultPlan(hold).build())) {
            CompletableFuture<HttpResponse<String>> held = grant(server.baseUri(), "user_1");
            Await.until(Duration.ofSeconds(10), "the server to take the grant",
                    () -> !log.containing("fault delay on POST /v1/seats, attempt 1").isEmpty());

            server.reset();

            ExecutionException cut = assertThrows(ExecutionException.class, () -> held.get(10, TimeUnit.SECONDS),
                    "the reset closed the connection it outlived");
            assertInstanceOf(IOException.class, cut.getCause());
            Await.until(Duration.ofSeconds(10), "the server to drop the held grant",
                    () -> !log.containing("POST /v1/seats: a reset outlived it; its outcome is dropped").isEmpty());
            assertEquals(0, server.ledger().seats());
            assertEquals(List.of(), server.journal());
        }
    }

    private static CompletableFuture<HttpResponse<String>> order(URI baseUri, String item) {
        return CLIENT.sendAsync(HttpRequest.newBuilder(baseUri.resolve("/orders")).timeout(Duration.ofSeconds(20))
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString("{\"item\":\"" + item + "\"}")).build(),
                HttpResponse.BodyHandlers.ofString());
    }

    private static CompletableFuture<HttpResponse<String>> grant(URI baseUri, String user) {
        return CLIENT.sendAsync(HttpRequest.newBuilder(baseUri.resolve("/v1/seats")).timeout(Duration.ofSeconds(20))
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString("{\"workspaceId\":\"ws_1\",\"userId\":\"" + user
                        + "\",\"role\":\"member\"}")).build(), HttpResponse.BodyHandlers.ofString());
    }

    private static void await(CountDownLatch latch) {
        try {
            latch.await(20, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
