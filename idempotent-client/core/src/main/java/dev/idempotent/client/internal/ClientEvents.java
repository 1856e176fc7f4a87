package dev.idempotent.client.internal;

import dev.idempotent.client.IdempotentListener;
import dev.idempotent.client.IdempotentListener.AttemptEvent;
import dev.idempotent.client.IdempotentListener.Outcome;
import dev.idempotent.client.IdempotentListener.OutcomeEvent;
import java.util.Locale;
import java.util.Objects;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.slf4j.event.Level;
import org.slf4j.spi.LoggingEventBuilder;

/**
 * The client's structured events, through SLF4J key-value pairs on the logger {@value #LOGGER_NAME}, and the same
 * facts handed to the {@link IdempotentListener}: one {@value #ATTEMPT} per attempt and one {@value #OUTCOME} per
 * call, joined by {@code key}. Thread-safe.
 *
 * <p>Keys: {@code key}, {@code attempt} (on the outcome: attempts made), {@code outcome}
 * ({@link Outcome#logName()}), {@code status} (absent when no answer arrived), {@code resourceId} (when known),
 * {@code delayMs} (on a retry), {@code reason} and {@code error} (a failure's class name, never its message) on
 * attempts, {@code elapsedMs} on both, {@code truncated} (true) on both when the answer's body was cut at the
 * limit, {@code endedBy} on a cancelled outcome and {@code limit} ({@code attempts}, {@code deadline} or
 * {@code budget}) on an exhausted one. Never a URL, a header value or a body. A listener that throws is reported as
 * {@value #LISTENER_FAILED} (WARN) and otherwise ignored. With logging off (an adapter that logs its own events)
 * only the listener is told.
 */
public final class ClientEvents {

    /** The logger the events are written to. */
    public static final String LOGGER_NAME = "dev.idempotent.client";

    /** Message of the per-attempt event. */
    public static final String ATTEMPT = "idempotent.attempt";

    /** Message of the per-outcome event. */
    public static final String OUTCOME = "idempotent.outcome";

    /** Message of the event that reports a listener which threw. */
    public static final String LISTENER_FAILED = "idempotent.listener-failed";

    private final Logger log = LoggerFactory.getLogger(LOGGER_NAME);
    private final IdempotentListener listener;
    private final boolean logEvents;

    /**
     * Events for one client.
     *
     * @param listener  told about every event, after it is logged
     * @param logEvents whether to write the log events (the listener is told either way)
     */
    public ClientEvents(IdempotentListener listener, boolean logEvents) {
        this.listener = Objects.requireNonNull(listener, "listener");
        this.logEvents = logEvents;
    }

    /**
     * Logs one attempt (INFO for created, replayed and retry; WARN for rejected and exhausted), then tells the
     * listener.
     *
     * @param e the attempt
     */
    public void attempt(AttemptEvent e) {
        if (logEvents) {
            Outcome o = e.outcome();
            Level level = o == Outcome.RETRY || o == Outcome.CREATED || o == Outcome.REPLAYED ? Level.INFO : Level.WARN;
            LoggingEventBuilder event = log.atLevel(level).setMessage(ATTEMPT)
                    .addKeyValue("key", e.key())
                    .addKeyValue("attempt", e.attempt())
                    .addKeyValue("outcome", o.logName());
            e.status().ifPresent(s -> event.addKeyValue("status", s));
            e.resourceId().ifPresent(s -> event.addKeyValue("resourceId", s));
            e.delay().ifPresent(d -> event.addKeyValue("delayMs", d.toMillis()));
            event.addKeyValue("reason", e.reason());
            e.error().ifPresent(name -> event.addKeyValue("error", name));
            event.addKeyValue("elapsedMs", e.elapsed().toMillis());
            if (e.truncated()) {
                event.addKeyValue("truncated", true);
            }
            event.log();
        }
        try {
            listener.onAttempt(e);
        } catch (RuntimeException failed) {
            listenerFailed(e.key(), "onAttempt", failed);
        }
    }

    /**
     * Logs how a call ended (INFO for created and replayed; WARN for cancelled; ERROR otherwise), then tells the
     * listener.
     *
     * @param e the outcome
     */
    public void outcome(OutcomeEvent e) {
        if (logEvents) {
            Outcome o = e.outcome();
            Level level = o == Outcome.CREATED || o == Outcome.REPLAYED ? Level.INFO
                    : o == Outcome.CANCELLED ? Level.WARN : Level.ERROR;
            LoggingEventBuilder event = log.atLevel(level).setMessage(OUTCOME)
                    .addKeyValue("key", e.key())
                    .addKeyValue("attempt", e.attempts())
                    .addKeyValue("outcome", o.logName());
            e.status().ifPresent(s -> event.addKeyValue("status", s));
            e.resourceId().ifPresent(s -> event.addKeyValue("resourceId", s));
            event.addKeyValue("elapsedMs", e.elapsed().toMillis());
            e.endedBy().ifPresent(how -> event.addKeyValue("endedBy", how));
            e.limit().ifPresent(limit -> event.addKeyValue("limit", limit.name().toLowerCase(Locale.ROOT)));
            if (e.truncated()) {
                event.addKeyValue("truncated", true);
            }
            event.log();
        }
        try {
            listener.onOutcome(e);
        } catch (RuntimeException failed) {
            listenerFailed(e.key(), "onOutcome", failed);
        }
    }

    private void listenerFailed(String key, String method, RuntimeException failed) {
        // The class name only: a listener's message may hold anything, including what it was measuring.
        log.atWarn().setMessage(LISTENER_FAILED)
                .addKeyValue("key", key)
                .addKeyValue("method", method)
                .addKeyValue("error", failed.getClass().getName())
                .log();
    }
}
