package dev.idempotent.seatgrant.worker;

import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;
import static com.github.tomakehurst.wiremock.client.WireMock.post;
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

/** What an operator's log pipeline receives: one event per attempt, one per outcome, and nothing secret. */
class GrantEventsTest {

    private static final String SEAT = "{\"id\":\"seat_9\",\"role\":\"member\"}";
    private static final String RETRY_AFTER_DATE = "Thu, 01 Jan 2026 00:00:01 GMT";

    @RegisterExtension
    static final WireMockExtension wm = WireMockExtension.newInstance()
            .options(options().dynamicPort().bindAddress("127.0.0.1"))
            .build();

    private CapturedEvents captured;
    private final FakeTime time = new FakeTime();

    @BeforeEach
    void open() {
        captured = new CapturedEvents();
    }

    @AfterEach
    void close() {
        captured.close();
    }

    private SeatGrantWorker worker() {
        return new SeatGrantWorker(SeatGrantConfig.defaults(URI.create(wm.baseUrl() + "/?token=t0ps3cret")), time, time);
    }

    @Test
    void retryThenGrantIsTwoAttemptEventsAndOneOutcome() {
        wm.stubFor(post(urlPathEqualTo("/v1/seats")).inScenario("s").whenScenarioStateIs(STARTED).willSetStateTo("up")
                .willReturn(aResponse().withStatus(503).withHeader("Retry-After", RETRY_AFTER_DATE)
                        .withHeader("X-Internal-Route", "shard-7b")));
        wm.stubFor(post(urlPathEqualTo("/v1/seats")).inScenario("s").whenScenarioStateIs("up")
                .willReturn(aResponse().withStatus(201).withBody(SEAT)));

        worker().handle(new SeatRequested("req_ev", "ws_1", "u_1"));

        List<Event> events = captured.forRequest("req_ev");
        assertEquals(3, events.size(), events.toString());
        Event first = events.get(0);
        assertEquals(GrantEvents.ATTEMPT, first.message());
        assertEquals(GrantEvents.LOGGER_NAME, first.logger());
        assertEquals(1, first.get("attempt"));
        assertEquals("retry", first.get("outcome"));
        assertEquals(503, first.get("status"));
        assertEquals(1000L, first.get("delayMs"), "the HTTP-date Retry-After, one second after the fake now");
        assertFalse(first.keyValues().containsKey("seatId"));

        Event second = events.get(1);
        assertEquals(GrantEvents.ATTEMPT, second.message());
        assertEquals(2, second.get("attempt"));
        assertEquals("granted", second.get("outcome"));
        assertEquals(201, second.get("status"));
        assertEquals("seat_9", second.get("seatId"));

        Event outcome = events.get(2);
        assertEquals(GrantEvents.OUTCOME, outcome.message());
        assertEquals(2, outcome.get("attempt"));
        assertEquals("granted", outcome.get("outcome"));
        assertEquals("seat_9", outcome.get("seatId"));
    }

    @Test
    void rejectedAndExhaustedOutcomesAreEventsToo() {
        wm.stubFor(post(urlPathEqualTo("/v1/seats")).willReturn(aResponse().withStatus(403)));
        assertThrows(GrantRejectedException.class, () -> worker().handle(new SeatRequested("req_403", "ws", "u")));
        List<Event> rejected = captured.forRequest("req_403");
        assertEquals(List.of("rejected", "rejected"), rejected.stream().map(e -> e.get("outcome")).toList());
        assertEquals(GrantEvents.OUTCOME, rejected.get(1).message());

        wm.stubFor(post(urlPathEqualTo("/v1/seats")).willReturn(aResponse().withStatus(502)));
        assertThrows(GrantExhaustedException.class, () -> worker().handle(new SeatRequested("req_502", "ws", "u")));
        List<Event> exhausted = captured.forRequest("req_502");
        assertEquals(List.of("retry", "retry", "retry", "retry", "exhausted", "exhausted"),
                exhausted.stream().map(e -> e.get("outcome")).toList());
        assertEquals(List.of(1, 2, 3, 4, 5, 5), exhausted.stream().map(e -> e.get("attempt")).toList());
    }

    @Test
    void noUrlNoHeaderValueNoBodyInAnyEvent() {
        wm.stubFor(post(urlPathEqualTo("/v1/seats")).inScenario("s").whenScenarioStateIs(STARTED).willSetStateTo("up")
                .willReturn(aResponse().withStatus(429).withHeader("Retry-After", RETRY_AFTER_DATE)
                        .withHeader("X-Internal-Route", "shard-7b").withBody("{\"detail\":\"quota for acct-42\"}")));
        wm.stubFor(post(urlPathEqualTo("/v1/seats")).inScenario("s").whenScenarioStateIs("up")
                .willReturn(aResponse().withStatus(201).withHeader("Set-Cookie", "sid=c00kie").withBody(SEAT)));
        worker().handle(new SeatRequested("req_leak", "ws_1", "u_1"));

        String port = String.valueOf(wm.getPort());
        List<Event> all = captured.all();
        assertTrue(all.size() >= 3);
        for (Event e : all) {
            String text = e.rendered();
            for (String forbidden : List.of("http:", "127.0.0.1", ":" + port, "/v1/seats", "t0ps3cret", "shard-7b",
                    RETRY_AFTER_DATE, "c00kie", "acct-42", "application/json")) {
                assertFalse(text.contains(forbidden), () -> "event leaks '" + forbidden + "': " + text);
            }
        }
    }
}
