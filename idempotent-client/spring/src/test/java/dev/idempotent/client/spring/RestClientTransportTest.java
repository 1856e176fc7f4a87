package dev.idempotent.client.spring;

import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;
import static com.github.tomakehurst.wiremock.client.WireMock.post;
import static com.github.tomakehurst.wiremock.client.WireMock.postRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.urlEqualTo;
import static com.github.tomakehurst.wiremock.core.WireMockConfiguration.options;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.github.tomakehurst.wiremock.http.Fault;
import com.github.tomakehurst.wiremock.junit5.WireMockExtension;
import dev.idempotent.client.IdempotentClient;
import dev.idempotent.client.IdempotentRequest;
import dev.idempotent.client.IdempotentResponse;
import dev.idempotent.client.RequestRejectedException;
import dev.idempotent.client.RetriesExhaustedException;
import java.net.URI;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import dev.idempotent.client.Transport;
import java.io.IOException;
import java.net.ServerSocket;
import java.net.http.HttpHeaders;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import org.springframework.web.client.RestClient;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The protocol on Spring's RestClient (the JDK request factory it picks on a plain classpath) over a loopback socket: the service's interceptor sees every attempt with the same key, a
 * lost answer gives one resource, a status is classified (never thrown), and the client's body limit, deadlines
 * and {@code close()} hold on this stack.
 */
class RestClientTransportTest {

    /**
     * A server per test, not per class: a request a test leaves in flight (a delayed answer it cancelled) is logged
     * by its own server, never in the next test's journal.
     */
    @RegisterExtension
    final WireMockExtension wm = WireMockExtension.newInstance()
            .options(options().dynamicPort().bindAddress("127.0.0.1"))
            .build();

    /** The key header of each request the service's own interceptor saw, in order. */
    private final List<String> intercepted = new CopyOnWriteArrayList<>();
    private final CountDownLatch firstSent = new CountDownLatch(1);
    private final RestClient rest = RestClient.builder()
            .requestInterceptor((request, body, execution) -> {
                intercepted.add(String.valueOf(request.getHeaders().getFirst("Idempotency-Key")));
                firstSent.countDown();
                return execution.execute(request, body);
            })
            // A handler that would throw on any error status: the transport's exchange never runs it.
            .defaultStatusHandler(status -> true, (request, response) -> {
                throw new IllegalStateException("a status handler ran");
            })
            .defaultHeader("Idempotency-Key", "a-default-the-attempt-replaces")
            .build();
    private final List<IdempotentClient> clients = new CopyOnWriteArrayList<>();

    @AfterEach
    void close() {
        clients.forEach(IdempotentClient::close);
    }

    private IdempotentClient client(IdempotentClient.Builder b) {
        IdempotentClient c = b.transport(RestClientTransport.of(rest)).baseDelay(Duration.ofMillis(1))
                .maxDelay(Duration.ofMillis(5)).build();
        clients.add(c);
        return c;
    }

    private IdempotentRequest payment(String key) {
        return IdempotentRequest.post(URI.create(wm.baseUrl() + "/v1/payments"), key).json("{\"amount\":100}")
                .build();
    }

    private void lostThenCreated() {
        wm.stubFor(post("/v1/payments").inScenario("lost").whenScenarioStateIs("Started").willSetStateTo("answered")
                .willReturn(aResponse().withFault(Fault.CONNECTION_RESET_BY_PEER)));
        wm.stubFor(post("/v1/payments").inScenario("lost").whenScenarioStateIs("answered")
                .willReturn(aResponse().withStatus(201).withHeader("Content-Type", "application/json")
                        .withBody("{\"id\":\"pay_1\"}")));
    }

    @Test
    void theRestClientAServiceGetsFromCreateWorksAsIs() {
        wm.stubFor(post("/v1/payments").willReturn(aResponse().withStatus(201).withBody("{\"id\":\"p\"}")));
        IdempotentClient c = IdempotentClient.builder().transport(RestClientTransport.of(RestClient.create()))
                .resourceIdPointer("/id").build();
        clients.add(c);
        assertEquals(Optional.of("p"), c.send(payment("k")).resourceId());
        wm.verify(1, postRequestedFor(urlEqualTo("/v1/payments"))
                .withHeader("Idempotency-Key", com.github.tomakehurst.wiremock.client.WireMock.equalTo("k"))
                .withHeader("Content-Type", com.github.tomakehurst.wiremock.client.WireMock.equalTo("application/json"))
                .withRequestBody(com.github.tomakehurst.wiremock.client.WireMock.equalTo("{\"amount\":100}")));
    }

    @Test
    void aLostAnswerGivesOneResourceAndTheInterceptorSeesEveryAttemptWithTheSameKey() {
        lostThenCreated();
        IdempotentResponse r = client(IdempotentClient.builder().resourceIdPointer("/id")).send(payment("key-1"));
        assertEquals(2, r.attempts());
        assertEquals(Optional.of("pay_1"), r.resourceId());
        assertEquals(List.of("key-1", "key-1"), intercepted);
        wm.verify(2, postRequestedFor(urlEqualTo("/v1/payments")));
    }

    @Test
    void theAsyncPathToo() throws Exception {
        lostThenCreated();
        IdempotentResponse r = client(IdempotentClient.builder().resourceIdPointer("/id"))
                .sendAsync(payment("key-2")).get(10, TimeUnit.SECONDS);
        assertEquals(2, r.attempts());
        assertEquals(List.of("key-2", "key-2"), intercepted);
    }

    @Test
    void aStatusIsClassifiedNotThrown() {
        // The RestClient's own status handler would throw on it; the transport's exchange never runs it.
        wm.stubFor(post("/v1/payments").willReturn(aResponse().withStatus(422).withBody("{\"error\":\"reused\"}")));
        RequestRejectedException e = assertThrows(RequestRejectedException.class,
                () -> client(IdempotentClient.builder()).send(payment("k")));
        assertEquals(1, e.attempts());
        assertEquals("{\"error\":\"reused\"}", e.response().orElseThrow().bodyAsString());
    }

    @Test
    void anOutageUsesEveryAttempt() {
        wm.stubFor(post("/v1/payments").willReturn(aResponse().withStatus(503)));
        RetriesExhaustedException e = assertThrows(RetriesExhaustedException.class,
                () -> client(IdempotentClient.builder().maxAttempts(3)).send(payment("k")));
        assertEquals(3, e.attempts());
        assertEquals(3, intercepted.size());
    }

    @Test
    void aBodyPastTheLimitIsCutAndNotRead() {
        wm.stubFor(post("/v1/payments").willReturn(aResponse().withStatus(201).withBody("x".repeat(2_000_000))));
        IdempotentResponse r = client(IdempotentClient.builder().maxBodyBytes(1024)).send(payment("k"));
        assertTrue(r.bodyTruncated());
        assertEquals(1024, r.body().length);
    }

    @Test
    void anAttemptPastItsBudgetEnds() {
        wm.stubFor(post("/v1/payments").willReturn(aResponse().withStatus(201).withFixedDelay(5_000)));
        long start = System.nanoTime();
        assertThrows(RetriesExhaustedException.class, () -> client(IdempotentClient.builder().maxAttempts(1)
                .attemptTimeout(Duration.ofMillis(300))).send(payment("k")));
        assertTrue(System.nanoTime() - start < Duration.ofSeconds(3).toNanos());
    }

    @Test
    void closeEndsACallInFlightWithinASecond() throws Exception {
        wm.stubFor(post("/v1/payments").willReturn(aResponse().withStatus(201).withFixedDelay(10_000)));
        IdempotentClient c = client(IdempotentClient.builder().attemptTimeout(Duration.ofSeconds(20))
                .callTimeout(Duration.ofSeconds(30)));
        CompletableFuture<Throwable> blocking = CompletableFuture.supplyAsync(() -> {
            try {
                c.send(payment("k"));
                return null;
            } catch (RuntimeException e) {
                return e;
            }
        });
        assertTrue(firstSent.await(10, TimeUnit.SECONDS));
        CompletableFuture<IdempotentResponse> async = c.sendAsync(payment("k2"));
        c.close();
        assertInstanceOf(IllegalStateException.class, blocking.get(1, TimeUnit.SECONDS));
        assertThrows(Exception.class, () -> async.get(1, TimeUnit.SECONDS));
        assertTrue(async.isCompletedExceptionally());
    }

    private Transport.Attempt attempt(URI uri, String method, byte[] body, Map<String, List<String>> headers) {
        return new Transport.Attempt(method, uri, HttpHeaders.of(headers, (n, v) -> true), body, "k", 1,
                Duration.ofSeconds(5), 1000);
    }

    private URI payments() {
        return URI.create(wm.baseUrl() + "/v1/payments");
    }

    @Test
    void theAnswersHeadersAndBodyAndTheAttemptsHeadersPassThrough() throws Exception {
        wm.stubFor(com.github.tomakehurst.wiremock.client.WireMock.any(urlEqualTo("/v1/payments"))
                .willReturn(aResponse().withStatus(202).withHeader("Retry-After", "3").withBody("ok")));
        Transport.Answer a = RestClientTransport.of(RestClient.create()).send(attempt(payments(), "POST",
                "{}".getBytes(), Map.of("Content-Type", List.of("application/json"), "X-Trace", List.of("t1", "t2"))))
                .get(10, TimeUnit.SECONDS);
        assertEquals(202, a.status());
        assertEquals(Optional.of("3"), a.headers().firstValue("retry-after"));
        assertEquals("ok", new String(a.body()));
        assertEquals(List.of("t1", "t2"), wm.getAllServeEvents().get(0).getRequest().getHeaders()
                .getHeader("X-Trace").values());
        assertEquals("{}", wm.getAllServeEvents().get(0).getRequest().getBodyAsString());
    }

    @Test
    void aRequestWithoutABodySendsNone() throws Exception {
        wm.stubFor(com.github.tomakehurst.wiremock.client.WireMock.any(urlEqualTo("/v1/payments"))
                .willReturn(aResponse().withStatus(204)));
        assertEquals(204, RestClientTransport.of(RestClient.create()).send(attempt(payments(), "DELETE", new byte[0],
                Map.of())).get(10, TimeUnit.SECONDS).status());
        assertEquals("", wm.getAllServeEvents().get(0).getRequest().getBodyAsString());
        // No body was written: no converter set a Content-Type.
        assertEquals(false, wm.getAllServeEvents().get(0).getRequest().containsHeader("Content-Type"));
        assertEquals("DELETE", wm.getAllServeEvents().get(0).getRequest().getMethod().getName());
    }

    @Test
    void aRefusedConnectionFailsWithTheIoException() throws Exception {
        int port;
        try (ServerSocket s = new ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
            port = s.getLocalPort();
        }
        CompletableFuture<Transport.Answer> f = RestClientTransport.of(RestClient.create())
                .send(attempt(URI.create("http://127.0.0.1:" + port + "/x"), "POST", new byte[0], Map.of()));
        ExecutionException e = assertThrows(ExecutionException.class, () -> f.get(10, TimeUnit.SECONDS));
        // The stack's own exception, not one wrapped by the transport.
        assertInstanceOf(java.net.ConnectException.class, e.getCause());
    }

    @Test
    void anInterceptorsOwnExceptionIsPassedOnAsIs() {
        IllegalStateException own = new IllegalStateException("the interceptor's");
        RestClient failing = RestClient.builder().requestInterceptor((request, body, execution) -> {
            throw own;
        }).build();
        CompletableFuture<Transport.Answer> f = RestClientTransport.of(failing)
                .send(attempt(payments(), "POST", new byte[0], Map.of()));
        ExecutionException e = assertThrows(ExecutionException.class, () -> f.get(10, TimeUnit.SECONDS));
        assertEquals(own, e.getCause());
    }

    @Test
    void cancellingTheFutureInterruptsTheExchange() throws Exception {
        CountDownLatch entered = new CountDownLatch(1);
        CountDownLatch interrupted = new CountDownLatch(1);
        List<Boolean> daemon = new CopyOnWriteArrayList<>();
        RestClient blocking = RestClient.builder().requestInterceptor((request, body, execution) -> {
            daemon.add(Thread.currentThread().isDaemon());
            entered.countDown();
            try {
                Thread.sleep(10_000);
            } catch (InterruptedException e) {
                interrupted.countDown();
                Thread.currentThread().interrupt();
            }
            return execution.execute(request, body);
        }).build();
        CompletableFuture<Transport.Answer> f = RestClientTransport.of(blocking)
                .send(attempt(payments(), "POST", new byte[0], Map.of()));
        assertTrue(entered.await(10, TimeUnit.SECONDS));
        assertTrue(f.cancel(true));
        assertTrue(f.isCancelled());
        assertTrue(interrupted.await(1, TimeUnit.SECONDS), "the exchange's thread was interrupted");
        assertEquals(List.of(true), daemon, "the transport's threads never keep a JVM alive");
    }

    @Test
    void cancellingAnAnsweredAttemptChangesNothing() throws Exception {
        wm.stubFor(post("/v1/payments").willReturn(aResponse().withStatus(201)));
        CompletableFuture<Transport.Answer> f = RestClientTransport.of(RestClient.create())
                .send(attempt(payments(), "POST", new byte[0], Map.of()));
        assertEquals(201, f.get(10, TimeUnit.SECONDS).status());
        assertEquals(false, f.cancel(true));
        assertEquals(false, f.isCancelled());
    }
}
