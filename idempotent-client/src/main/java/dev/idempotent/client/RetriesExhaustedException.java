package dev.idempotent.client;

import java.util.Objects;
import java.util.OptionalInt;

/**
 * Every failure was retryable, but the client ran out of room: {@code maxAttempts} were spent, or the deadline left
 * no time for the next one. The operation may or may not have happened; sending the same request again later is
 * safe, because it carries the same key.
 */
public final class RetriesExhaustedException extends IdempotentRequestException {

    /** What ran out. */
    public enum Limit {
        /** {@code maxAttempts} attempts were sent. */
        ATTEMPTS,
        /** The deadline (the call timeout or the caller's) would pass before the next attempt could start. */
        DEADLINE
    }

    /** What ran out. */
    private final Limit limit;

    /**
     * Reports that retryable failures outlasted the attempts or the deadline.
     *
     * @param key       the call's key
     * @param attempts  attempts sent
     * @param limit     what ran out
     * @param status    the last answer's status, or empty when the last attempt got none
     * @param reason    the classifier's one-line reason for the last failure
     * @param lastCause the last transport failure, or null when the last attempt got an answer
     */
    public RetriesExhaustedException(String key, int attempts, Limit limit, OptionalInt status, String reason,
            Throwable lastCause) {
        super("retries exhausted for key " + key + " after " + attempts + " attempt(s), "
                + (limit == Limit.ATTEMPTS ? "attempts spent" : "deadline reached") + "; last: " + describe(status)
                + " (" + reason + ")", key, attempts, status, reason, lastCause);
        this.limit = Objects.requireNonNull(limit, "limit");
    }

    /** {@return whether the attempts or the deadline ran out} */
    public Limit limit() {
        return limit;
    }
}
