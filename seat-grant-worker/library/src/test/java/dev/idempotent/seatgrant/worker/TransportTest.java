package dev.idempotent.seatgrant.worker;

import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;
import static com.github.tomakehurst.wiremock.client.WireMock.any;
import static com.github.tomakehurst.wiremock.client.WireMock.anyRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.anyUrl;
import static com.github.tomakehurst.wiremock.client.WireMock.equalTo;
import static com.github.tomakehurst.wiremock.client.WireMock.equalToJson;
import static com.github.tomakehurst.wiremock.client.WireMock.post;
import static com.github.tomakehurst.wiremock.client.WireMock.postRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.urlEqualTo;
import static com.github.tomakehurst.wiremock.core.WireMockConfiguration.options;
import static com.github.tomakehurst.wiremock.stubbing.Scenario.STARTED;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.github.tomakehurst.wiremock.junit5.WireMockExtension;
import com.github.tomakehurst.wiremock.verification.LoggedRequest;
import dev.idempotent.seatgrant.worker.testing.Await;
import dev.idempotent.seatgrant.worker.testing.FakeTime;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.List;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The caller owns the transport: the worker sends with the caller's {@link HttpClient} and leaves it open, and a
 * request customizer adds headers to every attempt without ever changing the key, the content type, the method,
 * the body or the target.
 */
class TransportTest {

    private static final String SEAT = "{\"id\":\"seat_1\",\"role\":\"member\"}";
    private static final String BODY = "{\"workspaceId\":\"ws_1\",\"userId\":\"u_1\",\"role\":\"member\"}";

    @RegisterExtension
    static final WireMockExtension wm = WireMockExtension.newInstance()
            .options(options().dynamicPort().bindAddress("127.0.0.1"))
            .build();

    private final SeatRequested event = new SeatRequested("req_1", "ws_1", "u_1");
    private final FakeTime time = new FakeTime();
    private final ExecutorService pool = Executors.newCachedThreadPool();

    @AfterEach
    void stopPool() {
        pool.shutdownNow();
    }

    private SeatGrantConfig.Builder config() {
        return SeatGrantConfig.builder(URI.create(wm.baseUrl()));
    }

    private void sequence(String... bodies) {
        String state = STARTED;
        for (int i = 0; i < bodies.length; i++) {
            String next = i == bodies.length - 1 ? state : "step-" + (i + 1);
            var answer = bodies[i].equals("503") ? aResponse().withStatus(503) : aResponse().withStatus(201).withBody(SEAT);
            wm.stubFor(post("/v1/seats").inScenario("seq").whenScenarioStateIs(state).willSetStateTo(next).willReturn(answer));
            state = next;
        }
    }

    @Test
    void theCallersClientSendsEveryAttemptAndStaysOpenAfterClose() throws Exception {
        sequence("503", SEAT);
        AtomicInteger tasks = new AtomicInteger();
        HttpClient client = HttpClient.newBuilder()
                .version(HttpClient.Version.HTTP_1_1)
                .followRedirects(HttpClient.Redirect.NEVER)
                .executor(r -> {
                    tasks.incrementAndGet();
                    pool.execute(r);
                })
                .build();
        SeatGrantConfig config = config().httpClient(client).build();
        assertSame(client, config.httpClient().orElseThrow());

        try (SeatGrantWorker worker = new SeatGrantWorker(config, time, time, time)) {
            assertEquals(new GrantOutcome.Granted("seat_1", 2), worker.handle(event));
        }
        assertTrue(tasks.get() > 0, "the exchanges ran on the caller's client (its executor saw work)");

        // Closing the worker must leave the caller's client usable (on 21+ a closed client would refuse this).
        HttpResponse<String> after = client.send(HttpRequest.newBuilder(URI.create(wm.baseUrl() + "/v1/seats"))
                .POST(HttpRequest.BodyPublishers.ofString(BODY)).build(), HttpResponse.BodyHandlers.ofString());
        assertEquals(201, after.statusCode());
    }

    @Test
    void aClientThatFollowsRedirectsIsRefusedAtBuildTime() {
        for (HttpClient.Redirect redirect : List.of(HttpClient.Redirect.ALWAYS, HttpClient.Redirect.NORMAL)) {
            HttpClient client = HttpClient.newBuilder().followRedirects(redirect).build();
            SeatGrantConfig.Builder b = config().httpClient(client);
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class, b::build, redirect.name());
            assertTrue(e.getMessage().contains("redirect"), e.getMessage());
        }
        HttpClient never = HttpClient.newBuilder().followRedirects(HttpClient.Redirect.NEVER).build();
        assertSame(never, config().httpClient(never).build().httpClient().orElseThrow());
    }

    @Test
    void theCustomizerRunsOnEveryAttemptSoARotatingTokenIsReadAfresh() {
        sequence("503", "503", SEAT);
        AtomicInteger token = new AtomicInteger();
        SeatGrantConfig config = config()
                .requestCustomizer(r -> r.header("Authorization", "Bearer t" + token.incrementAndGet())
                        .header("User-Agent", "billing-consumer/1.0"))
                .build();
        try (SeatGrantWorker worker = new SeatGrantWorker(config, time, time, time)) {
            assertEquals(new GrantOutcome.Granted("seat_1", 3), worker.handle(event));
        }
        List<LoggedRequest> requests = wm.findAll(postRequestedFor(urlEqualTo("/v1/seats")));
        assertEquals(List.of("Bearer t1", "Bearer t2", "Bearer t3"),
                requests.stream().map(r -> r.getHeader("Authorization")).toList());
        for (LoggedRequest r : requests) {
            assertEquals("billing-consumer/1.0", r.getHeader("User-Agent"));
            assertEquals("req_1", r.getHeader("Idempotency-Key"));
        }
    }

    @Test
    void aRequestCustomizerSeesTheGrantAndTheAttemptSyncAndAsync() {
        sequence("503", "503", SEAT);
        List<AttemptContext> seen = new CopyOnWriteArrayList<>();
        SeatGrantConfig config = config().requestCustomizer((request, context) -> {
            seen.add(context);
            request.header("traceparent", traceparent(context))
                    .header("Idempotency-Key", "not-the-worker's");
        }).build();
        try (SeatGrantWorker worker = new SeatGrantWorker(config, time, time, time)) {
            assertEquals(new GrantOutcome.Granted("seat_1", 3), worker.handle(event));
            wm.resetScenarios();
            assertEquals(new GrantOutcome.Granted("seat_1", 3),
                    Await.join(worker.handleAsync(new SeatRequested("req_2", "ws_1", "u_1"))));
        }
        List<AttemptContext> expected = List.of(new AttemptContext("req_1", 1), new AttemptContext("req_1", 2),
                new AttemptContext("req_1", 3), new AttemptContext("req_2", 1), new AttemptContext("req_2", 2),
                new AttemptContext("req_2", 3));
        assertEquals(expected, seen);
        List<LoggedRequest> requests = wm.findAll(postRequestedFor(urlEqualTo("/v1/seats")));
        assertEquals(expected.stream().map(TransportTest::traceparent).toList(),
                requests.stream().map(r -> r.getHeader("traceparent")).toList(), "a traceparent per event and attempt");
        assertEquals(List.of("req_1", "req_1", "req_1", "req_2", "req_2", "req_2"),
                requests.stream().map(r -> r.getHeader("Idempotency-Key")).toList(), "the worker's key still wins");
        for (LoggedRequest r : requests) {
            assertEquals(1, r.getHeaders().getHeader("Idempotency-Key").values().size());
        }
    }

    /** A W3C traceparent whose trace id is the requestId's and whose span id is the attempt's. */
    private static String traceparent(AttemptContext context) {
        String trace = String.format("%032x", context.requestId().hashCode() & 0xffffffffL);
        return "00-" + trace + "-" + String.format("%016x", context.attempt()) + "-01";
    }

    @Test
    void theLatestCustomizerWinsWhicheverFormItTakes() {
        wm.stubFor(post("/v1/seats").willReturn(aResponse().withStatus(201).withBody(SEAT)));
        Consumer<HttpRequest.Builder> plain = r -> r.header("X-Form", "consumer");
        RequestCustomizer withContext = (r, context) -> r.header("X-Form", "context-" + context.attempt());
        try (SeatGrantWorker a = new SeatGrantWorker(config().requestCustomizer(plain).requestCustomizer(withContext)
                .build(), time, time, time);
                SeatGrantWorker b = new SeatGrantWorker(config().requestCustomizer(withContext)
                        .requestCustomizer(plain).build(), time, time, time)) {
            a.handle(event);
            b.handle(event);
        }
        assertEquals(List.of("context-1", "consumer"), wm.findAll(postRequestedFor(urlEqualTo("/v1/seats"))).stream()
                .map(r -> r.getHeader("X-Form")).toList());
    }

    @Test
    void theEventsRoleIsTheBodysRole() {
        wm.stubFor(post("/v1/seats").willReturn(aResponse().withStatus(201).withBody(SEAT)));
        try (SeatGrantWorker worker = new SeatGrantWorker(config().build(), time, time, time)) {
            worker.handle(new SeatRequested("req_a", "ws_1", "u_1", "admin"));
            Await.join(worker.handleAsync(new SeatRequested("req_v", "ws_1", "u_1", "viewer")));
            worker.handle(new SeatRequested("req_m", "ws_1", "u_1"));
        }
        for (String[] keyAndRole : new String[][] {{"req_a", "admin"}, {"req_v", "viewer"}, {"req_m", "member"}}) {
            assertEquals(1, wm.findAll(postRequestedFor(urlEqualTo("/v1/seats"))
                    .withHeader("Idempotency-Key", equalTo(keyAndRole[0]))
                    .withRequestBody(equalToJson("{\"workspaceId\":\"ws_1\",\"userId\":\"u_1\",\"role\":\""
                            + keyAndRole[1] + "\"}"))).size(), keyAndRole[1]);
        }
    }

    @Test
    void theCustomizerCannotChangeTheKeyTheContentTypeTheMethodTheBodyOrTheTarget() throws Exception {
        wm.stubFor(any(anyUrl()).willReturn(aResponse().withStatus(201).withBody(SEAT)));
        Consumer<HttpRequest.Builder> hostile = r -> r
                .header("Idempotency-Key", "someone-elses-key")
                .header("idempotency-key", "lower-case-too")
                .header("Content-Type", "text/plain")
                .header("Authorization", "Bearer ok")
                .uri(URI.create(wm.baseUrl() + "/elsewhere"))
                .method("PUT", HttpRequest.BodyPublishers.ofString("not the grant"));
        SeatGrantConfig config = config().requestCustomizer(hostile).build();
        try (SeatGrantWorker worker = new SeatGrantWorker(config, time, time, time)) {
            assertEquals(new GrantOutcome.Granted("seat_1", 1), worker.handle(event));
            assertEquals(new GrantOutcome.Granted("seat_1", 1), Await.join(worker.handleAsync(event)));
        }
        assertEquals(2, wm.findAll(anyRequestedFor(anyUrl())).size(), "nothing but the two grants was sent");
        List<LoggedRequest> grants = wm.findAll(postRequestedFor(urlEqualTo("/v1/seats"))
                .withHeader("Idempotency-Key", equalTo("req_1"))
                .withHeader("Content-Type", equalTo("application/json"))
                .withHeader("Authorization", equalTo("Bearer ok"))
                .withRequestBody(equalToJson(BODY)));
        assertEquals(2, grants.size());
        for (LoggedRequest r : grants) {
            assertEquals(List.of("req_1"), r.getHeaders().getHeader("Idempotency-Key").values(), "one key, the worker's");
            assertEquals(List.of("application/json"), r.getHeaders().getHeader("Content-Type").values());
        }
    }

    @Test
    void aCustomizerThatThrowsEndsTheCallWithItsException() {
        wm.stubFor(post("/v1/seats").willReturn(aResponse().withStatus(201).withBody(SEAT)));
        IllegalStateException tokenDown = new IllegalStateException("token service down");
        List<GrantListener.Outcome> outcomes = new CopyOnWriteArrayList<>();
        SeatGrantConfig config = config().requestCustomizer(r -> {
            throw tokenDown;
        }).listener(new GrantListener() {
            @Override
            public void onOutcome(GrantListener.OutcomeEvent outcome) {
                outcomes.add(outcome.outcome());
            }
        }).build();
        try (SeatGrantWorker worker = new SeatGrantWorker(config, time, time, time)) {
            assertSame(tokenDown, assertThrows(IllegalStateException.class, () -> worker.handle(event)));
            CompletionException async = assertThrows(CompletionException.class,
                    () -> Await.join(worker.handleAsync(event)));
            assertSame(tokenDown, async.getCause());
            assertEquals(2, worker.retry().getMetrics().getNumberOfFailedCallsWithoutRetryAttempt(),
                    "both calls were booked, not lost");
        }
        assertEquals(List.of(GrantListener.Outcome.FAILED, GrantListener.Outcome.FAILED), outcomes);
        assertEquals(0, wm.findAll(anyRequestedFor(anyUrl())).size(), "nothing was sent");
    }
}
