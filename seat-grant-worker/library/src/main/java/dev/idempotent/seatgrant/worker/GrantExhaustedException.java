package dev.idempotent.seatgrant.worker;

import java.util.Objects;
import java.util.OptionalInt;

/**
 * Every failure was retryable but the worker ran out of room: all attempts were spent, or the event's
 * deadline left no time for the next one. The seat may or may not exist; redelivering the event is safe
 * because the next POST carries the same Idempotency-Key.
 */
public final class GrantExhaustedException extends GrantException {

    /** What ran out. */
    public enum Limit {
        /** maxAttempts POSTs were sent. */
        ATTEMPTS,
        /** The per-event deadline would pass before the next attempt could start. */
        DEADLINE
    }

    /** What ran out. */
    private final Limit limit;
    /** The classifier's reason for the last failure. */
    private final String lastReason;

    /**
     * Reports that retryable failures outlasted the attempts or the deadline.
     *
     * @param requestId  the event's requestId
     * @param attempts   POSTs sent
     * @param limit      what ran out
     * @param status     the last response's status, or empty when the last attempt got no response
     * @param lastReason the classifier's one-line reason for the last failure
     * @param lastCause  the last transport failure, or null when the last attempt got a response
     */
    public GrantExhaustedException(String requestId, int attempts, Limit limit, OptionalInt status,
            String lastReason, Throwable lastCause) {
        super("exhausted_retries:" + requestId + " after " + attempts + " attempt(s), "
                + (limit == Limit.ATTEMPTS ? "attempts spent" : "deadline reached") + "; last: "
                + describe(status) + " (" + lastReason + ")", requestId, attempts, status, lastCause);
        this.limit = Objects.requireNonNull(limit, "limit");
        this.lastReason = Objects.requireNonNull(lastReason, "lastReason");
    }

    /** {@return whether the attempts or the deadline ran out} */
    public Limit limit() {
        return limit;
    }

    /** {@return the classifier's one-line reason for the last retryable failure} */
    public String lastReason() {
        return lastReason;
    }
}
