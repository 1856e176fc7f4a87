package dev.idempotent.seatgrant.worker.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.idempotent.seatgrant.worker.GrantListener;
import dev.idempotent.seatgrant.worker.GrantListener.Outcome;
import dev.idempotent.seatgrant.worker.GrantListener.OutcomeEvent;
import dev.idempotent.seatgrant.worker.SeatGrantConfig;
import dev.idempotent.seatgrant.worker.testing.FakeTime;
import java.net.URI;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;

/**
 * The bookkeeping of one call: how many attempts it made, whether its outcome is reported, and that a cancellation
 * (a cancelled future, a closed worker) is reported once, only when nothing else ended the call first, and names
 * the last answer the call got.
 */
class GrantPolicyRunTest {

    private final FakeTime time = new FakeTime();
    private final List<OutcomeEvent> outcomes = new CopyOnWriteArrayList<>();
    private final GrantPolicy policy = new GrantPolicy(SeatGrantConfig.builder(URI.create("http://127.0.0.1:9"))
            .maxAttempts(5).listener(new GrantListener() {
                @Override
                public void onOutcome(OutcomeEvent outcome) {
                    outcomes.add(outcome);
                }
            }).build(), time, () -> 0.5);

    private static Verdict unavailable() {
        return new Verdict.Retry(OptionalInt.of(503), Optional.of("1"), "503: temporarily unavailable",
                Optional.empty());
    }

    @Test
    void countsTheAttemptsItBegins() {
        GrantPolicy.Run run = policy.start("req_n", Optional.empty());
        assertEquals(0, run.attempts());
        run.begin();
        assertInstanceOf(GrantPolicy.Step.Wait.class, run.settle(unavailable()));
        run.begin();
        assertEquals(2, run.attempts());
        assertFalse(run.ended(), "a call waiting for its next attempt has not ended");
    }

    @Test
    void aCancelledCallIsReportedOnceWithNoStatusWhenNoAnswerArrived() {
        GrantPolicy.Run run = policy.start("req_c", Optional.empty());

        assertTrue(run.cancel(OutcomeEvent.CANCEL), "the first cancellation ends the call");
        assertTrue(run.ended());
        assertFalse(run.cancel(OutcomeEvent.CANCEL), "a second cancellation finds the call ended");

        assertEquals(List.of(new OutcomeEvent("req_c", 0, Outcome.CANCELLED, OptionalInt.empty(), Optional.empty(),
                Duration.ZERO, Optional.of("cancel"))), outcomes);
    }

    @Test
    void aCancelledCallNamesTheLastAnswerItGot() {
        GrantPolicy.Run run = policy.start("req_r", Optional.empty());
        run.begin();
        GrantPolicy.Step step = run.settle(unavailable());
        time.sleep(((GrantPolicy.Step.Wait) step).delay());

        assertTrue(run.cancel(OutcomeEvent.CANCEL));

        assertEquals(List.of(new OutcomeEvent("req_r", 1, Outcome.CANCELLED, OptionalInt.of(503), Optional.empty(),
                Duration.ofSeconds(1), Optional.of("cancel"))), outcomes);
    }

    @Test
    void aCancellationAfterTheGrantReportsNothing() {
        GrantPolicy.Run run = policy.start("req_g", Optional.empty());
        run.begin();
        assertInstanceOf(GrantPolicy.Step.Finished.class,
                run.settle(new Verdict.Success("seat_1", 201, "2xx with a seat")));
        assertTrue(run.ended(), "a granted call has reported its outcome");

        assertFalse(run.cancel(OutcomeEvent.CANCEL), "the grant ended the call first");
        run.failed(new IllegalStateException("too late"));

        assertEquals(List.of(Outcome.GRANTED), outcomes.stream().map(OutcomeEvent::outcome).toList());
    }

    @Test
    void aCancellationAfterARejectionReportsNothing() {
        GrantPolicy.Run run = policy.start("req_x", Optional.empty());
        run.begin();
        assertInstanceOf(GrantPolicy.Step.Failed.class, run.settle(new Verdict.GiveUp(422, "422: another payload")));

        assertFalse(run.cancel(OutcomeEvent.CANCEL));

        assertEquals(List.of(Outcome.REJECTED), outcomes.stream().map(OutcomeEvent::outcome).toList());
        assertEquals(1, policy.retry().getMetrics().getNumberOfFailedCallsWithoutRetryAttempt(),
                "resilience4j counted the rejection once, and nothing for the late cancellation");
    }
}
