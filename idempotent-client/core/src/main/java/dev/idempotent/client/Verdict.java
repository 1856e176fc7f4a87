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
     * As {@link #replay(String)}, naming the resource the earlier success created (GoCardless's 409 names it under
     * {@code links.conflicting_resource_id}): the call ends with {@link IdempotentResponse#replayed()} true and this
     * {@link IdempotentResponse#resourceId()}, whatever the client's resource id pointer reads.
     *
     * @param reason     why
     * @param resourceId the existing resource's id, such as {@code response.field("/error/links/conflicting_resource_id")}
     * @return the verdict
     * @throws IllegalArgumentException when {@code resourceId} is blank
     */
    static Verdict replay(String reason, String resourceId) {
        Objects.requireNonNull(resourceId, "resourceId");
        return new Replay(reason, Optional.of(resourceId));
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
     * @param reason     why
     * @param resourceId the resource it created, when the rule read it; empty to keep what the client's pointer reads
     */
    record Replay(String reason, Optional<String> resourceId) implements Verdict {
        /**
         * Checks for nulls and a blank id.
         *
         * @param reason     why
         * @param resourceId the resource's id, or empty
         */
        public Replay {
            Objects.requireNonNull(reason, "reason");
            Objects.requireNonNull(resourceId, "resourceId");
            if (resourceId.isPresent() && resourceId.get().isBlank()) {
                throw new IllegalArgumentException("resourceId must not be blank");
            }
        }

        /**
         * A replay that names no resource of its own.
         *
         * @param reason why
         */
        public Replay(String reason) {
            this(reason, Optional.empty());
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
