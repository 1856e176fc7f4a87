package dev.idempotent.seatgrant.worker.internal;

import java.util.Objects;
import java.util.Optional;
import java.util.OptionalInt;

/** What one attempt's answer means, as the {@link Classifier} reads it. Every verdict carries its one-line reason. */
public sealed interface Verdict {

    /** {@return why the classifier decided this; safe to log (no URL, no header value)} */
    String reason();

    /** The grant is done: the seat exists and its id is known. */
    sealed interface Done extends Verdict {
        /** {@return the seat that exists for this key} */
        String seatId();

        /** {@return the HTTP status that said so} */
        int status();
    }

    /**
     * The seat was created by this attempt.
     *
     * @param seatId the new seat
     * @param status the 2xx status
     * @param reason why
     */
    record Success(String seatId, int status, String reason) implements Done {
        /**
         * Checks for nulls.
         *
         * @param seatId the new seat
         * @param status the 2xx status
         * @param reason why
         */
        public Success {
            Objects.requireNonNull(seatId, "seatId");
            Objects.requireNonNull(reason, "reason");
        }
    }

    /**
     * The key was already completed; the server answered with the existing seat.
     *
     * @param seatId the existing seat
     * @param status 409 or a 2xx carrying the replay header
     * @param reason why
     */
    record Replay(String seatId, int status, String reason) implements Done {
        /**
         * Checks for nulls.
         *
         * @param seatId the existing seat
         * @param status 409 or a 2xx carrying the replay header
         * @param reason why
         */
        public Replay {
            Objects.requireNonNull(seatId, "seatId");
            Objects.requireNonNull(reason, "reason");
        }
    }

    /**
     * Another attempt may succeed and, thanks to the key, cannot create a second seat.
     *
     * @param status     the status, or empty when no answer arrived
     * @param retryAfter the raw Retry-After header, when the server sent one
     * @param reason     why
     * @param cause      the transport failure, when no answer arrived
     */
    record Retry(OptionalInt status, Optional<String> retryAfter, String reason, Optional<Throwable> cause)
            implements Verdict {
        /**
         * Checks for nulls.
         *
         * @param status     the status, or empty when no answer arrived
         * @param retryAfter the raw Retry-After header, when the server sent one
         * @param reason     why
         * @param cause      the transport failure, when no answer arrived
         */
        public Retry {
            Objects.requireNonNull(status, "status");
            Objects.requireNonNull(retryAfter, "retryAfter");
            Objects.requireNonNull(reason, "reason");
            Objects.requireNonNull(cause, "cause");
        }
    }

    /**
     * A resend cannot change the answer; stop now, without sleeping.
     *
     * @param status the refusing status
     * @param reason why
     */
    record GiveUp(int status, String reason) implements Verdict {
        /**
         * Checks for nulls.
         *
         * @param status the refusing status
         * @param reason why
         */
        public GiveUp {
            Objects.requireNonNull(reason, "reason");
        }
    }
}
