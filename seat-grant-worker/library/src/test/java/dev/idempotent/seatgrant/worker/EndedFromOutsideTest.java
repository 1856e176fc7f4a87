package dev.idempotent.seatgrant.worker;

import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;
import static com.github.tomakehurst.wiremock.client.WireMock.post;
import static com.github.tomakehurst.wiremock.client.WireMock.postRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.urlEqualTo;
import static com.github.tomakehurst.wiremock.core.WireMockConfiguration.options;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.github.tomakehurst.wiremock.junit5.WireMockExtension;
import dev.idempotent.seatgrant.worker.GrantListener.AttemptEvent;
import dev.idempotent.seatgrant.worker.GrantListener.Outcome;
import dev.idempotent.seatgrant.worker.GrantListener.OutcomeEvent;
import dev.idempotent.seatgrant.worker.internal.SeatsApi;
import dev.idempotent.seatgrant.worker.testing.FakeTime;
import java.io.IOException;
import java.net.Authenticator;
import java.net.CookieHandler;
import java.net.ProxySelector;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLParameters;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Calls that end for a reason that is not the server's answer: a worker already closed, a scheduler that cannot
 * schedule the next wait, a caller's HTTP client that fails with something other than a transport error. Each
 * ends with that reason, exactly as it was thrown, and is reported as exactly what happened.
 */
class EndedFromOutsideTest {

    private static final String SEAT = "{\"id\":\"seat_9\",\"role\":\"member\"}";

    @RegisterExtension
    static final WireMockExtension wm = WireMockExtension.newInstance()
            .options(options().dynamicPort().bindAddress("127.0.0.1"))
            .build();

    private final SeatRequested event = new SeatRequested("req_o", "ws_1", "u_1");
    private final FakeTime time = new FakeTime();
    private final List<AttemptEvent> attempts = new CopyOnWriteArrayList<>();
    private final List<OutcomeEvent> outcomes = new CopyOnWriteArrayList<>();
    private final GrantListener listener = new GrantListener() {
        @Override
        public void onAttempt(AttemptEvent attempt) {
            attempts.add(attempt);
        }

        @Override
        public void onOutcome(OutcomeEvent outcome) {
            outcomes.add(outcome);
        }
    };

    private SeatGrantConfig.Builder config() {
        return SeatGrantConfig.builder(URI.create(wm.baseUrl())).listener(listener);
    }

    @Test
    void aCallRefusedByAClosedWorkerIsNoGrantAndReportsNothing() {
        SeatGrantWorker worker = new SeatGrantWorker(config().build(), time, time, time);
        worker.close();

        IllegalStateException e = assertThrows(IllegalStateException.class, () -> worker.handle(event));

        assertTrue(e.getMessage().contains("is closed"), e.getMessage());
        assertEquals(List.of(), outcomes, "a refused call never started, so no outcome (not even cancelled)");
        assertEquals(0, worker.retry().getMetrics().getNumberOfFailedCallsWithoutRetryAttempt());
        wm.verify(0, postRequestedFor(urlEqualTo("/v1/seats")));
    }

    @Test
    void aSchedulerThatCannotScheduleTheWaitEndsTheGrantWithItsOwnFailure() throws Exception {
        wm.stubFor(post("/v1/seats").willReturn(aResponse().withStatus(503)));
        IllegalStateException refused = new IllegalStateException("timer refused the wait",
                new RejectedExecutionException("queue full"));
        Scheduler failing = delay -> CompletableFuture.failedFuture(refused);

        try (SeatGrantWorker w = new SeatGrantWorker(config().build(), time, failing, time)) {
            CompletableFuture<GrantOutcome> f = w.handleAsync(event);

            Throwable failure = f.handle((outcome, t) -> t).get(30, TimeUnit.SECONDS);
            assertSame(refused, failure, "the scheduler's exception itself, not its cause nor a wrapper");
        }
        assertEquals(List.of(new OutcomeEvent("req_o", 1, Outcome.FAILED, OptionalInt.of(503), Optional.empty(),
                Duration.ZERO)), outcomes, "failed, naming the last answer; reported once");
        assertEquals(List.of(Outcome.RETRY), attempts.stream().map(AttemptEvent::outcome).toList());
        wm.verify(1, postRequestedFor(urlEqualTo("/v1/seats")));
    }

    @Test
    void aCallersClientThatFailsWithANonTransportErrorEndsTheGrantWithThatError() throws Exception {
        wm.stubFor(post("/v1/seats").willReturn(aResponse().withStatus(201).withBody(SEAT)));
        HookFailingClient client = new HookFailingClient(SeatsApi.newClient(Duration.ofSeconds(5)));

        try (SeatGrantWorker w = new SeatGrantWorker(config().httpClient(client).build(), time, time, time)) {
            CompletableFuture<GrantOutcome> f = w.handleAsync(event);

            Throwable failure = f.handle((outcome, t) -> t).get(30, TimeUnit.SECONDS);
            assertNotNull(client.thrown.get(), "the client's hook ran");
            assertSame(client.thrown.get(), failure, "the client's exception itself, unwrapped, not retried");
        }
        assertEquals(List.of(Outcome.FAILED), outcomes.stream().map(OutcomeEvent::outcome).toList());
        assertEquals(1, outcomes.get(0).attempts());
        assertEquals(List.of(), attempts, "no answer was classified");
        wm.verify(1, postRequestedFor(urlEqualTo("/v1/seats")));
    }

    /**
     * A caller's instrumented client: it really sends (through a JDK client), then its response hook throws, as a
     * broken tracing or metrics wrapper would. Everything else is the wrapped client's.
     */
    private static final class HookFailingClient extends HttpClient {
        private final HttpClient delegate;
        final AtomicReference<RuntimeException> thrown = new AtomicReference<>();

        HookFailingClient(HttpClient delegate) {
            this.delegate = delegate;
        }

        @Override
        public <T> CompletableFuture<HttpResponse<T>> sendAsync(HttpRequest request,
                HttpResponse.BodyHandler<T> handler) {
            return delegate.sendAsync(request, handler).thenApply(response -> {
                RuntimeException e = new IllegalStateException("tracing hook failed");
                thrown.set(e);
                throw e;
            });
        }

        @Override
        public <T> CompletableFuture<HttpResponse<T>> sendAsync(HttpRequest request,
                HttpResponse.BodyHandler<T> handler, HttpResponse.PushPromiseHandler<T> push) {
            return sendAsync(request, handler);
        }

        @Override
        public <T> HttpResponse<T> send(HttpRequest request, HttpResponse.BodyHandler<T> handler)
                throws IOException, InterruptedException {
            return delegate.send(request, handler);
        }

        @Override
        public Optional<CookieHandler> cookieHandler() {
            return delegate.cookieHandler();
        }

        @Override
        public Optional<Duration> connectTimeout() {
            return delegate.connectTimeout();
        }

        @Override
        public Redirect followRedirects() {
            return delegate.followRedirects();
        }

        @Override
        public Optional<ProxySelector> proxy() {
            return delegate.proxy();
        }

        @Override
        public SSLContext sslContext() {
            return delegate.sslContext();
        }

        @Override
        public SSLParameters sslParameters() {
            return delegate.sslParameters();
        }

        @Override
        public Optional<Authenticator> authenticator() {
            return delegate.authenticator();
        }

        @Override
        public Version version() {
            return delegate.version();
        }

        @Override
        public Optional<Executor> executor() {
            return delegate.executor();
        }
    }
}
