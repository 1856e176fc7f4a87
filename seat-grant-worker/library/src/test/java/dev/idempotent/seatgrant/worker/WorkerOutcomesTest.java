package dev.idempotent.seatgrant.worker;

import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;
import static com.github.tomakehurst.wiremock.client.WireMock.post;
import static com.github.tomakehurst.wiremock.client.WireMock.postRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.urlPathEqualTo;
import static com.github.tomakehurst.wiremock.core.WireMockConfiguration.options;
import static com.github.tomakehurst.wiremock.stubbing.Scenario.STARTED;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.github.tomakehurst.wiremock.junit5.WireMockExtension;
import dev.idempotent.seatgrant.worker.testing.FakeTime;
import java.net.URI;
import java.time.Duration;
import java.util.List;
import java.util.OptionalInt;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * What the caller gets back when a grant does not end in a seat, and the edges of the retry loop: a zero
 * wait is still a retry, the last allowed attempt ends with "attempts spent", and a sleep that overran the
 * deadline ends the event without another POST.
 */
class WorkerOutcomesTest {

    private static final String SEAT = "{\"id\":\"seat_3\",\"role\":\"member\"}";

    @RegisterExtension
    static final WireMockExtension wm = WireMockExtension.newInstance()
            .options(options().dynamicPort().bindAddress("127.0.0.1"))
            .build();

    private final FakeTime time = new FakeTime();

    private SeatGrantConfig.Builder config() {
        return SeatGrantConfig.builder(URI.create(wm.baseUrl()));
    }

    @Test
    void theWorkerKeepsTheConfigItWasGiven() {
        SeatGrantConfig config = config().maxAttempts(2).build();
        assertSame(config, new SeatGrantWorker(config, time, time).config());
    }

    @Test
    void aRetryAfterOfZeroIsAnImmediateRetryNotAStop() {
        wm.stubFor(post(urlPathEqualTo("/v1/seats")).inScenario("s").whenScenarioStateIs(STARTED).willSetStateTo("up")
                .willReturn(aResponse().withStatus(503).withHeader("Retry-After", "0")));
        wm.stubFor(post(urlPathEqualTo("/v1/seats")).inScenario("s").whenScenarioStateIs("up")
                .willReturn(aResponse().withStatus(201).withBody(SEAT)));

        GrantOutcome outcome = new SeatGrantWorker(config().build(), time, time).handle(new SeatRequested("req_0", "ws", "u"));

        assertEquals(new GrantOutcome.Granted("seat_3", 2), outcome);
        assertEquals(List.of(Duration.ZERO), time.sleeps());
    }

    @Test
    void spendingTheLastAttemptSaysAttemptsAndNamesTheLastAnswer() {
        wm.stubFor(post(urlPathEqualTo("/v1/seats")).willReturn(aResponse().withStatus(503).withHeader("Retry-After", "1")));

        GrantExhaustedException e = assertThrows(GrantExhaustedException.class,
                () -> new SeatGrantWorker(config().maxAttempts(3).build(), time, time).handle(new SeatRequested("req_a", "ws", "u")));

        assertEquals("req_a", e.requestId());
        assertEquals(3, e.attempts());
        assertEquals(GrantExhaustedException.Limit.ATTEMPTS, e.limit());
        assertEquals(OptionalInt.of(503), e.status());
        assertTrue(e.lastReason().startsWith("503: "), e.lastReason());
        assertTrue(e.getMessage().contains("attempts spent"), e.getMessage());
        assertTrue(e.getMessage().contains("last: status 503"), e.getMessage());
        wm.verify(3, postRequestedFor(urlPathEqualTo("/v1/seats")));
    }

    @Test
    void aSleepThatOverranTheDeadlineEndsTheEventWithoutAnotherPost() {
        // Thread.sleep may oversleep on a loaded machine; this sleeper oversleeps past the whole 30 s budget.
        wm.stubFor(post(urlPathEqualTo("/v1/seats")).willReturn(aResponse().withStatus(503).withHeader("Retry-After", "0")));
        Sleeper oversleeps = d -> time.sleep(d.plusSeconds(31));

        GrantExhaustedException e = assertThrows(GrantExhaustedException.class,
                () -> new SeatGrantWorker(config().build(), oversleeps, time).handle(new SeatRequested("req_d", "ws", "u")));

        assertEquals(1, e.attempts(), "one POST was sent");
        assertEquals(GrantExhaustedException.Limit.DEADLINE, e.limit());
        assertTrue(e.getMessage().contains("deadline reached"), e.getMessage());
        assertEquals(OptionalInt.of(503), e.status(), "the last answer the event got");
        wm.verify(1, postRequestedFor(urlPathEqualTo("/v1/seats")));
    }

    @Test
    void aRejectionCarriesTheClassifiersReason() {
        wm.stubFor(post(urlPathEqualTo("/v1/seats")).willReturn(aResponse().withStatus(404)));

        GrantRejectedException e = assertThrows(GrantRejectedException.class,
                () -> new SeatGrantWorker(config().build(), time, time).handle(new SeatRequested("req_n", "ws", "u")));

        assertEquals("req_n", e.requestId());
        assertEquals(OptionalInt.of(404), e.status());
        assertTrue(e.reason().startsWith("404: "), e.reason());
        assertTrue(e.getMessage().contains(e.reason()), e.getMessage());
    }

    @Test
    void thePublicWorkerJittersItsComputedWaits() {
        assertJittered(new SeatGrantWorker(config().build(), time, time));
    }

    @Test
    void thePublicWorkerWithASchedulerJittersToo() {
        Scheduler immediate = d -> CompletableFuture.completedFuture(null);
        assertJittered(new SeatGrantWorker(config().build(), time, immediate, time));
    }

    private void assertJittered(SeatGrantWorker worker) {
        // Without a Retry-After the wait is a random draw in [0, ceiling]: four waits that are all 0 ms would
        // mean the draw is stuck at 0 (a chance of about 1e-11 for a real random).
        wm.stubFor(post(urlPathEqualTo("/v1/seats")).willReturn(aResponse().withStatus(503)));

        assertThrows(GrantExhaustedException.class, () -> worker.handle(new SeatRequested("req_j", "ws", "u")));

        List<Duration> sleeps = time.sleeps();
        assertEquals(4, sleeps.size());
        long[] ceilings = {100, 200, 400, 800};
        for (int i = 0; i < sleeps.size(); i++) {
            assertTrue(sleeps.get(i).toMillis() <= ceilings[i], "wait " + i + " within its ceiling: " + sleeps);
        }
        assertTrue(sleeps.stream().anyMatch(d -> !d.isZero()), "the waits are jittered, not all zero: " + sleeps);
    }
}
