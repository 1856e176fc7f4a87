package dev.idempotent.seatgrant.worker.internal;

import dev.idempotent.client.IdempotentListener;
import dev.idempotent.client.IdempotentRequestException;
import dev.idempotent.client.IdempotentResponse;
import dev.idempotent.client.RequestInterruptedException;
import dev.idempotent.client.RequestRejectedException;
import dev.idempotent.client.ResponseRule;
import dev.idempotent.client.RetriesExhaustedException;
import dev.idempotent.client.Verdict;
import dev.idempotent.seatgrant.worker.GrantException;
import dev.idempotent.seatgrant.worker.GrantExhaustedException;
import dev.idempotent.seatgrant.worker.GrantInterruptedException;
import dev.idempotent.seatgrant.worker.GrantListener;
import dev.idempotent.seatgrant.worker.GrantListener.Outcome;
import dev.idempotent.seatgrant.worker.GrantOutcome;
import dev.idempotent.seatgrant.worker.GrantRejectedException;
import java.util.Objects;
import java.util.Optional;

/**
 * What makes {@code idempotent-client} the seat worker: one rule ahead of the client's defaults, and the
 * translations from the client's answers, exceptions and events to the worker's. Thread-safe.
 */
public final class SeatProtocol {

    /** Where a seat body holds the seat's id. */
    public static final String SEAT_ID_POINTER = "/id";

    /**
     * A 2xx must name its seat: without an id (an unreadable body, a replayed answer without one) the seat may exist
     * but the worker cannot report it, so it resends under the same key, which can at worst replay it.
     */
    public static final ResponseRule SEAT_ID_REQUIRED = (answer, attempt) ->
            answer.status() >= 200 && answer.status() < 300 && answer.resourceId().isEmpty()
                    ? Optional.of(Verdict.retry(
                            "2xx with an unreadable body: the seat may exist; the key makes a resend safe"))
                    : Optional.empty();

    private SeatProtocol() {
    }

    /**
     * The worker's outcome for the client's answer.
     *
     * @param response an answer the client ended a call with; its resource id is present (the rule above sees to it)
     * @return granted or replayed
     */
    public static GrantOutcome outcome(IdempotentResponse response) {
        String seatId = response.resourceId().orElseThrow(
                () -> new IllegalStateException("a seat answer ended a call without a seat id"));
        return response.replayed()
                ? new GrantOutcome.Replayed(seatId, response.attempts())
                : new GrantOutcome.Granted(seatId, response.attempts());
    }

    /**
     * The worker's exception for the client's.
     *
     * @param e what the client threw
     * @return the same facts in the worker's exception family
     */
    public static GrantException translate(IdempotentRequestException e) {
        if (e instanceof RequestRejectedException r) {
            return new GrantRejectedException(r.key(), r.attempts(), r.status().orElseThrow(), r.reason());
        }
        if (e instanceof RetriesExhaustedException x) {
            return new GrantExhaustedException(x.key(), x.attempts(),
                    x.limit() == RetriesExhaustedException.Limit.ATTEMPTS
                            ? GrantExhaustedException.Limit.ATTEMPTS : GrantExhaustedException.Limit.DEADLINE,
                    x.status(), x.reason(), x.getCause());
        }
        RequestInterruptedException i = (RequestInterruptedException) e;
        return new GrantInterruptedException(i.key(), i.attempts(), (InterruptedException) i.getCause());
    }

    /**
     * A client listener that writes the worker's log events and tells the worker's listener, in the worker's words.
     *
     * @param events the worker's events
     * @return the listener to give the client
     */
    public static IdempotentListener listener(GrantEvents events) {
        Objects.requireNonNull(events, "events");
        return new IdempotentListener() {
            @Override
            public void onAttempt(AttemptEvent e) {
                events.attempt(new GrantListener.AttemptEvent(e.key(), e.attempt(), outcome(e.outcome()), e.status(),
                        e.resourceId(), e.delay(), e.reason(), e.error(), e.elapsed()));
            }

            @Override
            public void onOutcome(OutcomeEvent e) {
                events.outcome(new GrantListener.OutcomeEvent(e.key(), e.attempts(), outcome(e.outcome()), e.status(),
                        e.resourceId(), e.elapsed(), e.endedBy()));
            }
        };
    }

    private static Outcome outcome(IdempotentListener.Outcome o) {
        return o == IdempotentListener.Outcome.CREATED ? Outcome.GRANTED : Outcome.valueOf(o.name());
    }
}
