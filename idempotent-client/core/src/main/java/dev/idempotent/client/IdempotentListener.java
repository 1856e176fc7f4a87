package dev.idempotent.client;

import java.time.Duration;
import java.util.Locale;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalInt;

/**
 * A hook for metrics and tracing: told about every attempt and every outcome, as immutable records. Both methods
 * default to doing nothing. The client calls it on the thread that runs the call, after the matching log event; one
 * listener serves every call, so it must be thread-safe. A listener that throws never changes a call's result: the
 * client logs the failure's class name at WARN and carries on.
 */
public interface IdempotentListener {

    /** The listener that ignores everything: the default. */
    IdempotentListener NONE = new IdempotentListener() {
    };

    /**
     * Called once per attempt, after its answer (or its failure) has been classified.
     *
     * @param attempt what the attempt got and what the client does next because of it
     */
    default void onAttempt(AttemptEvent attempt) {
    }

    /**
     * Called once per call, when it ends, whichever way it ends.
     *
     * @param outcome how the call ended
     */
    default void onOutcome(OutcomeEvent outcome) {
    }

    /** What an attempt or a call came to; the log events use the same words in lower case. */
    enum Outcome {
        /** This call's attempt made the operation happen. */
        CREATED,
        /** The operation had happened already; the server replayed it. */
        REPLAYED,
        /** A retryable failure; another attempt follows after {@link AttemptEvent#delay()} (attempts only). */
        RETRY,
        /** A refusal no resend can change; {@link RequestRejectedException}. */
        REJECTED,
        /** Attempts, time or the retry budget ran out; {@link RetriesExhaustedException}. */
        EXHAUSTED,
        /** The calling thread was interrupted; {@link RequestInterruptedException} (outcomes only). */
        INTERRUPTED,
        /**
         * Stopped from outside: the {@code sendAsync} future was completed by someone else, or the client was
         * closed (outcomes only); {@link OutcomeEvent#endedBy()} says which.
         */
        CANCELLED,
        /** The caller's own code (a customizer, a rule) threw; that exception is what the call ends with. */
        FAILED;

        private final String logName = name().toLowerCase(Locale.ROOT);

        /** {@return the lower-case name the log events use, for example {@code created}} */
        public String logName() {
            return logName;
        }
    }

    /**
     * One attempt and what the client made of it.
     *
     * @param key        the call's key
     * @param attempt    which attempt, from 1
     * @param outcome    {@code CREATED}, {@code REPLAYED}, {@code RETRY}, {@code REJECTED} or {@code EXHAUSTED}
     * @param status     the HTTP status, or empty when no answer arrived
     * @param resourceId the resource id the answer named, when known
     * @param delay      the wait before the next attempt, on {@code RETRY}
     * @param reason     the one-line reason of the rule that decided
     * @param error      the transport failure's class name when no answer arrived (never its message)
     * @param elapsed    how long the attempt took, on the client's clock
     * @param truncated  whether the answer's body was cut at the client's {@code maxBodyBytes}
     */
    record AttemptEvent(String key, int attempt, Outcome outcome, OptionalInt status, Optional<String> resourceId,
            Optional<Duration> delay, String reason, Optional<String> error, Duration elapsed, boolean truncated) {
        /**
         * Checks for nulls, a positive attempt and a duration that is not negative.
         *
         * @param key        the call's key
         * @param attempt    which attempt, from 1
         * @param outcome    what the client does next
         * @param status     the HTTP status, or empty
         * @param resourceId the resource id, when known
         * @param delay      the wait, on {@code RETRY}
         * @param reason     why
         * @param error      the failure's class name, or empty
         * @param elapsed    how long the attempt took
         * @param truncated  whether the body was cut
         */
        public AttemptEvent {
            Objects.requireNonNull(key, "key");
            Objects.requireNonNull(outcome, "outcome");
            Objects.requireNonNull(status, "status");
            Objects.requireNonNull(resourceId, "resourceId");
            Objects.requireNonNull(delay, "delay");
            Objects.requireNonNull(reason, "reason");
            Objects.requireNonNull(error, "error");
            Objects.requireNonNull(elapsed, "elapsed");
            if (attempt < 1) {
                throw new IllegalArgumentException("attempt must be at least 1");
            }
            if (elapsed.isNegative()) {
                throw new IllegalArgumentException("elapsed must not be negative");
            }
        }

        /**
         * An attempt whose answer, if any, was whole.
         *
         * @param key        the call's key
         * @param attempt    which attempt, from 1
         * @param outcome    what the client does next
         * @param status     the HTTP status, or empty
         * @param resourceId the resource id, when known
         * @param delay      the wait, on {@code RETRY}
         * @param reason     why
         * @param error      the failure's class name, or empty
         * @param elapsed    how long the attempt took
         */
        public AttemptEvent(String key, int attempt, Outcome outcome, OptionalInt status, Optional<String> resourceId,
                Optional<Duration> delay, String reason, Optional<String> error, Duration elapsed) {
            this(key, attempt, outcome, status, resourceId, delay, reason, error, elapsed, false);
        }
    }

    /**
     * How one call ended.
     *
     * @param key        the call's key
     * @param attempts   attempts sent or started; 0 when the deadline had passed before the first
     * @param outcome    anything but {@code RETRY}
     * @param status     the last HTTP status, or empty when the last attempt got no answer
     * @param resourceId the resource id, on {@code CREATED} and {@code REPLAYED} when known
     * @param elapsed    time from the call to this outcome, on the client's clock
     * @param endedBy    on {@code CANCELLED}, what stopped the call: {@value #CANCEL}, {@value #TIMEOUT},
     *                   {@code exception:<class name>}, {@value #COMPLETED} or {@value #CLOSE}; empty otherwise
     * @param limit      on {@code EXHAUSTED}, what ran out (as {@link RetriesExhaustedException#limit()}); empty
     *                   otherwise
     * @param truncated  whether the last answer's body was cut at the client's {@code maxBodyBytes}
     */
    record OutcomeEvent(String key, int attempts, Outcome outcome, OptionalInt status, Optional<String> resourceId,
            Duration elapsed, Optional<String> endedBy, Optional<RetriesExhaustedException.Limit> limit,
            boolean truncated) {

        /** {@link #endedBy()} of a call whose future was cancelled. */
        public static final String CANCEL = "cancel";

        /** {@link #endedBy()} of a call whose future was completed with a {@code TimeoutException}. */
        public static final String TIMEOUT = "timeout";

        /** {@link #endedBy()} of a call whose future someone else completed normally. */
        public static final String COMPLETED = "completed";

        /** {@link #endedBy()} of a call cut short by {@link IdempotentClient#close()}. */
        public static final String CLOSE = "close";

        /** How {@link #endedBy()} starts for a future completed exceptionally; the class name follows. */
        public static final String EXCEPTION_PREFIX = "exception:";

        /**
         * Checks for nulls, that {@code RETRY} is not an outcome, that only a cancellation says what ended it and
         * only an exhausted call what ran out.
         *
         * @param key        the call's key
         * @param attempts   attempts sent or started
         * @param outcome    anything but {@code RETRY}
         * @param status     the last HTTP status, or empty
         * @param resourceId the resource id, when known
         * @param elapsed    time from the call to this outcome
         * @param endedBy    what stopped a {@code CANCELLED} call; empty otherwise
         * @param limit      what ran out for an {@code EXHAUSTED} call; empty otherwise
         * @param truncated  whether the last answer's body was cut
         */
        public OutcomeEvent {
            Objects.requireNonNull(key, "key");
            Objects.requireNonNull(outcome, "outcome");
            Objects.requireNonNull(status, "status");
            Objects.requireNonNull(resourceId, "resourceId");
            Objects.requireNonNull(elapsed, "elapsed");
            Objects.requireNonNull(endedBy, "endedBy");
            Objects.requireNonNull(limit, "limit");
            if (outcome == Outcome.RETRY) {
                throw new IllegalArgumentException("RETRY is not an outcome");
            }
            if (attempts < 0) {
                throw new IllegalArgumentException("attempts must not be negative");
            }
            if (endedBy.isPresent() && outcome != Outcome.CANCELLED) {
                throw new IllegalArgumentException("only a CANCELLED outcome says what ended it");
            }
            if (limit.isPresent() && outcome != Outcome.EXHAUSTED) {
                throw new IllegalArgumentException("only an EXHAUSTED outcome says what ran out");
            }
        }

        /**
         * An outcome that names no limit and whose last answer, if any, was whole.
         *
         * @param key        the call's key
         * @param attempts   attempts sent or started
         * @param outcome    anything but {@code RETRY}
         * @param status     the last HTTP status, or empty
         * @param resourceId the resource id, when known
         * @param elapsed    time from the call to this outcome
         * @param endedBy    what stopped a {@code CANCELLED} call; empty otherwise
         */
        public OutcomeEvent(String key, int attempts, Outcome outcome, OptionalInt status,
                Optional<String> resourceId, Duration elapsed, Optional<String> endedBy) {
            this(key, attempts, outcome, status, resourceId, elapsed, endedBy, Optional.empty(), false);
        }
    }
}
