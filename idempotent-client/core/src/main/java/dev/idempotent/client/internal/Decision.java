package dev.idempotent.client.internal;

import dev.idempotent.client.IdempotentResponse;
import java.time.Duration;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalInt;

/**
 * What one attempt came to, as the {@link Classifier} decides it: done, retry or give up, with the facts the policy
 * needs to act on it. Every decision carries its one-line reason.
 */
public sealed interface Decision {

    /** {@return why the classifier decided this; safe to log (no URL, no header value, no body)} */
    String reason();

    /**
     * The operation happened: now ({@code replayed} false) or earlier.
     *
     * @param answer   the answer that says so, already marked replayed or not
     * @param reason   why
     */
    record Done(IdempotentResponse answer, String reason) implements Decision {
        /**
         * Checks for nulls.
         *
         * @param answer the answer
         * @param reason why
         */
        public Done {
            Objects.requireNonNull(answer, "answer");
            Objects.requireNonNull(reason, "reason");
        }
    }

    /**
     * Another attempt may succeed and, thanks to the key, cannot do the operation twice.
     *
     * @param status     the status, or empty when no answer arrived
     * @param retryAfter the raw Retry-After header, when the server sent one
     * @param asked      the wait a caller's rule asked for, which wins over the header
     * @param reason     why
     * @param cause      the transport failure, when no answer arrived
     * @param answer     the answer, when one arrived
     */
    record Retry(OptionalInt status, Optional<String> retryAfter, Optional<Duration> asked, String reason,
            Optional<Throwable> cause, Optional<IdempotentResponse> answer) implements Decision {
        /**
         * Checks for nulls.
         *
         * @param status     the status, or empty
         * @param retryAfter the raw Retry-After header, or empty
         * @param asked      a rule's wait, or empty
         * @param reason     why
         * @param cause      the transport failure, or empty
         * @param answer     the answer, or empty
         */
        public Retry {
            Objects.requireNonNull(status, "status");
            Objects.requireNonNull(retryAfter, "retryAfter");
            Objects.requireNonNull(asked, "asked");
            Objects.requireNonNull(reason, "reason");
            Objects.requireNonNull(cause, "cause");
            Objects.requireNonNull(answer, "answer");
        }

        /**
         * A retry that keeps no answer.
         *
         * @param status     the status, or empty
         * @param retryAfter the raw Retry-After header, or empty
         * @param asked      a rule's wait, or empty
         * @param reason     why
         * @param cause      the transport failure, or empty
         */
        public Retry(OptionalInt status, Optional<String> retryAfter, Optional<Duration> asked, String reason,
                Optional<Throwable> cause) {
            this(status, retryAfter, asked, reason, cause, Optional.empty());
        }
    }

    /**
     * A resend cannot change the answer; stop now, without sleeping.
     *
     * @param status the refusing status
     * @param reason why
     * @param answer the refusing answer, when kept
     */
    record GiveUp(int status, String reason, Optional<IdempotentResponse> answer) implements Decision {
        /**
         * Checks for nulls.
         *
         * @param status the refusing status
         * @param reason why
         * @param answer the refusing answer, or empty
         */
        public GiveUp {
            Objects.requireNonNull(reason, "reason");
            Objects.requireNonNull(answer, "answer");
        }

        /**
         * A refusal that keeps no answer.
         *
         * @param status the refusing status
         * @param reason why
         */
        public GiveUp(int status, String reason) {
            this(status, reason, Optional.empty());
        }
    }
}
