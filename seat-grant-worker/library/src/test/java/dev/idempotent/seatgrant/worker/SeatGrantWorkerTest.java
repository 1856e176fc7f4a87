package dev.idempotent.seatgrant.worker;

import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;
import static com.github.tomakehurst.wiremock.client.WireMock.equalTo;
import static com.github.tomakehurst.wiremock.client.WireMock.equalToJson;
import static com.github.tomakehurst.wiremock.client.WireMock.post;
import static com.github.tomakehurst.wiremock.client.WireMock.postRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.urlEqualTo;
import static com.github.tomakehurst.wiremock.core.WireMockConfiguration.options;
import static com.github.tomakehurst.wiremock.stubbing.Scenario.STARTED;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.github.tomakehurst.wiremock.junit5.WireMockExtension;
import com.github.tomakehurst.wiremock.http.Fault;
import dev.idempotent.seatgrant.worker.testing.FakeTime;
import dev.idempotent.seatgrant.worker.testing.SeatServer;
import java.net.ConnectException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpTimeoutException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The answer key's own behaviour beyond the shared conformance scenarios: real timeouts, refused
 * connections, interrupts and concurrent duplicate delivery, over loopback sockets.
 */
class SeatGrantWorkerTest {

    private static final String SEAT = "{\"id\":\"seat_1\",\"workspaceId\":\"ws_1\",\"userId\":\"u_1\",\"role\":\"member\"}";

    @RegisterExtension
    static final WireMockExtension wm = WireMockExtension.newInstance()
            .options(options().dynamicPort().bindAddress("127.0.0.1").containerThreads(12))
            .build();

    private final SeatRequested event = new SeatRequested("req_1", "ws_1", "u_1");
    private final FakeTime time = new FakeTime();

    private SeatGrantWorker worker(SeatGrantConfig.Builder b) {
        return new SeatGrantWorker(b.build(), time, time);
    }

    private SeatGrantConfig.Builder config() {
        return SeatGrantConfig.builder(URI.create(wm.baseUrl()));
    }

    @Test
    void sendsTheKeyAndTheFixedBody() {
        wm.stubFor(post("/v1/seats").willReturn(aResponse().withStatus(201).withBody(SEAT)));
        GrantOutcome outcome = worker(config()).handle(event);
        assertEquals(new GrantOutcome.Granted("seat_1", 1), outcome);
        wm.verify(1, postRequestedFor(urlEqualTo("/v1/seats"))
                .withHeader("Idempotency-Key", equalTo("req_1"))
                .withHeader("Content-Type", equalTo("application/json"))
                .withRequestBody(equalToJson("{\"workspaceId\":\"ws_1\",\"userId\":\"u_1\",\"role\":\"member\"}")));
    }

    @Test
    void baseUriWithAPathPrefixKeepsIt() {
        wm.stubFor(post("/api/v1/seats").willReturn(aResponse().withStatus(201).withBody(SEAT)));
        SeatGrantWorker w = worker(SeatGrantConfig.builder(URI.create(wm.baseUrl() + "/api/")));
        assertInstanceOf(GrantOutcome.Granted.class, w.handle(event));
    }

    @Test
    void aRequestTimeoutIsRetriedAndTheReplayEndsIt() {
        // Real time: the first answer is held longer than the per-attempt timeout, as a slow gateway would.
        wm.stubFor(post("/v1/seats").inScenario("t").whenScenarioStateIs(STARTED).willSetStateTo("late")
                .willReturn(aResponse().withStatus(201).withBody(SEAT).withFixedDelay(4_000)));
        wm.stubFor(post("/v1/seats").inScenario("t").whenScenarioStateIs("late")
                .willReturn(aResponse().withStatus(409).withHeader("Idempotent-Replayed", "true").withBody(SEAT)));
        // A 1 s budget leaves the fast second answer ample margin on a loaded box; the held one never fits.
        GrantOutcome outcome = worker(config().requestTimeout(Duration.ofSeconds(1))).handle(event);
        assertEquals(new GrantOutcome.Replayed("seat_1", 2), outcome);
        wm.verify(2, postRequestedFor(urlEqualTo("/v1/seats")).withHeader("Idempotency-Key", equalTo("req_1")));
    }

    @Test
    void anEmptyResponseIsRetried() {
        wm.stubFor(post("/v1/seats").inScenario("e").whenScenarioStateIs(STARTED).willSetStateTo("ok")
                .willReturn(aResponse().withFault(Fault.EMPTY_RESPONSE)));
        wm.stubFor(post("/v1/seats").inScenario("e").whenScenarioStateIs("ok")
                .willReturn(aResponse().withStatus(201).withBody(SEAT)));
        assertEquals(new GrantOutcome.Granted("seat_1", 2), worker(config()).handle(event));
    }

    @Test
    void refusedConnectionsRetryThenExhaustWithTheCause() throws Exception {
        int closedPort;
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            closedPort = s.getLocalPort();
        }
        SeatGrantWorker w = worker(SeatGrantConfig.builder(URI.create("http://127.0.0.1:" + closedPort)));
        GrantExhaustedException e = assertThrows(GrantExhaustedException.class, () -> w.handle(event));
        assertEquals(5, e.attempts());
        assertEquals(GrantExhaustedException.Limit.ATTEMPTS, e.limit());
        assertTrue(e.status().isEmpty());
        assertInstanceOf(ConnectException.class, e.getCause());
        assertEquals(4, time.sleeps().size(), "5 attempts = 4 waits");
        assertTrue(e.getMessage().startsWith("exhausted_retries:req_1"), e.getMessage());
        assertTrue(!e.getMessage().contains("127.0.0.1") && !e.getMessage().contains(String.valueOf(closedPort)));
    }

    @Test
    void exhaustionAfterTimeoutsNamesTheTimeout() {
        wm.stubFor(post("/v1/seats").willReturn(aResponse().withStatus(201).withBody(SEAT).withFixedDelay(1_000)));
        SeatGrantWorker w = worker(config().maxAttempts(2).requestTimeout(Duration.ofMillis(150)));
        GrantExhaustedException e = assertThrows(GrantExhaustedException.class, () -> w.handle(event));
        assertEquals(2, e.attempts());
        assertInstanceOf(HttpTimeoutException.class, e.getCause());
    }

    @Test
    void theDeadlineStopsBeforeTheAttemptsRunOutAndSaysSo() {
        wm.stubFor(post("/v1/seats").willReturn(aResponse().withStatus(503).withHeader("Retry-After", "2")));
        SeatGrantWorker w = worker(config().callTimeout(Duration.ofSeconds(5)));
        GrantExhaustedException e = assertThrows(GrantExhaustedException.class, () -> w.handle(event));
        // t=0 attempt 1, wait 2 s; t=2 attempt 2, wait 2 s; t=4 attempt 3; a third wait would end at t=6 > 5.
        assertEquals(3, e.attempts());
        assertEquals(GrantExhaustedException.Limit.DEADLINE, e.limit());
        assertEquals(java.util.OptionalInt.of(503), e.status());
        assertEquals(List.of(Duration.ofSeconds(2), Duration.ofSeconds(2)), time.sleeps());
    }

    @Test
    void interruptDuringBackoffStopsAndRestoresTheFlag() {
        wm.stubFor(post("/v1/seats").willReturn(aResponse().withStatus(503)));
        SeatGrantWorker w = new SeatGrantWorker(config().build(), d -> {
            throw new InterruptedException("shutdown");
        }, time);
        try {
            GrantInterruptedException e = assertThrows(GrantInterruptedException.class, () -> w.handle(event));
            assertEquals(1, e.attempts());
            assertTrue(Thread.currentThread().isInterrupted());
        } finally {
            Thread.interrupted();
        }
        wm.verify(1, postRequestedFor(urlEqualTo("/v1/seats")));
    }

    @Test
    void concurrentDuplicateDeliveriesEndWithOneSeat() throws Exception {
        try (SeatServer server = new SeatServer(0)) {
            SeatGrantWorker w = new SeatGrantWorker(SeatGrantConfig.defaults(server.baseUri()), time, time);
            int deliveries = 6;
            ExecutorService pool = Executors.newFixedThreadPool(deliveries);
            CountDownLatch go = new CountDownLatch(1);
            List<Future<GrantOutcome>> results = new ArrayList<>();
            try {
                for (int i = 0; i < deliveries; i++) {
                    Callable<GrantOutcome> task = () -> {
                        go.await();
                        return w.handle(event);
                    };
                    results.add(pool.submit(task));
                }
                go.countDown();
                Set<String> seatIds = new HashSet<>();
                int granted = 0;
                for (Future<GrantOutcome> f : results) {
                    GrantOutcome o = f.get(20, TimeUnit.SECONDS);
                    seatIds.add(o.seatId());
                    granted += o instanceof GrantOutcome.Granted ? 1 : 0;
                }
                assertEquals(Set.of("seat_1"), seatIds);
                assertEquals(1, granted, "exactly one delivery created the seat; the rest were replays");
                assertEquals(1, server.seats().size());
            } finally {
                pool.shutdownNow();
            }
        }
    }

    @Test
    void theIncidentDoesNotHappen() throws Exception {
        // The server commits the first POST and resets the connection; the retry must replay, not create.
        try (SeatServer server = new SeatServer(1)) {
            SeatGrantWorker w = new SeatGrantWorker(SeatGrantConfig.defaults(server.baseUri()), time, time);
            assertEquals(new GrantOutcome.Replayed("seat_1", 2), w.handle(event));
            assertEquals(1, server.seats().size());
            assertEquals(2, server.posts());
        }
    }
}
