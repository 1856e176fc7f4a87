package dev.idempotent.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.idempotent.client.IdempotentListener.Outcome;
import dev.idempotent.client.IdempotentListener.OutcomeEvent;
import dev.idempotent.client.testing.FakeTime;
import dev.idempotent.client.testing.ScriptedServer;
import dev.idempotent.client.testing.ScriptedServer.Answer;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Function;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.api.Test;

/**
 * {@code send} and {@code sendAsync} share one policy: each scenario runs both ways against a JDK HTTP server on
 * loopback. Then what only a future has: being completed from outside, and being cancelled by {@code close()}.
 */
class SyncAndAsyncTest {

    enum Mode {
        SYNC, ASYNC;

        IdempotentResponse send(IdempotentClient client, IdempotentRequest request) {
            if (this == SYNC) {
                return client.send(request);
            }
            try {
                return client.sendAsync(request).get(30, TimeUnit.SECONDS);
            } catch (ExecutionException e) {
                throw (RuntimeException) e.getCause();
            } catch (InterruptedException | TimeoutException e) {
                throw new AssertionError(e);
            }
        }
    }

    private final FakeTime time = new FakeTime();
    private final List<OutcomeEvent> outcomes = new CopyOnWriteArrayList<>();
    private final IdempotentListener listener = new IdempotentListener() {
        @Override
        public void onOutcome(OutcomeEvent outcome) {
            outcomes.add(outcome);
        }
    };

    private IdempotentClient client() {
        return IdempotentClient.builder().sleeper(time).scheduler(time).clock(time).jitter(() -> 0.5)
                .resourceIdPointer("/id").listener(listener).maxAttempts(3).build();
    }

    private static ScriptedServer server(Function<Integer, Answer> script) {
        return new ScriptedServer(script);
    }

    private static IdempotentRequest order(ScriptedServer s, String key) {
        return IdempotentRequest.post(s.uri("/orders"), key).json("{\"sku\":\"a\"}").build();
    }

    @ParameterizedTest
    @EnumSource(Mode.class)
    void aFailureThenAReplayEndsReplayedWithOneKey(Mode mode) {
        try (ScriptedServer s = server(n -> n == 1 ? new Answer(500, "") : new Answer(200, "{\"id\":\"o_1\"}",
                "Idempotent-Replayed", "true"));
                IdempotentClient c = client()) {
            IdempotentResponse r = mode.send(c, order(s, "k_1"));
            assertTrue(r.replayed());
            assertEquals(Optional.of("o_1"), r.resourceId());
            assertEquals(2, r.attempts());
            assertEquals(List.of("k_1", "k_1"), s.keys());
            assertEquals(List.of(Outcome.REPLAYED), outcomes.stream().map(OutcomeEvent::outcome).toList());
        }
    }

    @ParameterizedTest
    @EnumSource(Mode.class)
    void anOutageIsExhaustedAfterMaxAttempts(Mode mode) {
        try (ScriptedServer s = server(n -> new Answer(503, "", "Retry-After", "1"));
                IdempotentClient c = client()) {
            RetriesExhaustedException e = assertThrows(RetriesExhaustedException.class,
                    () -> mode.send(c, order(s, "k_2")));
            assertEquals(3, e.attempts());
            assertEquals(List.of(Duration.ofSeconds(1), Duration.ofSeconds(1)), time.sleeps());
            assertEquals(3, s.keys().size());
            assertEquals(1, c.retry().getMetrics().getNumberOfFailedCallsWithRetryAttempt());
        }
    }

    @ParameterizedTest
    @EnumSource(Mode.class)
    void aRejectionEndsAtOnce(Mode mode) {
        try (ScriptedServer s = server(n -> new Answer(400, "{}"));
                IdempotentClient c = client()) {
            RequestRejectedException e = assertThrows(RequestRejectedException.class,
                    () -> mode.send(c, order(s, "k_3")));
            assertEquals(1, e.attempts());
            assertEquals(List.of(Outcome.REJECTED), outcomes.stream().map(OutcomeEvent::outcome).toList());
        }
    }

    @Test
    void aDeadlineAlreadyPastSendsNothingEitherWay() throws Exception {
        try (ScriptedServer s = server(n -> new Answer(201, "{}"));
                IdempotentClient c = client()) {
            Instant past = time.instant().minusSeconds(1);
            RetriesExhaustedException sync = assertThrows(RetriesExhaustedException.class,
                    () -> c.send(order(s, "k_4"), past));
            assertEquals(RetriesExhaustedException.Limit.DEADLINE, sync.limit());
            ExecutionException async = assertThrows(ExecutionException.class,
                    () -> c.sendAsync(order(s, "k_4"), past).get(30, TimeUnit.SECONDS));
            RetriesExhaustedException e = assertInstanceOf(RetriesExhaustedException.class, async.getCause());
            assertEquals(0, e.attempts());
            assertEquals(List.of(), s.keys());
        }
    }

    @Test
    void aCancelledFutureReportsOneCancelledOutcomeAndStartsNoFurtherAttempt() throws Exception {
        try (ScriptedServer s = server(n -> new Answer(201, "{\"id\":\"o\"}")).holding();
                IdempotentClient c = client()) {
            CompletableFuture<IdempotentResponse> f = c.sendAsync(order(s, "k_5"));
            s.awaitArrival();

            assertTrue(f.cancel(true));

            assertThrows(CancellationException.class, () -> f.get(30, TimeUnit.SECONDS));
            assertEquals(List.of(new OutcomeEvent("k_5", 1, Outcome.CANCELLED, java.util.OptionalInt.empty(),
                    Optional.empty(), Duration.ZERO, Optional.of(OutcomeEvent.CANCEL))), outcomes);
            s.release();
            assertEquals(1, s.keys().size());
        }
    }

    @Test
    void orTimeoutEndsTheCallAsATimeout() throws Exception {
        try (ScriptedServer s = server(n -> new Answer(201, "{}")).holding();
                IdempotentClient c = client()) {
            CompletableFuture<IdempotentResponse> f = c.sendAsync(order(s, "k_6"));
            s.awaitArrival();
            f.completeExceptionally(new TimeoutException());
            assertEquals(List.of(Optional.of(OutcomeEvent.TIMEOUT)),
                    outcomes.stream().map(OutcomeEvent::endedBy).toList());
            f.completeExceptionally(new IllegalStateException("late"));
            assertEquals(1, outcomes.size(), "one outcome per call");
        }
    }

    @Test
    void closeCancelsWhatIsStillRunning() throws Exception {
        try (ScriptedServer s = server(n -> new Answer(201, "{}")).holding()) {
            IdempotentClient c = client();
            CompletableFuture<IdempotentResponse> f = c.sendAsync(order(s, "k_7"));
            s.awaitArrival();
            c.close();
            ExecutionException e = assertThrows(ExecutionException.class, () -> f.get(30, TimeUnit.SECONDS));
            assertInstanceOf(CancellationException.class,
                    assertInstanceOf(IllegalStateException.class, e.getCause()).getCause(), "the cause is the close");
            assertEquals(List.of(Optional.of(OutcomeEvent.CLOSE)), outcomes.stream().map(OutcomeEvent::endedBy).toList());
        }
    }

    @Test
    void aCallCompletedByAnotherIsReportedAsCompleted() throws Exception {
        try (ScriptedServer s = server(n -> new Answer(201, "{}")).holding();
                IdempotentClient c = client()) {
            CompletableFuture<IdempotentResponse> f = c.sendAsync(order(s, "k_8"));
            s.awaitArrival();
            f.complete(null);
            assertEquals(List.of(Optional.of(OutcomeEvent.COMPLETED)),
                    outcomes.stream().map(OutcomeEvent::endedBy).toList());
            f.obtrudeException(new IllegalStateException("x"));
            assertEquals(1, outcomes.size());
        }
    }

    @Test
    void theClientsOwnThreadsEndWithIt() throws Exception {
        try (ScriptedServer s = server(n -> n == 1 ? new Answer(503, "") : new Answer(201, "{\"id\":\"o\"}"))) {
            IdempotentClient c = IdempotentClient.builder().retryName("own-threads").baseDelay(Duration.ofMillis(1))
                    .resourceIdPointer("/id").build();
            assertEquals(Optional.of("o"), c.sendAsync(order(s, "k_9")).get(30, TimeUnit.SECONDS).resourceId());
            assertTrue(threads().stream().anyMatch(t -> t.startsWith("own-threads-") && t.contains("-http-")),
                    "its HTTP client runs on its own threads: " + threads());
            assertTrue(threads().stream().anyMatch(t -> t.startsWith("own-threads-") && t.contains("-timer-")),
                    "and waits on its own timer: " + threads());
            assertTrue(threads().stream().anyMatch(t -> t.startsWith("own-threads-") && t.endsWith("-watchdog")),
                    "and its attempts are watched by its own watchdog: " + threads());
            c.close();
            long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
            while (threads().stream().anyMatch(t -> t.startsWith("own-threads-")) && System.nanoTime() < until) {
                Thread.onSpinWait();
            }
            assertEquals(List.of(), threads().stream().filter(t -> t.startsWith("own-threads-")).toList());
        }
    }

    private static List<String> threads() {
        return Thread.getAllStackTraces().keySet().stream().filter(Thread::isAlive).map(Thread::getName).toList();
    }

    @Test
    void aTimeoutWrappedInACompletionExceptionIsStillATimeout() throws Exception {
        try (ScriptedServer s = server(n -> new Answer(201, "{}")).holding();
                IdempotentClient c = client()) {
            CompletableFuture<IdempotentResponse> f = c.sendAsync(order(s, "k_10"));
            s.awaitArrival();
            f.completeExceptionally(new java.util.concurrent.CompletionException(new TimeoutException()));
            assertEquals(List.of(Optional.of(OutcomeEvent.TIMEOUT)), outcomes.stream().map(OutcomeEvent::endedBy).toList());
        }
    }

    @Test
    void anotherExceptionIsNamedByItsClass() throws Exception {
        try (ScriptedServer s = server(n -> new Answer(201, "{}")).holding();
                IdempotentClient c = client()) {
            CompletableFuture<IdempotentResponse> f = c.sendAsync(order(s, "k_11"));
            s.awaitArrival();
            f.completeExceptionally(new java.util.concurrent.CompletionException(null));
            assertEquals(List.of(Optional.of("exception:java.util.concurrent.CompletionException")),
                    outcomes.stream().map(OutcomeEvent::endedBy).toList());
        }
    }

    @Test
    void obtrudingAValueEndsTheCallAsCompleted() throws Exception {
        try (ScriptedServer s = server(n -> new Answer(201, "{}")).holding();
                IdempotentClient c = client()) {
            CompletableFuture<IdempotentResponse> f = c.sendAsync(order(s, "k_12"));
            s.awaitArrival();
            f.obtrudeValue(null);
            assertTrue(f.isDone());
            assertEquals(List.of(Optional.of(OutcomeEvent.COMPLETED)),
                    outcomes.stream().map(OutcomeEvent::endedBy).toList());
        }
    }

    @Test
    void aCustomizerFailureEndsTheFutureWithItsExceptionAndSendsNothing() throws Exception {
        try (ScriptedServer s = server(n -> new Answer(201, "{}"));
                IdempotentClient c = IdempotentClient.builder().sleeper(time).scheduler(time).clock(time)
                        .listener(listener).requestCustomizer((b, key, attempt) -> {
                            throw new IllegalStateException("token store down");
                        }).build()) {
            ExecutionException e = assertThrows(ExecutionException.class,
                    () -> c.sendAsync(order(s, "k_13")).get(30, TimeUnit.SECONDS));
            assertEquals("token store down", e.getCause().getMessage());
            assertEquals(List.of(Outcome.FAILED), outcomes.stream().map(OutcomeEvent::outcome).toList());
            assertEquals(List.of(), s.keys());
        }
    }

    @Test
    void aSchedulerThatCannotWaitEndsTheFutureWithItsException() throws Exception {
        try (ScriptedServer s = server(n -> new Answer(503, ""));
                IdempotentClient c = IdempotentClient.builder().clock(time).listener(listener)
                        .scheduler(d -> CompletableFuture.failedFuture(new IllegalStateException("no timer")))
                        .build()) {
            ExecutionException e = assertThrows(ExecutionException.class,
                    () -> c.sendAsync(order(s, "k_14")).get(30, TimeUnit.SECONDS));
            assertEquals("no timer", e.getCause().getMessage());
            assertEquals(List.of(Outcome.FAILED), outcomes.stream().map(OutcomeEvent::outcome).toList());
            assertEquals(java.util.OptionalInt.of(503), outcomes.get(0).status());
            assertEquals(1, s.keys().size());
        }
    }

    @Test
    void endingTheFutureSaysWhetherThisCallEndedIt() throws Exception {
        try (ScriptedServer s = server(n -> new Answer(201, "{}")).holding();
                IdempotentClient c = client()) {
            CompletableFuture<IdempotentResponse> cancelled = c.sendAsync(order(s, "k_15"));
            s.awaitArrival();
            assertTrue(cancelled.cancel(false), "the first to end it");
            assertTrue(!cancelled.complete(null), "already ended");
            assertTrue(!cancelled.completeExceptionally(new IllegalStateException()), "already ended");
            assertEquals(1, outcomes.size());

            CompletableFuture<IdempotentResponse> completed = c.sendAsync(order(s, "k_16"));
            assertTrue(completed.complete(null), "the first to end it");
            CompletableFuture<IdempotentResponse> failed = c.sendAsync(order(s, "k_17"));
            assertTrue(failed.completeExceptionally(new IllegalStateException("x")), "the first to end it");
            assertTrue(!failed.cancel(false), "already ended");
            assertEquals(3, outcomes.size(), "one outcome per call");
        }
    }

    @Test
    void obtrudingAnExceptionEndsTheCallAndTheFutureHoldsIt() throws Exception {
        try (ScriptedServer s = server(n -> new Answer(201, "{}")).holding();
                IdempotentClient c = client()) {
            CompletableFuture<IdempotentResponse> f = c.sendAsync(order(s, "k_18"));
            s.awaitArrival();
            f.obtrudeException(new IllegalStateException("forced"));
            ExecutionException e = assertThrows(ExecutionException.class, () -> f.get(30, TimeUnit.SECONDS));
            assertEquals("forced", e.getCause().getMessage());
            assertEquals(List.of(Optional.of("exception:java.lang.IllegalStateException")),
                    outcomes.stream().map(OutcomeEvent::endedBy).toList());
        }
    }
}
