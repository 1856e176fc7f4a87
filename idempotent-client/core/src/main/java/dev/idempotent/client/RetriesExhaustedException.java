package dev.idempotent.client;

import java.util.Objects;
import java.util.Optional;
import java.util.OptionalInt;

/**
 * Every failure was retryable, but the client ran out of room: {@code maxAttempts} were spent, the deadline left
 * no time for the next one, or the shared {@link RetryBudget} could not pay for it. The operation may or may not
 * have happened; sending the same request again later is safe, because it carries the same key.
 */
public final class RetriesExhaustedException extends IdempotentRequestException {

    /** What ran out. */
    public enum Limit {
        /** {@code maxAttempts} attempts were sent. */
        ATTEMPTS,
        /** The deadline (the call timeout or the caller's) would pass before the next attempt could start. */
        DEADLINE,
        /** The client's {@link RetryBudget} had too few tokens left to pay for the next attempt. */
        BUDGET
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
        this(key, attempts, limit, status, reason, lastCause, Optional.empty());
    }

    /**
     * Reports that retryable failures outlasted the attempts, the deadline or the budget, with the last answer.
     *
     * @param key       the call's key
     * @param attempts  attempts sent
     * @param limit     what ran out
     * @param status    the last answer's status, or empty when the last attempt got none
     * @param reason    the classifier's one-line reason for the last failure
     * @param lastCause the last transport failure, or null when the last attempt got an answer
     * @param response  the last answer, or empty when the last attempt got none
     */
    public RetriesExhaustedException(String key, int attempts, Limit limit, OptionalInt status, String reason,
            Throwable lastCause, Optional<IdempotentResponse> response) {
        super("retries exhausted for key " + key + " after " + attempts + " attempt(s), " + spent(limit) + "; last: "
                + describe(status) + " (" + reason + ")", key, attempts, status, reason, lastCause, response);
        this.limit = limit;
    }

    private static String spent(Limit limit) {
        switch (Objects.requireNonNull(limit, "limit")) {
            case ATTEMPTS:
                return "attempts spent";
            case DEADLINE:
                return "deadline reached";
            default:
                return "retry budget spent";
        }
    }

    /** {@return whether the attempts, the deadline or the retry budget ran out} */
    public Limit limit() {
        return limit;
    }
}
