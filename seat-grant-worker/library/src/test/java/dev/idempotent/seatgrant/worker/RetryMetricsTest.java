package dev.idempotent.seatgrant.worker;

import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;
import static com.github.tomakehurst.wiremock.client.WireMock.post;
import static com.github.tomakehurst.wiremock.core.WireMockConfiguration.options;
import static com.github.tomakehurst.wiremock.stubbing.Scenario.STARTED;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

import com.github.tomakehurst.wiremock.junit5.WireMockExtension;
import dev.idempotent.seatgrant.worker.GrantListener.OutcomeEvent;
import dev.idempotent.seatgrant.worker.testing.Await;
import dev.idempotent.seatgrant.worker.testing.FakeTime;
import io.github.resilience4j.micrometer.tagged.TaggedRetryMetricsPublisher;
import io.github.resilience4j.retry.Retry;
import io.github.resilience4j.retry.event.RetryEvent;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.net.URI;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * One resilience4j {@link Retry} per worker, through which every call runs: its own metrics, its event publisher
 * and resilience4j's Micrometer binding all count what the worker did, and so can a listener.
 */
class RetryMetricsTest {

    private static final String SEAT = "{\"id\":\"seat_1\",\"role\":\"member\"}";

    @RegisterExtension
    static final WireMockExtension wm = WireMockExtension.newInstance()
            .options(options().dynamicPort().bindAddress("127.0.0.1"))
            .build();

    private final FakeTime time = new FakeTime();

    private void script(int... statuses) {
        wm.resetAll();
        String state = STARTED;
        for (int i = 0; i < statuses.length; i++) {
            String next = i == statuses.length - 1 ? state : "step-" + (i + 1);
            var answer = statuses[i] == 201 ? aResponse().withStatus(201).withBody(SEAT) : aResponse().withStatus(statuses[i]);
            wm.stubFor(post("/v1/seats").inScenario("m").whenScenarioStateIs(state).willSetStateTo(next).willReturn(answer));
            state = next;
        }
    }

    /**
     * Five calls, one of each kind: a grant at once, a grant after a retry (async), attempts running out, a
     * rejection, and a caller's deadline already past.
     */
    private void fiveCalls(SeatGrantWorker w) {
        script(201);
        w.handle(new SeatRequested("req_a", "ws", "u"));
        script(503, 201);
        Await.join(w.handleAsync(new SeatRequested("req_b", "ws", "u")));
        script(503);
        assertThrows(GrantExhaustedException.class, () -> w.handle(new SeatRequested("req_c", "ws", "u")));
        script(400);
        assertThrows(GrantRejectedException.class, () -> w.handle(new SeatRequested("req_d", "ws", "u")));
        assertThrows(GrantExhaustedException.class,
                () -> w.handle(new SeatRequested("req_e", "ws", "u"), Instant.EPOCH));
    }

    @Test
    void oneRetryNamedSeatGrantCountsEveryCall() {
        List<RetryEvent> published = new CopyOnWriteArrayList<>();
        try (SeatGrantWorker w = new SeatGrantWorker(SeatGrantConfig.builder(URI.create(wm.baseUrl())).maxAttempts(3)
                .build(), time, time, time)) {
            Retry retry = w.retry();
            assertSame(retry, w.retry(), "one Retry per worker, not one per event");
            assertEquals(SeatGrantWorker.RETRY_NAME, retry.getName());
            assertEquals("seat-grant", retry.getName());
            retry.getEventPublisher().onEvent(published::add);

            fiveCalls(w);

            Retry.Metrics m = retry.getMetrics();
            assertEquals(1, m.getNumberOfSuccessfulCallsWithoutRetryAttempt(), "req_a");
            assertEquals(1, m.getNumberOfSuccessfulCallsWithRetryAttempt(), "req_b");
            assertEquals(1, m.getNumberOfFailedCallsWithRetryAttempt(), "req_c: attempts ran out");
            assertEquals(2, m.getNumberOfFailedCallsWithoutRetryAttempt(), "req_d rejected, req_e out of time");
        }
        // req_b retried once, req_c twice; then one success-after-retry, one error, two ignored errors.
        assertEquals(List.of("RETRY", "SUCCESS", "RETRY", "RETRY", "ERROR", "IGNORED_ERROR", "IGNORED_ERROR"),
                published.stream().map(e -> e.getEventType().name()).toList());
    }

    @Test
    void micrometerReadsTheCountersThroughResilience4jsOwnBinding() {
        MeterRegistry registry = new SimpleMeterRegistry();
        try (SeatGrantWorker w = new SeatGrantWorker(SeatGrantConfig.builder(URI.create(wm.baseUrl())).maxAttempts(3)
                .build(), time, time, time)) {
            new TaggedRetryMetricsPublisher(registry).publishMetrics(w.retry());
            fiveCalls(w);
        }
        assertEquals(1.0, calls(registry, "successful_without_retry"));
        assertEquals(1.0, calls(registry, "successful_with_retry"));
        assertEquals(1.0, calls(registry, "failed_with_retry"));
        assertEquals(2.0, calls(registry, "failed_without_retry"));
    }

    @Test
    void aListenerCanFeedMicrometerWithTheWorkersOwnOutcomes() {
        MeterRegistry registry = new SimpleMeterRegistry();
        GrantListener metrics = new GrantListener() {
            @Override
            public void onOutcome(OutcomeEvent outcome) {
                registry.counter("seat.grants", "outcome", outcome.outcome().logName()).increment();
            }
        };
        try (SeatGrantWorker w = new SeatGrantWorker(SeatGrantConfig.builder(URI.create(wm.baseUrl())).maxAttempts(3)
                .listener(metrics).build(), time, time, time)) {
            fiveCalls(w);
        }
        assertEquals(2.0, registry.counter("seat.grants", "outcome", "granted").count());
        assertEquals(2.0, registry.counter("seat.grants", "outcome", "exhausted").count());
        assertEquals(1.0, registry.counter("seat.grants", "outcome", "rejected").count());
    }

    private static double calls(MeterRegistry registry, String kind) {
        Counter c = registry.find("resilience4j.retry.calls").tag("name", "seat-grant").tag("kind", kind).counter();
        if (c != null) {
            return c.count();
        }
        // The binding registers function counters; read whichever kind of meter carries the tag.
        return registry.find("resilience4j.retry.calls").tag("name", "seat-grant").tag("kind", kind)
                .functionCounter().count();
    }
}
