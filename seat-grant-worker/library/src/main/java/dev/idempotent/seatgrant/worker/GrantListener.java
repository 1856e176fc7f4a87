package dev.idempotent.seatgrant.worker;

import java.time.Duration;
import java.util.Locale;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalInt;

/**
 * A hook for metrics and tracing: told about every attempt and every outcome, as immutable records. Set one with
 * {@link SeatGrantConfig.Builder#listener(GrantListener)}; both methods default to doing nothing, so an
 * implementation overrides only what it needs.
 *
 * <p>The worker calls the listener on the thread that runs the grant (the caller's thread for
 * {@link SeatGrantWorker#handle(SeatRequested)}, an HTTP client or scheduler thread for
 * {@link SeatGrantWorker#handleAsync(SeatRequested)}), after the matching log event. One listener serves every
 * grant of a worker, so it must be thread-safe. A listener that throws never changes the outcome of a grant: the
 * worker logs the failure's class name at WARN and carries on. Keep it fast; it runs inside the retry loop.
 */
public interface GrantListener {

    /** The listener that ignores everything: the default. */
    GrantListener NONE = new GrantListener() {
    };

    /**
     * Called once per POST, after its answer (or its failure) has been classified.
     *
     * @param attempt what the attempt got and what the worker does next because of it
     */
    default void onAttempt(AttemptEvent attempt) {
    }

    /**
     * Called once per grant, when it ends, whichever way it ends.
     *
     * @param outcome how the grant ended
     */
    default void onOutcome(OutcomeEvent outcome) {
    }

    /** What an attempt or a grant came to; the same words the structured log events use, in lower case. */
    enum Outcome {
        /** The server created the seat in answer to this grant. */
        GRANTED,
        /** The seat existed already for this requestId; the server replayed it. */
        REPLAYED,
        /** A retryable failure; another attempt follows after {@link AttemptEvent#delay()} (attempts only). */
        RETRY,
        /** The server refused in a way no resend can change; {@link GrantRejectedException}. */
        REJECTED,
        /** Attempts or time ran out on retryable failures; {@link GrantExhaustedException}. */
        EXHAUSTED,
        /** The calling thread was interrupted; {@link GrantInterruptedException} (outcomes only). */
        INTERRUPTED,
        /**
         * The grant was stopped from outside before it ended by itself: its {@code handleAsync} future was
         * completed by someone else (cancelled, timed out with {@code orTimeout}, completed normally or
         * exceptionally), or the worker was closed while it ran (outcomes only); {@link OutcomeEvent#endedBy()}
         * says which. The seat may exist; redelivery is safe.
         */
        CANCELLED,
        /**
         * The call ended with an exception from the caller's own code, such as a request customizer that threw
         * (outcomes only). That exception is what the call throws or completes with.
         */
        FAILED;

        /** {@return the lower-case name the log events use, for example {@code granted}} */
        public String logName() {
            return name().toLowerCase(Locale.ROOT);
        }
    }

    /**
     * One POST and what the worker made of it.
     *
     * @param requestId the event's requestId, also the Idempotency-Key
     * @param attempt   which POST this was for the grant, from 1
     * @param outcome   {@code GRANTED}, {@code REPLAYED}, {@code RETRY}, {@code REJECTED} or {@code EXHAUSTED}
     * @param status    the HTTP status, or empty when no answer arrived
     * @param seatId    the seat, when the answer named one
     * @param delay     the wait before the next attempt, on {@code RETRY}
     * @param reason    the classifier's one-line reason (never a URL or a header value)
     * @param error     the class name of the transport failure, when no answer arrived (never its message)
     * @param elapsed   how long this attempt took, from building its request to classifying its answer (or its
     *                  failure), on the worker's clock; the wait after it is not included
     */
    record AttemptEvent(String requestId, int attempt, Outcome outcome, OptionalInt status, Optional<String> seatId,
            Optional<Duration> delay, String reason, Optional<String> error, Duration elapsed) {

        /**
         * Checks that nothing is null, the attempt number is positive and the duration is not negative.
         *
         * @param requestId the event's requestId
         * @param attempt   which POST this was, from 1
         * @param outcome   what the worker does next because of it
         * @param status    the HTTP status, or empty
         * @param seatId    the seat, when named
         * @param delay     the wait before the next attempt, on {@code RETRY}
         * @param reason    the classifier's reason
         * @param error     the transport failure's class name, when no answer arrived
         * @param elapsed   how long the attempt took
         */
        public AttemptEvent {
            Objects.requireNonNull(requestId, "requestId");
            Objects.requireNonNull(outcome, "outcome");
            Objects.requireNonNull(status, "status");
            Objects.requireNonNull(seatId, "seatId");
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
         * An attempt event with no duration ({@link Duration#ZERO}), as the record was before it carried one.
         *
         * @param requestId the event's requestId
         * @param attempt   which POST this was, from 1
         * @param outcome   what the worker does next because of it
         * @param status    the HTTP status, or empty
         * @param seatId    the seat, when named
         * @param delay     the wait before the next attempt, on {@code RETRY}
         * @param reason    the classifier's reason
         * @param error     the transport failure's class name, when no answer arrived
         */
        public AttemptEvent(String requestId, int attempt, Outcome outcome, OptionalInt status,
                Optional<String> seatId, Optional<Duration> delay, String reason, Optional<String> error) {
            this(requestId, attempt, outcome, status, seatId, delay, reason, error, Duration.ZERO);
        }
    }

    /**
     * How one grant ended.
     *
     * @param requestId the event's requestId
     * @param attempts  POSTs sent (or started) for this grant; 0 when the deadline had passed before the first
     * @param outcome   anything but {@code RETRY}
     * @param status    the last HTTP status, or empty when the last attempt got no answer
     * @param seatId    the seat, on {@code GRANTED} and {@code REPLAYED}
     * @param elapsed   time from the call to this outcome, on the worker's clock
     * @param endedBy   on {@code CANCELLED}, what stopped the grant: {@value #CANCEL} (the future was cancelled),
     *                  {@value #TIMEOUT} (it was completed with a {@link java.util.concurrent.TimeoutException},
     *                  as {@code orTimeout} does), {@code exception:<class name>} (completed exceptionally with
     *                  anything else), {@value #COMPLETED} (completed normally by someone else) or
     *                  {@value #CLOSE} (the worker was closed); empty on every other outcome
     */
    record OutcomeEvent(String requestId, int attempts, Outcome outcome, OptionalInt status, Optional<String> seatId,
            Duration elapsed, Optional<String> endedBy) {

        /** {@link #endedBy()} of a grant whose future was cancelled. */
        public static final String CANCEL = "cancel";

        /** {@link #endedBy()} of a grant whose future was completed with a {@code TimeoutException}. */
        public static final String TIMEOUT = "timeout";

        /** {@link #endedBy()} of a grant whose future was completed normally by someone other than the worker. */
        public static final String COMPLETED = "completed";

        /** {@link #endedBy()} of a grant cut short by {@link SeatGrantWorker#close()}. */
        public static final String CLOSE = "close";

        /** How {@link #endedBy()} starts for a future completed exceptionally; the class name follows. */
        public static final String EXCEPTION_PREFIX = "exception:";

        /**
         * Checks that nothing is null, that {@code RETRY} is not an outcome, and that only a cancellation says
         * what ended it.
         *
         * @param requestId the event's requestId
         * @param attempts  POSTs sent or started
         * @param outcome   anything but {@code RETRY}
         * @param status    the last HTTP status, or empty
         * @param seatId    the seat, on {@code GRANTED} and {@code REPLAYED}
         * @param elapsed   time from the call to this outcome
         * @param endedBy   what stopped a {@code CANCELLED} grant; empty otherwise
         */
        public OutcomeEvent {
            Objects.requireNonNull(requestId, "requestId");
            Objects.requireNonNull(outcome, "outcome");
            Objects.requireNonNull(status, "status");
            Objects.requireNonNull(seatId, "seatId");
            Objects.requireNonNull(elapsed, "elapsed");
            Objects.requireNonNull(endedBy, "endedBy");
            if (outcome == Outcome.RETRY) {
                throw new IllegalArgumentException("RETRY is not an outcome");
            }
            if (attempts < 0) {
                throw new IllegalArgumentException("attempts must not be negative");
            }
            if (endedBy.isPresent() && outcome != Outcome.CANCELLED) {
                throw new IllegalArgumentException("only a CANCELLED outcome says what ended it");
            }
        }

        /**
         * An outcome that names nothing as having ended it, as the record was before it carried {@code endedBy}.
         *
         * @param requestId the event's requestId
         * @param attempts  POSTs sent or started
         * @param outcome   anything but {@code RETRY}
         * @param status    the last HTTP status, or empty
         * @param seatId    the seat, on {@code GRANTED} and {@code REPLAYED}
         * @param elapsed   time from the call to this outcome
         */
        public OutcomeEvent(String requestId, int attempts, Outcome outcome, OptionalInt status,
                Optional<String> seatId, Duration elapsed) {
            this(requestId, attempts, outcome, status, seatId, elapsed, Optional.empty());
        }
    }
}
