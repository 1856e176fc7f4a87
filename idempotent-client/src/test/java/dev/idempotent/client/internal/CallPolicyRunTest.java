package dev.idempotent.client.internal;

import static dev.idempotent.client.internal.Answers.json;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.idempotent.client.IdempotentListener;
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
    private final CallPolicy policy = policy(5);

    private CallPolicy policy(int maxAttempts) {
        return new CallPolicy(new CallPolicy.Limits("run-test", maxAttempts, Duration.ofMillis(100),
                Duration.ofSeconds(2), Duration.ofSeconds(10), Duration.ofSeconds(30), Duration.ofSeconds(5)),
                new Classifier(), new ClientEvents(new IdempotentListener() {
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
    void theLastAttemptEndsTheCallAsAttemptsSpent() {
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
}
