package dev.idempotent.client.okhttp;

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
import java.net.http.HttpHeaders;
import java.util.Map;
import okhttp3.Call;
import okhttp3.EventListener;
import okhttp3.OkHttpClient;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The protocol on OkHttp over a loopback socket: the service's interceptor sees every attempt with the same key, a
 * lost answer gives one resource, a status is classified (never thrown), and the client's body limit, deadlines
 * and {@code close()} hold on this stack.
 */
class OkHttpTransportTest {

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
    /** Calls OkHttp reports cancelled. */
    private final CountDownLatch cancelled = new CountDownLatch(1);
    private final OkHttpClient okHttp = new OkHttpClient.Builder()
            .eventListener(new EventListener() {
                @Override
                public void canceled(Call call) {
                    cancelled.countDown();
                }
            })
            .retryOnConnectionFailure(false)
            .followRedirects(false)
            .addInterceptor(chain -> {
                intercepted.add(String.valueOf(chain.request().header("Idempotency-Key")));
                firstSent.countDown();
                return chain.proceed(chain.request());
            })
            .build();
    private final List<IdempotentClient> clients = new CopyOnWriteArrayList<>();

    @AfterEach
    void close() {
        clients.forEach(IdempotentClient::close);
    }

    private IdempotentClient client(IdempotentClient.Builder b) {
        IdempotentClient c = b.transport(OkHttpTransport.of(okHttp)).baseDelay(Duration.ofMillis(1))
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
    void aClientThatWouldResendByItselfIsRefusedNamingTheSetting() {
        IllegalArgumentException retry = assertThrows(IllegalArgumentException.class,
                () -> OkHttpTransport.of(new OkHttpClient()));
        assertTrue(retry.getMessage().contains("retryOnConnectionFailure"), retry.getMessage());
        IllegalArgumentException redirects = assertThrows(IllegalArgumentException.class,
                () -> OkHttpTransport.of(new OkHttpClient.Builder().retryOnConnectionFailure(false).build()));
        assertTrue(redirects.getMessage().contains("followRedirects"), redirects.getMessage());
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

    private Transport.Attempt attempt(String method, byte[] body, Map<String, List<String>> headers) {
        return new Transport.Attempt(method, URI.create(wm.baseUrl() + "/v1/payments"),
                HttpHeaders.of(headers, (n, v) -> true), body, "k", 1, Duration.ofSeconds(5), 1000);
    }

    @Test
    void theAnswersHeadersAndBodyAndTheAttemptsHeadersPassThrough() throws Exception {
        wm.stubFor(com.github.tomakehurst.wiremock.client.WireMock.any(urlEqualTo("/v1/payments"))
                .willReturn(aResponse().withStatus(202).withHeader("Retry-After", "3").withBody("ok")));
        Transport.Answer a = OkHttpTransport.of(okHttp).send(attempt("POST", "{}".getBytes(),
                Map.of("Content-Type", List.of("application/json"), "X-Trace", List.of("t1", "t2"))))
                .get(10, TimeUnit.SECONDS);
        assertEquals(202, a.status());
        assertEquals(Optional.of("3"), a.headers().firstValue("Retry-After"));
        assertEquals("ok", new String(a.body()));
        wm.verify(postRequestedFor(urlEqualTo("/v1/payments"))
                .withHeader("X-Trace", com.github.tomakehurst.wiremock.client.WireMock.equalTo("t1"))
                .withHeader("Content-Type", com.github.tomakehurst.wiremock.client.WireMock.equalTo("application/json"))
                .withRequestBody(com.github.tomakehurst.wiremock.client.WireMock.equalTo("{}")));
        assertEquals(List.of("t1", "t2"), wm.getAllServeEvents().get(0).getRequest().getHeaders()
                .getHeader("X-Trace").values());
    }

    @Test
    void cancellingAnAnsweredAttemptChangesNothing() throws Exception {
        wm.stubFor(post("/v1/payments").willReturn(aResponse().withStatus(201)));
        CompletableFuture<Transport.Answer> f = OkHttpTransport.of(okHttp).send(attempt("POST", new byte[0],
                Map.of()));
        assertEquals(201, f.get(10, TimeUnit.SECONDS).status());
        assertEquals(false, f.cancel(true));
        assertEquals(false, f.isCancelled());
    }

    @Test
    void aDeleteOrAPostWithoutABodyIsSent() throws Exception {
        wm.stubFor(com.github.tomakehurst.wiremock.client.WireMock.any(urlEqualTo("/v1/payments"))
                .willReturn(aResponse().withStatus(204)));
        OkHttpTransport t = OkHttpTransport.of(okHttp);
        assertEquals(204, t.send(attempt("DELETE", new byte[0], Map.of())).get(10, TimeUnit.SECONDS).status());
        assertEquals(204, t.send(attempt("POST", new byte[0], Map.of())).get(10, TimeUnit.SECONDS).status());
        assertEquals(204, t.send(attempt("DELETE", "{}".getBytes(),
                Map.of("Content-Type", List.of("application/json")))).get(10, TimeUnit.SECONDS).status());
        List<String> methods = wm.getAllServeEvents().stream().map(e -> e.getRequest().getMethod().getName())
                .toList();
        assertTrue(methods.containsAll(List.of("DELETE", "POST")) && methods.size() == 3, methods.toString());
        assertTrue(wm.getAllServeEvents().stream().anyMatch(e -> e.getRequest().getMethod().getName().equals("DELETE")
                && e.getRequest().getBodyAsString().equals("{}")));
        // The DELETE without a body went without one: no Content-Length, unlike the empty POST's.
        assertTrue(wm.getAllServeEvents().stream().anyMatch(e -> e.getRequest().getMethod().getName().equals("DELETE")
                && !e.getRequest().containsHeader("Content-Length")));
    }

    @Test
    void cancellingTheFutureCancelsTheCall() throws Exception {
        wm.stubFor(post("/v1/payments").willReturn(aResponse().withStatus(201).withFixedDelay(10_000)));
        CompletableFuture<Transport.Answer> f = OkHttpTransport.of(okHttp).send(attempt("POST", "{}".getBytes(),
                Map.of()));
        assertTrue(firstSent.await(10, TimeUnit.SECONDS));
        assertTrue(f.cancel(true));
        assertTrue(f.isCancelled());
        assertTrue(cancelled.await(1, TimeUnit.SECONDS), "OkHttp saw the call cancelled");
    }
}
