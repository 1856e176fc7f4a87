package dev.idempotent.client.internal;

import static dev.idempotent.client.internal.Answers.json;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.idempotent.client.IdempotentListener;
import dev.idempotent.client.IdempotentListener.AttemptEvent;
import dev.idempotent.client.RequestInterruptedException;
import dev.idempotent.client.RequestRejectedException;
import dev.idempotent.client.IdempotentListener.Outcome;
import dev.idempotent.client.IdempotentListener.OutcomeEvent;
import dev.idempotent.client.RetriesExhaustedException;
import dev.idempotent.client.testing.FakeTime;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;

/**
 * The bookkeeping of one call: how many attempts it made, whether its outcome is reported, and that a cancellation
 * (a cancelled future, a closed client) is reported once, only when nothing else ended the call first, and names
 * the last answer the call got. No socket: the policy is handed decisions.
 */
class CallPolicyRunTest {

    private final FakeTime time = new FakeTime();
    private final List<OutcomeEvent> outcomes = new CopyOnWriteArrayList<>();
    private final List<AttemptEvent> attempts = new CopyOnWriteArrayList<>();
    private final CallPolicy policy = policy(5);

    private CallPolicy policy(int maxAttempts) {
        return new CallPolicy(new CallPolicy.Limits("run-test", maxAttempts, Duration.ofMillis(100),
                Duration.ofSeconds(2), Duration.ofSeconds(10), Duration.ofSeconds(30), Duration.ofSeconds(5)),
                new ClientEvents(new IdempotentListener() {
                    @Override
                    public void onAttempt(AttemptEvent attempt) {
                        attempts.add(attempt);
                    }

                    @Override
                    public void onOutcome(OutcomeEvent outcome) {
                        outcomes.add(outcome);
                    }
                }, false), time, () -> 0.5);
    }

    private static Decision unavailable() {
        return new Decision.Retry(OptionalInt.of(503), Optional.of("1"), Optional.empty(),
                "503: temporarily unavailable", Optional.empty());
    }

    private static Decision created() {
        return new Classifier().classify(json(201, "{}"), 1);
    }

    @Test
    void countsTheAttemptsItBegins() {
        CallPolicy.Run run = policy.start("k_n", Optional.empty());
        assertEquals(0, run.attempts());
        run.begin();
        assertInstanceOf(CallPolicy.Step.Wait.class, run.settle(unavailable()));
        run.begin();
        assertEquals(2, run.attempts());
        assertFalse(run.ended(), "a call waiting for its next attempt has not ended");
    }

    @Test
    void theRetryIsNamedAsTheClientSays() {
        assertEquals("run-test", policy.retry().getName());
    }

    @Test
    void theServersRetryAfterIsTheWaitAndARulesWaitBeatsIt() {
        CallPolicy.Run run = policy.start("k_w", Optional.empty());
        run.begin();
        assertEquals(new CallPolicy.Step.Wait(Duration.ofSeconds(1)), run.settle(unavailable()));
        run.begin();
        Decision asked = new Decision.Retry(OptionalInt.of(202), Optional.of("1"), Optional.of(Duration.ofMillis(250)),
                "rule", Optional.empty());
        assertEquals(new CallPolicy.Step.Wait(Duration.ofMillis(250)), run.settle(asked));
    }

    @Test
    void theAttemptTimeoutIsCutToTheTimeLeft() {
        CallPolicy.Run run = policy.start("k_t", Optional.of(time.instant().plusSeconds(2)));
        assertEquals(Optional.of(Duration.ofSeconds(2)), run.begin());
        CallPolicy.Run roomy = policy.start("k_r", Optional.empty());
        assertEquals(Optional.of(Duration.ofSeconds(5)), roomy.begin());
    }

    @Test
    void aDeadlineAlreadyPastSendsNothingAndSaysDeadline() {
        CallPolicy.Run run = policy.start("k_p", Optional.of(Instant.EPOCH));
        assertEquals(Optional.empty(), run.begin());
        RetriesExhaustedException e = run.outOfTime();
        assertEquals(RetriesExhaustedException.Limit.DEADLINE, e.limit());
        assertEquals(0, e.attempts());
        assertEquals(OptionalInt.empty(), e.status());
    }

    @Test
    void theLastAttemptEndsTheCallOnTheAttemptsLimit() {
        CallPolicy two = policy(2);
        CallPolicy.Run run = two.start("k_a", Optional.empty());
        run.begin();
        run.settle(unavailable());
        run.begin();
        CallPolicy.Step.Failed f = assertInstanceOf(CallPolicy.Step.Failed.class, run.settle(unavailable()));
        RetriesExhaustedException e = assertInstanceOf(RetriesExhaustedException.class, f.failure());
        assertEquals(RetriesExhaustedException.Limit.ATTEMPTS, e.limit());
        assertEquals(2, e.attempts());
        assertEquals(OptionalInt.of(503), e.status());
        assertEquals(1, two.retry().getMetrics().getNumberOfFailedCallsWithRetryAttempt());
    }

    @Test
    void aCancelledCallIsReportedOnceWithNoStatusWhenNoAnswerArrived() {
        CallPolicy.Run run = policy.start("k_c", Optional.empty());

        assertTrue(run.cancel(OutcomeEvent.CANCEL), "the first cancellation ends the call");
        assertTrue(run.ended());
        assertFalse(run.cancel(OutcomeEvent.CANCEL), "a second cancellation finds the call ended");

        assertEquals(List.of(new OutcomeEvent("k_c", 0, Outcome.CANCELLED, OptionalInt.empty(), Optional.empty(),
                Duration.ZERO, Optional.of("cancel"))), outcomes);
    }

    @Test
    void aCancelledCallNamesTheLastAnswerItGot() {
        CallPolicy.Run run = policy.start("k_r", Optional.empty());
        run.begin();
        CallPolicy.Step step = run.settle(unavailable());
        time.sleep(((CallPolicy.Step.Wait) step).delay());

        assertTrue(run.cancel(OutcomeEvent.CANCEL));

        assertEquals(List.of(new OutcomeEvent("k_r", 1, Outcome.CANCELLED, OptionalInt.of(503), Optional.empty(),
                Duration.ofSeconds(1), Optional.of("cancel"))), outcomes);
    }

    @Test
    void aCancellationAfterTheAnswerReportsNothing() {
        CallPolicy.Run run = policy.start("k_g", Optional.empty());
        run.begin();
        assertInstanceOf(CallPolicy.Step.Finished.class, run.settle(created()));
        assertTrue(run.ended(), "a created call has reported its outcome");

        assertFalse(run.cancel(OutcomeEvent.CANCEL), "the answer ended the call first");
        run.failed(new IllegalStateException("too late"));

        assertEquals(List.of(Outcome.CREATED), outcomes.stream().map(OutcomeEvent::outcome).toList());
    }

    @Test
    void aCancellationAfterARejectionReportsNothing() {
        CallPolicy.Run run = policy.start("k_x", Optional.empty());
        run.begin();
        assertInstanceOf(CallPolicy.Step.Failed.class, run.settle(new Decision.GiveUp(422, "422: another body")));

        assertFalse(run.cancel(OutcomeEvent.CANCEL));

        assertEquals(List.of(Outcome.REJECTED), outcomes.stream().map(OutcomeEvent::outcome).toList());
        assertEquals(1, policy.retry().getMetrics().getNumberOfFailedCallsWithoutRetryAttempt(),
                "resilience4j counted the rejection once, and nothing for the late cancellation");
    }

    private List<Outcome> attemptOutcomes() {
        return attempts.stream().map(AttemptEvent::outcome).toList();
    }

    @Test
    void eachAttemptIsReportedWithItsOwnDurationAndTheOutcomeOnce() {
        CallPolicy.Run run = policy.start("k_e", Optional.empty());
        run.begin();
        time.sleep(Duration.ofMillis(700));
        CallPolicy.Step.Wait w = assertInstanceOf(CallPolicy.Step.Wait.class,
                run.settle(new Classifier().classify(new java.io.EOFException("gone"))));
        time.sleep(w.delay());
        run.begin();
        time.sleep(Duration.ofMillis(300));
        run.settle(created());

        assertEquals(List.of(Outcome.RETRY, Outcome.CREATED), attemptOutcomes());
        assertEquals(Duration.ofMillis(700), attempts.get(0).elapsed(), "the attempt, not the wait");
        assertEquals(Optional.of("java.io.EOFException"), attempts.get(0).error());
        assertEquals(Optional.of(w.delay()), attempts.get(0).delay());
        assertEquals(Duration.ofMillis(300), attempts.get(1).elapsed());
        assertEquals(List.of(new OutcomeEvent("k_e", 2, Outcome.CREATED, OptionalInt.of(201), Optional.empty(),
                Duration.ofMillis(1000).plus(w.delay()), Optional.empty())), outcomes);
    }

    @Test
    void aRejectionIsOneRejectedAttemptAndOneRejectedOutcome() {
        CallPolicy.Run run = policy.start("k_j", Optional.empty());
        run.begin();
        RequestRejectedException e = assertInstanceOf(RequestRejectedException.class, assertInstanceOf(
                CallPolicy.Step.Failed.class, run.settle(new Decision.GiveUp(400, "400: malformed"))).failure());
        assertEquals("400: malformed", e.reason());
        assertEquals(List.of(Outcome.REJECTED), attemptOutcomes());
        assertEquals(List.of(Outcome.REJECTED), outcomes.stream().map(OutcomeEvent::outcome).toList());
        assertEquals(OptionalInt.of(400), outcomes.get(0).status());
    }

    @Test
    void runningOutOfAttemptsOrTimeIsOneExhaustedAttemptAndOutcome() {
        CallPolicy two = policy(2);
        CallPolicy.Run run = two.start("k_x1", Optional.empty());
        run.begin();
        run.settle(unavailable());
        run.begin();
        run.settle(unavailable());
        assertEquals(List.of(Outcome.RETRY, Outcome.EXHAUSTED), attemptOutcomes());
        assertEquals(List.of(Outcome.EXHAUSTED), outcomes.stream().map(OutcomeEvent::outcome).toList());

        attempts.clear();
        outcomes.clear();
        CallPolicy.Run late = policy.start("k_x2", Optional.of(time.instant().plusMillis(500)));
        late.begin();
        RetriesExhaustedException e = assertInstanceOf(RetriesExhaustedException.class, assertInstanceOf(
                CallPolicy.Step.Failed.class, late.settle(unavailable())).failure());
        assertEquals(RetriesExhaustedException.Limit.DEADLINE, e.limit(), "Retry-After: 1 would pass the deadline");
        assertEquals(List.of(Outcome.EXHAUSTED), attemptOutcomes());
        assertEquals(List.of(Outcome.EXHAUSTED), outcomes.stream().map(OutcomeEvent::outcome).toList());
        assertEquals(1, policy.retry().getMetrics().getNumberOfFailedCallsWithoutRetryAttempt());
    }

    @Test
    void aDeadlinePassedBeforeAnAttemptIsReportedAsExhausted() {
        CallPolicy.Run run = policy.start("k_o", Optional.of(time.instant()));
        run.outOfTime();
        assertEquals(List.of(Outcome.EXHAUSTED), outcomes.stream().map(OutcomeEvent::outcome).toList());
        assertTrue(run.ended());
    }

    @Test
    void aCallersFailureIsReportedOnceAsFailedWithTheLastStatus() {
        CallPolicy.Run run = policy.start("k_f", Optional.empty());
        run.begin();
        run.settle(unavailable());
        run.failed(new IllegalStateException("customizer"));
        run.failed(new IllegalStateException("again"));
        assertEquals(List.of(Outcome.FAILED), outcomes.stream().map(OutcomeEvent::outcome).toList());
        assertEquals(OptionalInt.of(503), outcomes.get(0).status());
    }

    @Test
    void anInterruptRestoresTheFlagAndIsReportedOnce() {
        CallPolicy.Run run = policy.start("k_i", Optional.empty());
        run.begin();
        run.settle(unavailable());
        RequestInterruptedException e = run.interrupted(new InterruptedException());
        assertTrue(Thread.interrupted(), "the flag is restored (and cleared here)");
        assertEquals(1, e.attempts());
        assertEquals(OptionalInt.of(503), e.status());
        assertInstanceOf(InterruptedException.class, e.getCause());
        assertEquals(List.of(Outcome.INTERRUPTED), outcomes.stream().map(OutcomeEvent::outcome).toList());
    }
}
