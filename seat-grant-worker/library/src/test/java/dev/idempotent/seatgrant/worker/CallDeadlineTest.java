package dev.idempotent.seatgrant.worker;

import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;
import static com.github.tomakehurst.wiremock.client.WireMock.post;
import static com.github.tomakehurst.wiremock.client.WireMock.postRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.urlEqualTo;
import static com.github.tomakehurst.wiremock.core.WireMockConfiguration.options;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;

import com.github.tomakehurst.wiremock.junit5.WireMockExtension;
import dev.idempotent.seatgrant.worker.GrantListener.Outcome;
import dev.idempotent.seatgrant.worker.GrantListener.OutcomeEvent;
import dev.idempotent.seatgrant.worker.testing.FakeTime;
import java.net.URI;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * {@code handle(event, deadline)} and {@code handleAsync(event, deadline)}: the earlier of the caller's deadline and
 * the configured call timeout wins, and running out of it is {@link GrantExhaustedException.Limit#DEADLINE}, the
 * same outcome through both entry points (never a cancellation). Every server answer is a 503 with
 * {@code Retry-After: 2}, so the attempts land at t = 0, 2, 4, ... on the fake clock.
 */
class CallDeadlineTest {

    @RegisterExtension
    static final WireMockExtension wm = WireMockExtension.newInstance()
            .options(options().dynamicPort().bindAddress("127.0.0.1"))
            .build();

    /** The two ways to give a call a deadline; both must end the same way. */
    enum EntryPoint {
        SYNC {
            @Override
            GrantOutcome call(SeatGrantWorker worker, SeatRequested event, Instant deadline) {
                return worker.handle(event, deadline);
            }
        },
        ASYNC {
            @Override
            GrantOutcome call(SeatGrantWorker worker, SeatRequested event, Instant deadline) throws Exception {
                try {
                    return worker.handleAsync(event, deadline).get(30, TimeUnit.SECONDS);
                } catch (ExecutionException e) {
                    throw (Exception) e.getCause();
                }
            }
        };

        abstract GrantOutcome call(SeatGrantWorker worker, SeatRequested event, Instant deadline) throws Exception;
    }

    private final SeatRequested event = new SeatRequested("req_1", "ws_1", "u_1");
    private final FakeTime time = new FakeTime();
    private final List<OutcomeEvent> outcomes = new CopyOnWriteArrayList<>();

    @BeforeEach
    void alwaysBusy() {
        wm.stubFor(post("/v1/seats").willReturn(aResponse().withStatus(503).withHeader("Retry-After", "2")));
    }

    private SeatGrantWorker worker(Duration callTimeout) {
        return new SeatGrantWorker(SeatGrantConfig.builder(URI.create(wm.baseUrl())).maxAttempts(10)
                .callTimeout(callTimeout).listener(new GrantListener() {
                    @Override
                    public void onOutcome(OutcomeEvent outcome) {
                        outcomes.add(outcome);
                    }
                }).build(), time, time, time);
    }

    private GrantExhaustedException exhausted(EntryPoint entry, SeatGrantWorker w, Instant deadline) {
        Exception e = assertThrows(Exception.class, () -> entry.call(w, event, deadline));
        return assertInstanceOf(GrantExhaustedException.class, e, "the deadline is the worker's own outcome");
    }

    @ParameterizedTest
    @EnumSource(EntryPoint.class)
    void anEarlierCallerDeadlineWins(EntryPoint entry) {
        try (SeatGrantWorker w = worker(Duration.ofSeconds(30))) {
            GrantExhaustedException e = exhausted(entry, w, time.instant().plusSeconds(3));
            // t=0 attempt 1, wait 2 s; t=2 attempt 2; a second wait would end at t=4, past t=3.
            assertEquals(GrantExhaustedException.Limit.DEADLINE, e.limit());
            assertEquals(2, e.attempts());
            assertEquals(OptionalInt.of(503), e.status());
            assertEquals(List.of(Duration.ofSeconds(2)), time.sleeps());
        }
        wm.verify(2, postRequestedFor(urlEqualTo("/v1/seats")));
        assertEquals(List.of(new OutcomeEvent("req_1", 2, Outcome.EXHAUSTED, OptionalInt.of(503), Optional.empty(),
                Duration.ofSeconds(2))), outcomes, "exhausted, not cancelled, and reported once");
    }

    @ParameterizedTest
    @EnumSource(EntryPoint.class)
    void anEarlierCallTimeoutWins(EntryPoint entry) {
        try (SeatGrantWorker w = worker(Duration.ofSeconds(5))) {
            GrantExhaustedException e = exhausted(entry, w, time.instant().plusSeconds(3600));
            // Attempts at t=0, 2, 4; a third wait would end at t=6, past the 5 s call timeout.
            assertEquals(GrantExhaustedException.Limit.DEADLINE, e.limit());
            assertEquals(3, e.attempts());
        }
        wm.verify(3, postRequestedFor(urlEqualTo("/v1/seats")));
    }

    @ParameterizedTest
    @EnumSource(EntryPoint.class)
    void aDeadlineAlreadyPastSendsNothing(EntryPoint entry) {
        try (SeatGrantWorker w = worker(Duration.ofSeconds(30))) {
            GrantExhaustedException e = exhausted(entry, w, time.instant());
            assertEquals(GrantExhaustedException.Limit.DEADLINE, e.limit());
            assertEquals(0, e.attempts());
            assertEquals(OptionalInt.empty(), e.status());
            assertEquals(List.of(), time.sleeps());
        }
        wm.verify(0, postRequestedFor(urlEqualTo("/v1/seats")));
        assertEquals(List.of(Outcome.EXHAUSTED), outcomes.stream().map(OutcomeEvent::outcome).toList());
    }

    @ParameterizedTest
    @EnumSource(EntryPoint.class)
    void aRequestInFlightAtTheDeadlineIsCutToIt(EntryPoint entry) {
        wm.stubFor(post("/v1/seats").willReturn(aResponse().withStatus(201)
                .withBody("{\"id\":\"seat_1\",\"role\":\"member\"}").withFixedDelay(2_000)));
        // The real clock: the request timeout the deadline leaves is enforced by the HTTP client in real time.
        java.time.Clock clock = java.time.Clock.systemUTC();
        try (SeatGrantWorker w = new SeatGrantWorker(SeatGrantConfig.builder(URI.create(wm.baseUrl())).build(),
                time, time, clock)) {
            GrantExhaustedException e = exhausted(entry, w, clock.instant().plusMillis(300));
            assertEquals(GrantExhaustedException.Limit.DEADLINE, e.limit());
            assertEquals(1, e.attempts(), "the one attempt timed out at the deadline; no time was left for another");
            assertInstanceOf(java.net.http.HttpTimeoutException.class, e.getCause());
        }
        wm.verify(1, postRequestedFor(urlEqualTo("/v1/seats")));
    }
}
