package dev.idempotent.seatgrant.worker;

import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;
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
import dev.idempotent.seatgrant.worker.GrantListener.AttemptEvent;
import dev.idempotent.seatgrant.worker.GrantListener.Outcome;
import dev.idempotent.seatgrant.worker.GrantListener.OutcomeEvent;
import dev.idempotent.seatgrant.worker.internal.GrantEvents;
import dev.idempotent.seatgrant.worker.testing.Await;
import dev.idempotent.seatgrant.worker.testing.CapturedEvents;
import dev.idempotent.seatgrant.worker.testing.FakeTime;
import java.net.URI;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Function;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** The listener hears what the log says, once per attempt and once per outcome, and can never change an outcome. */
class GrantListenerTest {

    private static final String SEAT = "{\"id\":\"seat_7\",\"role\":\"member\"}";

    @RegisterExtension
    static final WireMockExtension wm = WireMockExtension.newInstance()
            .options(options().dynamicPort().bindAddress("127.0.0.1"))
            .build();

    private final FakeTime time = new FakeTime();

    /** Records everything it hears. */
    static final class Recording implements GrantListener {
        final List<AttemptEvent> attempts = new CopyOnWriteArrayList<>();
        final List<OutcomeEvent> outcomes = new CopyOnWriteArrayList<>();

        @Override
        public void onAttempt(AttemptEvent attempt) {
            attempts.add(attempt);
        }

        @Override
        public void onOutcome(OutcomeEvent outcome) {
            outcomes.add(outcome);
        }
    }

    /** Throws from both methods, after recording that it was called. */
    static final class Throwing implements GrantListener {
        final Recording heard = new Recording();

        @Override
        public void onAttempt(AttemptEvent attempt) {
            heard.onAttempt(attempt);
            throw new IllegalStateException("metrics backend down: secret-detail");
        }

        @Override
        public void onOutcome(OutcomeEvent outcome) {
            heard.onOutcome(outcome);
            throw new IllegalStateException("metrics backend down: secret-detail");
        }
    }

    private SeatGrantWorker worker(GrantListener listener, int maxAttempts) {
        return new SeatGrantWorker(SeatGrantConfig.builder(URI.create(wm.baseUrl())).maxAttempts(maxAttempts)
                .listener(listener).build(), time, time, time);
    }

    private void retryThenGrant() {
        wm.stubFor(post("/v1/seats").inScenario("s").whenScenarioStateIs(STARTED).willSetStateTo("up")
                .willReturn(aResponse().withStatus(503).withHeader("Retry-After", "1")));
        wm.stubFor(post("/v1/seats").inScenario("s").whenScenarioStateIs("up")
                .willReturn(aResponse().withStatus(201).withBody(SEAT)));
    }

    @Test
    void oneCallPerAttemptAndOnePerOutcomeWithTheLoggedFacts() {
        retryThenGrant();
        Recording heard = new Recording();
        try (SeatGrantWorker w = worker(heard, 5)) {
            w.handle(new SeatRequested("req_l", "ws_1", "u_1"));
        }
        assertEquals(2, heard.attempts.size());
        AttemptEvent first = heard.attempts.get(0);
        assertEquals(new AttemptEvent("req_l", 1, Outcome.RETRY, OptionalInt.of(503), Optional.empty(),
                Optional.of(Duration.ofSeconds(1)), first.reason(), Optional.empty()), first);
        assertTrue(first.reason().startsWith("503"), first.reason());
        AttemptEvent second = heard.attempts.get(1);
        assertEquals(Outcome.GRANTED, second.outcome());
        assertEquals(2, second.attempt());
        assertEquals(Optional.of("seat_7"), second.seatId());

        assertEquals(List.of(new OutcomeEvent("req_l", 2, Outcome.GRANTED, OptionalInt.of(201), Optional.of("seat_7"),
                Duration.ofSeconds(1))), heard.outcomes, "elapsed is measured on the worker's clock");
    }

    @Test
    void eachAttemptSaysHowLongItTookWithoutTheWaitAfterIt() {
        retryThenGrant();
        Recording heard = new Recording();
        // The request takes time on the worker's clock: the customizer runs inside the attempt, as a slow token
        // service would, and moves the fake clock 250 ms on the first attempt and 400 ms on the second.
        List<Duration> slow = List.of(Duration.ofMillis(250), Duration.ofMillis(400));
        SeatGrantConfig config = SeatGrantConfig.builder(URI.create(wm.baseUrl())).listener(heard)
                .requestCustomizer((request, context) -> time.sleep(slow.get(context.attempt() - 1)))
                .build();
        try (CapturedEvents log = new CapturedEvents(); SeatGrantWorker w = new SeatGrantWorker(config, time, time, time)) {
            w.handle(new SeatRequested("req_e", "ws_1", "u_1"));

            assertEquals(List.of(250L, 400L), log.forRequest("req_e").stream()
                    .filter(e -> GrantEvents.ATTEMPT.equals(e.message()))
                    .map(e -> (Long) e.get("elapsedMs")).toList(), "elapsedMs in each attempt's log event");
        }
        assertEquals(slow, heard.attempts.stream().map(AttemptEvent::elapsed).toList(),
                "each attempt's own time; the 1 s Retry-After wait between them is in neither");
        assertEquals(Duration.ofMillis(250 + 1000 + 400), heard.outcomes.get(0).elapsed(), "the call's time has all three");
    }

    @Test
    void toStringNamesTheRequestTheAttemptAndTheOutcome() {
        retryThenGrant();
        Recording heard = new Recording();
        try (SeatGrantWorker w = worker(heard, 5)) {
            w.handle(new SeatRequested("req_str", "ws_1", "u_1"));
        }
        String attempt = heard.attempts.get(0).toString();
        assertTrue(attempt.contains("requestId=req_str") && attempt.contains("attempt=1")
                && attempt.contains("outcome=RETRY"), attempt);
        String outcome = heard.outcomes.get(0).toString();
        assertTrue(outcome.contains("requestId=req_str") && outcome.contains("attempts=2")
                && outcome.contains("outcome=GRANTED"), outcome);
    }

    @Test
    void aListenerThatThrowsChangesNoOutcomeSyncOrAsync() {
        retryThenGrant();
        Throwing throwing = new Throwing();
        try (CapturedEvents log = new CapturedEvents(); SeatGrantWorker w = worker(throwing, 5)) {
            assertEquals(new GrantOutcome.Granted("seat_7", 2), w.handle(new SeatRequested("req_t1", "ws_1", "u_1")));
            wm.resetScenarios();
            assertEquals(new GrantOutcome.Granted("seat_7", 2),
                    Await.join(w.handleAsync(new SeatRequested("req_t2", "ws_1", "u_1"))));

            wm.resetAll();
            wm.stubFor(post("/v1/seats").willReturn(aResponse().withStatus(403)));
            GrantRejectedException rejected = assertThrows(GrantRejectedException.class,
                    () -> w.handle(new SeatRequested("req_t3", "ws_1", "u_1")));
            assertEquals(1, rejected.attempts());
            CompletionException async = assertThrows(CompletionException.class,
                    () -> Await.join(w.handleAsync(new SeatRequested("req_t4", "ws_1", "u_1"))));
            assertInstanceOf(GrantRejectedException.class, async.getCause());

            List<CapturedEvents.Event> failures = log.all().stream()
                    .filter(e -> GrantEvents.LISTENER_FAILED.equals(e.message())).toList();
            // Two grants of two attempts and an outcome each, two rejections of one attempt and an outcome each.
            assertEquals(3 + 3 + 2 + 2, failures.size(), "every call that threw was reported");
            for (CapturedEvents.Event e : failures) {
                assertEquals("WARN", e.level());
                assertEquals(IllegalStateException.class.getName(), e.get("error"));
                assertTrue(!e.rendered().contains("secret-detail"), "the listener's message is never logged");
            }
        }
        assertEquals(List.of(Outcome.GRANTED, Outcome.GRANTED, Outcome.REJECTED, Outcome.REJECTED),
                throwing.heard.outcomes.stream().map(OutcomeEvent::outcome).toList());
    }

    @Test
    void exhaustionIsAnAttemptAndAnOutcome() {
        wm.stubFor(post("/v1/seats").willReturn(aResponse().withStatus(502)));
        Recording heard = new Recording();
        try (SeatGrantWorker w = worker(heard, 3)) {
            assertThrows(GrantExhaustedException.class, () -> w.handle(new SeatRequested("req_x", "ws_1", "u_1")));
        }
        assertEquals(List.of(Outcome.RETRY, Outcome.RETRY, Outcome.EXHAUSTED),
                heard.attempts.stream().map(AttemptEvent::outcome).toList());
        assertEquals(List.of(1, 2, 3), heard.attempts.stream().map(AttemptEvent::attempt).toList());
        OutcomeEvent end = heard.outcomes.get(0);
        assertEquals(Outcome.EXHAUSTED, end.outcome());
        assertEquals(3, end.attempts());
        assertEquals(OptionalInt.of(502), end.status());
        wm.verify(3, postRequestedFor(urlEqualTo("/v1/seats")));
    }

    @Test
    void recordsRefuseWhatCannotHappen() {
        Function<Integer, AttemptEvent> attempt = n -> new AttemptEvent("r", n, Outcome.RETRY, OptionalInt.empty(),
                Optional.empty(), Optional.empty(), "why", Optional.empty());
        assertThrows(IllegalArgumentException.class, () -> attempt.apply(0));
        assertEquals(1, attempt.apply(1).attempt());
        assertThrows(IllegalArgumentException.class, () -> new OutcomeEvent("r", 1, Outcome.RETRY,
                OptionalInt.empty(), Optional.empty(), Duration.ZERO));
        assertEquals(Duration.ZERO, attempt.apply(1).elapsed(), "the eight-argument form has no duration");
        assertThrows(IllegalArgumentException.class, () -> new AttemptEvent("r", 1, Outcome.RETRY, OptionalInt.empty(),
                Optional.empty(), Optional.empty(), "why", Optional.empty(), Duration.ofMillis(-1)));
        assertEquals(Optional.empty(), new OutcomeEvent("r", 1, Outcome.CANCELLED, OptionalInt.empty(),
                Optional.empty(), Duration.ZERO).endedBy(), "the six-argument form names nothing");
        assertThrows(IllegalArgumentException.class, () -> new OutcomeEvent("r", 1, Outcome.GRANTED,
                OptionalInt.empty(), Optional.of("s"), Duration.ZERO, Optional.of("cancel")),
                "only a cancellation is ended by someone");
        assertEquals("granted", Outcome.GRANTED.logName());
    }
}
