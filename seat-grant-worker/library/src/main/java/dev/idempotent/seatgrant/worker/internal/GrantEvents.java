package dev.idempotent.seatgrant.worker.internal;

import dev.idempotent.seatgrant.worker.GrantListener;
import dev.idempotent.seatgrant.worker.GrantListener.AttemptEvent;
import dev.idempotent.seatgrant.worker.GrantListener.Outcome;
import dev.idempotent.seatgrant.worker.GrantListener.OutcomeEvent;
import dev.idempotent.seatgrant.worker.SeatGrantWorker;
import java.util.Objects;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.slf4j.event.Level;
import org.slf4j.spi.LoggingEventBuilder;

/**
 * The worker's structured events, through SLF4J key-value pairs, and the same facts handed to the
 * {@link GrantListener}: one {@code seat.grant.attempt} per POST and one {@code seat.grant.outcome} per call, all
 * joined by {@code requestId}. Thread-safe.
 *
 * <p>Keys: {@code requestId}, {@code attempt} (on the outcome: the number of POSTs sent), {@code outcome}
 * ({@link Outcome#logName()}), {@code status} (absent when no answer arrived), {@code seatId} (when known),
 * {@code delayMs} (on a retry), {@code reason} and {@code error} (the failure's class name, never its message) on
 * attempts, {@code elapsedMs} on both (the attempt's own duration; the call's), and {@code endedBy} on a
 * cancelled outcome. No URL and no header value is ever logged. A listener that throws
 * is reported as {@code seat.grant.listener-failed} (WARN) and otherwise ignored.
 */
public final class GrantEvents {

    /** The logger name events are written to; the same as {@link SeatGrantWorker#LOGGER_NAME}. */
    public static final String LOGGER_NAME = SeatGrantWorker.LOGGER_NAME;

    /** Message of the per-attempt event. */
    public static final String ATTEMPT = "seat.grant.attempt";

    /** Message of the per-outcome event. */
    public static final String OUTCOME = "seat.grant.outcome";

    /** Message of the event that reports a listener which threw. */
    public static final String LISTENER_FAILED = "seat.grant.listener-failed";

    private final Logger log = LoggerFactory.getLogger(LOGGER_NAME);
    private final GrantListener listener;

    /**
     * Events for one worker.
     *
     * @param listener told about every event after it is logged
     */
    public GrantEvents(GrantListener listener) {
        this.listener = Objects.requireNonNull(listener, "listener");
    }

    /** Events with no listener. */
    public GrantEvents() {
        this(GrantListener.NONE);
    }

    /**
     * Logs one attempt's result ({@code outcome} is what the worker does next because of it), then tells the
     * listener. INFO for granted, replayed and retry; WARN for rejected and exhausted.
     *
     * @param e the attempt
     */
    public void attempt(AttemptEvent e) {
        Outcome o = e.outcome();
        Level level = o == Outcome.RETRY || o == Outcome.GRANTED || o == Outcome.REPLAYED ? Level.INFO : Level.WARN;
        LoggingEventBuilder event = log.atLevel(level).setMessage(ATTEMPT)
                .addKeyValue("requestId", e.requestId())
                .addKeyValue("attempt", e.attempt())
                .addKeyValue("outcome", o.logName());
        e.status().ifPresent(s -> event.addKeyValue("status", s));
        e.seatId().ifPresent(s -> event.addKeyValue("seatId", s));
        e.delay().ifPresent(d -> event.addKeyValue("delayMs", d.toMillis()));
        event.addKeyValue("reason", e.reason());
        e.error().ifPresent(name -> event.addKeyValue("error", name));
        event.addKeyValue("elapsedMs", e.elapsed().toMillis());
        event.log();
        try {
            listener.onAttempt(e);
        } catch (RuntimeException failed) {
            listenerFailed(e.requestId(), "onAttempt", failed);
        }
    }

    /**
     * Logs how a call ended, then tells the listener. INFO for granted and replayed; WARN for cancelled (someone
     * chose to stop it); ERROR for rejected, exhausted, interrupted and failed.
     *
     * @param e the outcome
     */
    public void outcome(OutcomeEvent e) {
        Outcome o = e.outcome();
        Level level = o == Outcome.GRANTED || o == Outcome.REPLAYED ? Level.INFO
                : o == Outcome.CANCELLED ? Level.WARN : Level.ERROR;
        LoggingEventBuilder event = log.atLevel(level).setMessage(OUTCOME)
                .addKeyValue("requestId", e.requestId())
                .addKeyValue("attempt", e.attempts())
                .addKeyValue("outcome", o.logName());
        e.status().ifPresent(s -> event.addKeyValue("status", s));
        e.seatId().ifPresent(s -> event.addKeyValue("seatId", s));
        event.addKeyValue("elapsedMs", e.elapsed().toMillis());
        e.endedBy().ifPresent(how -> event.addKeyValue("endedBy", how));
        event.log();
        try {
            listener.onOutcome(e);
        } catch (RuntimeException failed) {
            listenerFailed(e.requestId(), "onOutcome", failed);
        }
    }

    private void listenerFailed(String requestId, String method, RuntimeException failed) {
        // The class name only: a listener's message may hold anything, including what it was measuring.
        log.atWarn().setMessage(LISTENER_FAILED)
                .addKeyValue("requestId", requestId)
                .addKeyValue("method", method)
                .addKeyValue("error", failed.getClass().getName())
                .log();
    }
}
