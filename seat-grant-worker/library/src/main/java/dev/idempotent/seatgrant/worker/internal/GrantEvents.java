package dev.idempotent.seatgrant.worker.internal;

import java.time.Duration;
import java.util.Optional;
import java.util.OptionalInt;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.slf4j.event.Level;
import org.slf4j.spi.LoggingEventBuilder;

/**
 * The worker's structured events, through SLF4J key-value pairs: one {@code seat.grant.attempt} per POST
 * and one {@code seat.grant.outcome} per event, all joined by {@code requestId}. Thread-safe.
 *
 * <p>Keys: {@code requestId}, {@code attempt} (on the outcome: the number of the last attempt),
 * {@code outcome} ({@code granted | replayed | retry | rejected | exhausted}, and {@code interrupted} on
 * the outcome only), {@code status} (absent when no answer arrived), {@code seatId} (when known),
 * {@code delayMs} (on a retry), {@code reason} and {@code error} (the failure's class name, never its
 * message) on attempts, {@code elapsedMs} on the outcome. No URL and no header value is ever logged.
 */
public final class GrantEvents {

    /** The logger name events are written to, for routing them in a logging config. */
    public static final String LOGGER_NAME = "dev.idempotent.seatgrant.worker.events";

    /** Message of the per-attempt event. */
    public static final String ATTEMPT = "seat.grant.attempt";

    /** Message of the per-outcome event. */
    public static final String OUTCOME = "seat.grant.outcome";

    private final Logger log = LoggerFactory.getLogger(LOGGER_NAME);

    /** One attempt's result: {@code outcome} is what the worker does next because of it. */
    public void attempt(String requestId, int attempt, String outcome, OptionalInt status, Optional<String> seatId,
            Optional<Duration> delay, String reason, Optional<Throwable> error) {
        Level level = "retry".equals(outcome) || "granted".equals(outcome) || "replayed".equals(outcome)
                ? Level.INFO : Level.WARN;
        LoggingEventBuilder event = log.atLevel(level).setMessage(ATTEMPT)
                .addKeyValue("requestId", requestId)
                .addKeyValue("attempt", attempt)
                .addKeyValue("outcome", outcome);
        status.ifPresent(s -> event.addKeyValue("status", s));
        seatId.ifPresent(s -> event.addKeyValue("seatId", s));
        delay.ifPresent(d -> event.addKeyValue("delayMs", d.toMillis()));
        event.addKeyValue("reason", reason);
        error.ifPresent(e -> event.addKeyValue("error", e.getClass().getName()));
        event.log();
    }

    /** The event's final outcome. */
    public void outcome(String requestId, int attempts, String outcome, OptionalInt status, Optional<String> seatId,
            Duration elapsed) {
        Level level = "granted".equals(outcome) || "replayed".equals(outcome) ? Level.INFO : Level.ERROR;
        LoggingEventBuilder event = log.atLevel(level).setMessage(OUTCOME)
                .addKeyValue("requestId", requestId)
                .addKeyValue("attempt", attempts)
                .addKeyValue("outcome", outcome);
        status.ifPresent(s -> event.addKeyValue("status", s));
        seatId.ifPresent(s -> event.addKeyValue("seatId", s));
        event.addKeyValue("elapsedMs", elapsed.toMillis());
        event.log();
    }
}
