package dev.idempotent.seatgrant.worker;

import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;
import static com.github.tomakehurst.wiremock.client.WireMock.post;
import static com.github.tomakehurst.wiremock.client.WireMock.postRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.urlEqualTo;
import static com.github.tomakehurst.wiremock.core.WireMockConfiguration.options;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import com.github.tomakehurst.wiremock.junit5.WireMockExtension;
import dev.idempotent.seatgrant.worker.GrantListener.Outcome;
import dev.idempotent.seatgrant.worker.GrantListener.OutcomeEvent;
import dev.idempotent.seatgrant.worker.internal.GrantEvents;
import dev.idempotent.seatgrant.worker.testing.Await;
import dev.idempotent.seatgrant.worker.testing.CapturedEvents;
import dev.idempotent.seatgrant.worker.testing.FakeTime;
import java.net.ConnectException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpTimeoutException;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * What {@code handleAsync} adds to the shared conformance scenarios: it holds no thread while a request or a wait
 * is pending, it completes exceptionally with the same exception types {@code handle} throws, and whoever completes
 * it first (cancel, {@code orTimeout}, complete, ...) stops the attempts and gets one outcome reported, saying how.
 */
class HandleAsyncTest {

    private static final String SEAT = "{\"id\":\"seat_1\",\"role\":\"member\"}";

    @RegisterExtension
    static final WireMockExtension wm = WireMockExtension.newInstance()
            .options(options().dynamicPort().bindAddress("127.0.0.1"))
            .build();

    private final SeatRequested event = new SeatRequested("req_1", "ws_1", "u_1");
    private final FakeTime time = new FakeTime();

    private SeatGrantConfig.Builder config() {
        return SeatGrantConfig.builder(URI.create(wm.baseUrl()));
    }

    @Test
    void returnsBeforeTheAnswerArrives() throws Exception {
        wm.stubFor(post("/v1/seats").willReturn(aResponse().withStatus(201).withBody(SEAT).withFixedDelay(1_500)));
        try (SeatGrantWorker w = new SeatGrantWorker(config().build(), time, time, time)) {
            CompletableFuture<GrantOutcome> f = w.handleAsync(event);
            assertFalse(f.isDone(), "the call returned while the server was still holding the answer");
            assertEquals(new GrantOutcome.Granted("seat_1", 1), f.get(30, TimeUnit.SECONDS));
        }
    }

    @Test
    void failuresAreTheSameExceptionTypesAsHandle() throws Exception {
        int closedPort;
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            closedPort = s.getLocalPort();
        }
        try (SeatGrantWorker w = new SeatGrantWorker(
                SeatGrantConfig.builder(URI.create("http://127.0.0.1:" + closedPort)).maxAttempts(3).build(),
                time, time, time)) {
            ExecutionException e = assertThrows(ExecutionException.class,
                    () -> w.handleAsync(event).get(30, TimeUnit.SECONDS));
            GrantExhaustedException exhausted = assertInstanceOf(GrantExhaustedException.class, e.getCause());
            assertEquals(3, exhausted.attempts());
            assertEquals(GrantExhaustedException.Limit.ATTEMPTS, exhausted.limit());
            assertInstanceOf(ConnectException.class, exhausted.getCause(), "the transport failure, unwrapped");
            assertEquals(2, time.sleeps().size(), "3 attempts = 2 waits, on the injected scheduler");
        }

        wm.stubFor(post("/v1/seats").willReturn(aResponse().withStatus(201).withBody(SEAT).withFixedDelay(2_000)));
        try (SeatGrantWorker w = new SeatGrantWorker(config().maxAttempts(1).requestTimeout(Duration.ofMillis(200))
                .build(), time, time, time)) {
            ExecutionException e = assertThrows(ExecutionException.class,
                    () -> w.handleAsync(event).get(30, TimeUnit.SECONDS));
            assertInstanceOf(HttpTimeoutException.class, e.getCause().getCause(), "a request timeout, as in handle");
        }

        wm.resetAll();
        wm.stubFor(post("/v1/seats").willReturn(aResponse().withStatus(422)));
        try (SeatGrantWorker w = new SeatGrantWorker(config().build(), time, time, time)) {
            ExecutionException e = assertThrows(ExecutionException.class,
                    () -> w.handleAsync(event).get(30, TimeUnit.SECONDS));
            GrantRejectedException rejected = assertInstanceOf(GrantRejectedException.class, e.getCause());
            assertEquals(1, rejected.attempts());
        }
    }

    /** The ways a caller can complete the future {@code handleAsync} returned, and the words each is reported by. */
    enum FromOutside {
        CANCEL("cancel", f -> f.cancel(false)),
        OR_TIMEOUT("timeout", f -> f.orTimeout(1, TimeUnit.MILLISECONDS)),
        COMPLETE_EXCEPTIONALLY("exception:java.lang.IllegalStateException",
                f -> f.completeExceptionally(new IllegalStateException("the consumer gave up"))),
        COMPLETE("completed", f -> f.complete(new GrantOutcome.Granted("seat_guess", 1))),
        COMPLETE_ON_TIMEOUT("completed", f -> f.completeOnTimeout(new GrantOutcome.Granted("seat_guess", 1), 1,
                TimeUnit.MILLISECONDS)),
        WRAPPED_TIMEOUT("timeout", f -> f.completeExceptionally(
                new java.util.concurrent.CompletionException(new java.util.concurrent.TimeoutException()))),
        OBTRUDE_VALUE("completed", f -> f.obtrudeValue(new GrantOutcome.Granted("seat_guess", 1))),
        OBTRUDE_EXCEPTION("exception:java.io.UncheckedIOException",
                f -> f.obtrudeException(new java.io.UncheckedIOException(new java.io.IOException("gave up"))));

        final String endedBy;
        final Consumer<CompletableFuture<GrantOutcome>> end;

        FromOutside(String endedBy, Consumer<CompletableFuture<GrantOutcome>> end) {
            this.endedBy = endedBy;
            this.end = end;
        }
    }

    @ParameterizedTest
    @EnumSource(FromOutside.class)
    void whateverCompletesTheFutureStopsTheGrantAndReportsExactlyOneCancelledOutcome(FromOutside how)
            throws Exception {
        wm.stubFor(post("/v1/seats").willReturn(aResponse().withStatus(503)));
        List<CompletableFuture<Void>> waits = new CopyOnWriteArrayList<>();
        Scheduler held = delay -> {
            CompletableFuture<Void> w = new CompletableFuture<>();
            waits.add(w);
            return w;
        };
        List<OutcomeEvent> outcomes = new CopyOnWriteArrayList<>();
        List<GrantListener.AttemptEvent> attempts = new CopyOnWriteArrayList<>();
        GrantListener listener = new GrantListener() {
            @Override
            public void onAttempt(GrantListener.AttemptEvent attempt) {
                attempts.add(attempt);
            }

            @Override
            public void onOutcome(OutcomeEvent outcome) {
                outcomes.add(outcome);
            }
        };
        try (CapturedEvents log = new CapturedEvents();
                SeatGrantWorker w = new SeatGrantWorker(config().listener(listener).build(), time, held, time)) {
            CompletableFuture<GrantOutcome> f = w.handleAsync(event);
            await(() -> waits.size() == 1, "the grant waits for its second attempt");
            CompletableFuture<Integer> seenOnCompletion = f.handle((outcome, failure) -> outcomes.size());

            how.end.accept(f);

            assertEquals(1, seenOnCompletion.get(30, TimeUnit.SECONDS),
                    "reported before the future completed, so whoever waits on it sees the outcome counted");
            assertTrue(waits.get(0).isCancelled(), "the pending wait was dropped, so no second attempt starts");
            waits.get(0).complete(null);
            assertEquals(List.of(new OutcomeEvent("req_1", 1, Outcome.CANCELLED, java.util.OptionalInt.of(503),
                    Optional.empty(), Duration.ZERO, Optional.of(how.endedBy))), outcomes);
            assertEquals(List.of(Outcome.RETRY), attempts.stream().map(GrantListener.AttemptEvent::outcome).toList());
            List<CapturedEvents.Event> logged = log.forRequest("req_1").stream()
                    .filter(e -> GrantEvents.OUTCOME.equals(e.message())).toList();
            assertEquals(1, logged.size(), "one outcome line");
            assertEquals("cancelled", logged.get(0).get("outcome"));
            assertEquals(how.endedBy, logged.get(0).get("endedBy"));
            assertEquals("WARN", logged.get(0).level());
            assertEquals(1, waits.size(), "no further wait was scheduled");
            assertEquals(1, w.retry().getMetrics().getNumberOfFailedCallsWithoutRetryAttempt(),
                    "resilience4j booked the call once");
        }
        wm.verify(1, postRequestedFor(urlEqualTo("/v1/seats")));
    }

    @Test
    void endingTheFutureSaysWhetherThisCallEndedIt() {
        wm.stubFor(post("/v1/seats").willReturn(aResponse().withStatus(503)));
        Scheduler never = delay -> new CompletableFuture<>();
        GrantOutcome guess = new GrantOutcome.Granted("seat_guess", 1);
        try (SeatGrantWorker w = new SeatGrantWorker(config().build(), time, never, time)) {
            CompletableFuture<GrantOutcome> completed = w.handleAsync(event);
            assertTrue(completed.complete(guess), "this call completed it");
            assertFalse(completed.complete(new GrantOutcome.Granted("seat_other", 1)));
            assertFalse(completed.completeExceptionally(new IllegalStateException("late")));
            assertFalse(completed.cancel(false));
            assertEquals(guess, Await.join(completed));

            CompletableFuture<GrantOutcome> failed = w.handleAsync(event);
            assertTrue(failed.completeExceptionally(new IllegalStateException("gave up")));
            assertFalse(failed.complete(guess));

            CompletableFuture<GrantOutcome> cancelled = w.handleAsync(event);
            assertTrue(cancelled.cancel(false));
            assertTrue(cancelled.isCancelled());
            assertFalse(cancelled.completeExceptionally(new IllegalStateException("late")));
        }
    }

    @Test
    void cancellingAfterTheOutcomeReportsNothingMore() {
        wm.stubFor(post("/v1/seats").willReturn(aResponse().withStatus(201).withBody(SEAT)));
        List<OutcomeEvent> outcomes = new CopyOnWriteArrayList<>();
        try (SeatGrantWorker w = new SeatGrantWorker(config().listener(new GrantListener() {
            @Override
            public void onOutcome(OutcomeEvent outcome) {
                outcomes.add(outcome);
            }
        }).build(), time, time, time)) {
            CompletableFuture<GrantOutcome> f = w.handleAsync(event);
            assertEquals(new GrantOutcome.Granted("seat_1", 1), Await.join(f));
            assertFalse(f.cancel(true));
        }
        assertEquals(List.of(Outcome.GRANTED), outcomes.stream().map(OutcomeEvent::outcome).toList());
    }

    private static void await(BooleanSupplier condition, String what) {
        long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > end) {
                fail("timed out waiting until " + what);
            }
            Thread.onSpinWait();
        }
    }
}
