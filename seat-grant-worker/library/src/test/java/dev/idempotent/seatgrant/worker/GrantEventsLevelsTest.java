package dev.idempotent.seatgrant.worker;

import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;
import static com.github.tomakehurst.wiremock.client.WireMock.post;
import static com.github.tomakehurst.wiremock.client.WireMock.postRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.urlPathEqualTo;
import static com.github.tomakehurst.wiremock.core.WireMockConfiguration.options;
import static com.github.tomakehurst.wiremock.stubbing.Scenario.STARTED;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.github.tomakehurst.wiremock.junit5.WireMockExtension;
import dev.idempotent.seatgrant.worker.internal.GrantEvents;
import dev.idempotent.seatgrant.worker.testing.CapturedEvents;
import dev.idempotent.seatgrant.worker.testing.CapturedEvents.Event;
import dev.idempotent.seatgrant.worker.testing.FakeTime;
import java.net.URI;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The level of every event, because operators alert on levels: a retry or a grant is routine (INFO), an
 * attempt that ends the event without a seat is a warning, and an event that ends without a seat (rejected,
 * exhausted, interrupted) is an ERROR. Also what the outcome event says about time and the interrupt.
 */
class GrantEventsLevelsTest {

    private static final String SEAT = "{\"id\":\"seat_7\",\"role\":\"member\"}";

    @RegisterExtension
    static final WireMockExtension wm = WireMockExtension.newInstance()
            .options(options().dynamicPort().bindAddress("127.0.0.1"))
            .build();

    private final FakeTime time = new FakeTime();
    private CapturedEvents captured;

    @BeforeEach
    void open() {
        captured = new CapturedEvents();
    }

    @AfterEach
    void close() {
        captured.close();
        Thread.interrupted();
    }

    private SeatGrantWorker worker(Sleeper sleeper) {
        return new SeatGrantWorker(SeatGrantConfig.builder(URI.create(wm.baseUrl())).maxAttempts(2).build(), sleeper, time);
    }

    /** "message outcome LEVEL" for each of the request's events, in order. */
    private List<String> levels(String requestId) {
        List<Event> events = captured.forRequest(requestId);
        events.forEach(e -> assertEquals(GrantEvents.LOGGER_NAME, e.logger()));
        return events.stream().map(e -> e.message() + " " + e.get("outcome") + " " + e.level()).toList();
    }

    private void failOnceThen(int status, String body, String replayed) {
        wm.stubFor(post(urlPathEqualTo("/v1/seats")).inScenario("s").whenScenarioStateIs(STARTED).willSetStateTo("up")
                .willReturn(aResponse().withStatus(503).withHeader("Retry-After", "1")));
        var answer = aResponse().withStatus(status).withBody(body);
        if (replayed != null) {
            answer = answer.withHeader("Idempotent-Replayed", replayed);
        }
        wm.stubFor(post(urlPathEqualTo("/v1/seats")).inScenario("s").whenScenarioStateIs("up").willReturn(answer));
    }

    @Test
    void aRetryThenAGrantIsAllInfo() {
        failOnceThen(201, SEAT, null);

        assertEquals(new GrantOutcome.Granted("seat_7", 2), worker(time).handle(new SeatRequested("req_g", "ws", "u")));

        assertEquals(List.of(
                "seat.grant.attempt retry INFO",
                "seat.grant.attempt granted INFO",
                "seat.grant.outcome granted INFO"), levels("req_g"));
    }

    @Test
    void aReplayIsAllInfo() {
        failOnceThen(409, SEAT, "true");

        assertEquals(new GrantOutcome.Replayed("seat_7", 2), worker(time).handle(new SeatRequested("req_r", "ws", "u")));

        assertEquals(List.of(
                "seat.grant.attempt retry INFO",
                "seat.grant.attempt replayed INFO",
                "seat.grant.outcome replayed INFO"), levels("req_r"));
    }

    @Test
    void aRejectionWarnsOnTheAttemptAndIsAnErrorOutcome() {
        wm.stubFor(post(urlPathEqualTo("/v1/seats")).willReturn(aResponse().withStatus(422)));

        assertThrows(GrantRejectedException.class, () -> worker(time).handle(new SeatRequested("req_x", "ws", "u")));

        assertEquals(List.of(
                "seat.grant.attempt rejected WARN",
                "seat.grant.outcome rejected ERROR"), levels("req_x"));
    }

    @Test
    void exhaustionWarnsOnTheLastAttemptAndIsAnErrorOutcome() {
        wm.stubFor(post(urlPathEqualTo("/v1/seats")).willReturn(aResponse().withStatus(503).withHeader("Retry-After", "1")));

        assertThrows(GrantExhaustedException.class, () -> worker(time).handle(new SeatRequested("req_e", "ws", "u")));

        assertEquals(List.of(
                "seat.grant.attempt retry INFO",
                "seat.grant.attempt exhausted WARN",
                "seat.grant.outcome exhausted ERROR"), levels("req_e"));
    }

    @Test
    void anInterruptedGrantEndsWithAnErrorOutcomeThatSaysInterrupted() {
        wm.stubFor(post(urlPathEqualTo("/v1/seats")).willReturn(aResponse().withStatus(503).withHeader("Retry-After", "1")));
        Sleeper shutdown = d -> {
            throw new InterruptedException("shutdown");
        };

        GrantInterruptedException e = assertThrows(GrantInterruptedException.class,
                () -> worker(shutdown).handle(new SeatRequested("req_i", "ws", "u")));

        assertTrue(Thread.interrupted(), "the interrupt flag is restored");
        assertEquals("req_i", e.requestId());
        assertEquals(1, e.attempts());
        assertTrue(e.status().isEmpty());
        assertEquals(List.of(
                "seat.grant.attempt retry INFO",
                "seat.grant.outcome interrupted ERROR"), levels("req_i"));
        Event outcome = captured.forRequest("req_i").get(1);
        assertEquals(1, outcome.get("attempt"));
        assertFalse(outcome.keyValues().containsKey("status"), "no answer ended the event: " + outcome);
        wm.verify(1, postRequestedFor(urlPathEqualTo("/v1/seats")));
    }

    @Test
    void theOutcomeReportsTheTimeTheEventTook() {
        // The fake clock only moves when the worker sleeps: one Retry-After of 1 s is all the time that passes.
        failOnceThen(201, SEAT, null);

        worker(time).handle(new SeatRequested("req_t", "ws", "u"));

        Event outcome = captured.forRequest("req_t").get(2);
        assertEquals(GrantEvents.OUTCOME, outcome.message());
        assertEquals(1000L, outcome.get("elapsedMs"));
    }
}
