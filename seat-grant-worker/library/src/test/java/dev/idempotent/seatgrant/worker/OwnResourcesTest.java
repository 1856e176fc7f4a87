package dev.idempotent.seatgrant.worker;

import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;
import static com.github.tomakehurst.wiremock.client.WireMock.post;
import static com.github.tomakehurst.wiremock.client.WireMock.postRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.urlPathEqualTo;
import static com.github.tomakehurst.wiremock.core.WireMockConfiguration.options;
import static com.github.tomakehurst.wiremock.stubbing.Scenario.STARTED;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import com.github.tomakehurst.wiremock.junit5.WireMockExtension;
import java.net.URI;
import java.time.Instant;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * A worker built with nothing but a config uses what it owns: its own timer thread for the asynchronous
 * path's waits, its own HTTP client; and once closed it refuses work on both paths instead of half-doing it.
 */
class OwnResourcesTest {

    private static final String SEAT = "{\"id\":\"seat_5\",\"role\":\"member\"}";

    @RegisterExtension
    static final WireMockExtension wm = WireMockExtension.newInstance()
            .options(options().dynamicPort().bindAddress("127.0.0.1"))
            .build();

    private SeatGrantConfig config() {
        return SeatGrantConfig.builder(URI.create(wm.baseUrl())).build();
    }

    private void failOnceWithNoWaitThenGrant() {
        // Retry-After: 0, so the real timer's wait is immediate and the test takes no time.
        wm.stubFor(post(urlPathEqualTo("/v1/seats")).inScenario("s").whenScenarioStateIs(STARTED).willSetStateTo("up")
                .willReturn(aResponse().withStatus(503).withHeader("Retry-After", "0")));
        wm.stubFor(post(urlPathEqualTo("/v1/seats")).inScenario("s").whenScenarioStateIs("up")
                .willReturn(aResponse().withStatus(201).withBody(SEAT)));
    }

    @Test
    void theAsynchronousPathWaitsOnTheWorkersOwnTimer() throws Exception {
        failOnceWithNoWaitThenGrant();
        try (SeatGrantWorker worker = new SeatGrantWorker(config())) {
            GrantOutcome first = worker.handleAsync(new SeatRequested("req_a1", "ws", "u")).get(20, TimeUnit.SECONDS);
            assertEquals(new GrantOutcome.Granted("seat_5", 2), first);

            // The timer, once started, serves the next grant too.
            wm.resetScenarios();
            GrantOutcome second = worker.handleAsync(new SeatRequested("req_a2", "ws", "u")).get(20, TimeUnit.SECONDS);
            assertEquals(new GrantOutcome.Granted("seat_5", 2), second);
        }
        wm.verify(4, postRequestedFor(urlPathEqualTo("/v1/seats")));
    }

    @Test
    void aCallWithAnExplicitDeadlineReturnsItsOutcome() {
        wm.stubFor(post(urlPathEqualTo("/v1/seats")).willReturn(aResponse().withStatus(201).withBody(SEAT)));
        try (SeatGrantWorker worker = new SeatGrantWorker(config())) {
            assertEquals(new GrantOutcome.Granted("seat_5", 1),
                    worker.handle(new SeatRequested("req_d", "ws", "u"), Instant.now().plusSeconds(30)));
        }
    }

    @Test
    void aClosedWorkerRefusesBothPathsAndSendsNothing() {
        wm.stubFor(post(urlPathEqualTo("/v1/seats")).willReturn(aResponse().withStatus(201).withBody(SEAT)));
        SeatGrantWorker worker = new SeatGrantWorker(config());
        worker.close();

        assertThrows(IllegalStateException.class, () -> worker.handle(new SeatRequested("req_c1", "ws", "u")));
        assertThrows(IllegalStateException.class, () -> worker.handleAsync(new SeatRequested("req_c2", "ws", "u")));
        worker.close();
        wm.verify(0, postRequestedFor(urlPathEqualTo("/v1/seats")));
    }
}
