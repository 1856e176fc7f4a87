package dev.idempotent.client;

import java.time.Duration;
import java.util.Objects;
import java.util.Optional;

/**
 * What one answer means, as a {@link ResponseRule} or the client's own rules read it. Every verdict carries a
 * one-line reason, which the log events and exceptions repeat; keep it free of URLs, header values and bodies.
 */
public sealed interface Verdict {

    /** {@return why; safe to log} */
    String reason();

    /**
     * The operation happened earlier (another attempt, another delivery); this answer reports it. Ends the call
     * with {@link IdempotentResponse#replayed()} true.
     *
     * @param reason why
     * @return the verdict
     */
    static Verdict replay(String reason) {
        return new Replay(reason);
    }

    /**
     * This attempt made the operation happen. Ends the call.
     *
     * @param reason why
     * @return the verdict
     */
    static Verdict created(String reason) {
        return new Created(reason);
    }

    /**
     * Another attempt may succeed and, with the key, cannot do the operation twice: wait the usual backoff (the
     * answer's {@code Retry-After} wins), then resend.
     *
     * @param reason why
     * @return the verdict
     */
    static Verdict retry(String reason) {
        return new RetryAfter(Optional.empty(), reason);
    }

    /**
     * As {@link #retry(String)}, after {@code wait} (capped by the client's Retry-After cap, never past the
     * deadline).
     *
     * @param wait   how long the provider asked for
     * @param reason why
     * @return the verdict
     */
    static Verdict retryAfter(Duration wait, String reason) {
        return new RetryAfter(Optional.of(wait), reason);
    }

    /**
     * A resend cannot change the answer: stop now with {@link RequestRejectedException}.
     *
     * @param reason why
     * @return the verdict
     */
    static Verdict reject(String reason) {
        return new Reject(reason);
    }

    /**
     * The answer reports an earlier success.
     *
     * @param reason why
     */
    record Replay(String reason) implements Verdict {
        /**
         * Checks for null.
         *
         * @param reason why
         */
        public Replay {
            Objects.requireNonNull(reason, "reason");
        }
    }

    /**
     * This attempt succeeded.
     *
     * @param reason why
     */
    record Created(String reason) implements Verdict {
        /**
         * Checks for null.
         *
         * @param reason why
         */
        public Created {
            Objects.requireNonNull(reason, "reason");
        }
    }

    /**
     * Wait, then resend with the same key.
     *
     * @param after  the wait the provider asked for; empty for the usual backoff (the answer's Retry-After wins)
     * @param reason why
     */
    record RetryAfter(Optional<Duration> after, String reason) implements Verdict {
        /**
         * Checks for nulls and a negative wait.
         *
         * @param after  the wait asked for, or empty
         * @param reason why
         */
        public RetryAfter {
            Objects.requireNonNull(after, "after");
            Objects.requireNonNull(reason, "reason");
            if (after.isPresent() && after.get().isNegative()) {
                throw new IllegalArgumentException("after must not be negative");
            }
        }
    }

    /**
     * Stop now; a resend gets the same answer.
     *
     * @param reason why
     */
    record Reject(String reason) implements Verdict {
        /**
         * Checks for null.
         *
         * @param reason why
         */
        public Reject {
            Objects.requireNonNull(reason, "reason");
        }
    }
}
