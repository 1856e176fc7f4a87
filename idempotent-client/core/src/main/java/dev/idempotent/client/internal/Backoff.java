package dev.idempotent.client.internal;

import java.time.DateTimeException;
import java.time.Duration;
import java.time.Instant;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.Objects;
import java.util.Optional;

/**
 * How long to wait before the next attempt, or whether to stop: a pure function of the attempt number,
 * the server's hint, the time left and a random draw. Thread-safe.
 *
 * <ul>
 *   <li>Computed wait: full jitter, uniform in {@code [0, ceiling]} where the ceiling is {@code baseDelay}
 *       after the first attempt and doubles after each later one, never above {@code maxDelay}. Full jitter
 *       spreads a burst of failing workers instead of re-synchronising them.</li>
 *   <li>A {@code Retry-After} (delay-seconds or HTTP-date) wins over the computed wait: the server knows its
 *       own recovery time. It is capped at {@code retryAfterCap} so one header cannot park a caller.</li>
 *   <li>Deadline-aware: if the wait would reach the call's deadline, stop now rather than sleep into a
 *       deadline that leaves no time for the attempt.</li>
 * </ul>
 */
public final class Backoff {

    private final long baseMillis;
    private final long maxMillis;
    private final Duration retryAfterCap;

    /**
     * A backoff policy; it holds no per-call state, so one instance serves every call.
     *
     * @param baseDelay     the first ceiling
     * @param maxDelay      the highest ceiling
     * @param retryAfterCap the longest Retry-After honoured
     */
    public Backoff(Duration baseDelay, Duration maxDelay, Duration retryAfterCap) {
        this.baseMillis = baseDelay.toMillis();
        this.maxMillis = maxDelay.toMillis();
        this.retryAfterCap = Objects.requireNonNull(retryAfterCap, "retryAfterCap");
    }

    /**
     * The wait before attempt {@code attempt + 1}, or empty to stop.
     *
     * @param attempt    attempts made so far (1 after the first failure)
     * @param retryAfter the raw Retry-After header of the last answer, if any
     * @param now        the current instant
     * @param deadline   the call's deadline
     * @param unitRandom a draw from {@code [0, 1)}
     * @return the wait, or empty when the deadline leaves no room for another attempt
     */
    public Optional<Duration> next(int attempt, Optional<String> retryAfter, Instant now, Instant deadline,
            double unitRandom) {
        return next(attempt, Optional.empty(), retryAfter, now, deadline, unitRandom);
    }

    /**
     * The wait before attempt {@code attempt + 1}, or empty to stop, when a caller's rule may have asked for a wait
     * of its own: that wait wins over the header, and is capped and deadline-checked the same way.
     *
     * @param attempt    attempts made so far (1 after the first failure)
     * @param asked      the wait a rule asked for, if any
     * @param retryAfter the raw Retry-After header of the last answer, if any
     * @param now        the current instant
     * @param deadline   the call's deadline
     * @param unitRandom a draw from {@code [0, 1)}
     * @return the wait, or empty when the deadline leaves no room for another attempt
     */
    public Optional<Duration> next(int attempt, Optional<Duration> asked, Optional<String> retryAfter, Instant now,
            Instant deadline, double unitRandom) {
        if (attempt < 1) {
            throw new IllegalArgumentException("attempt must be at least 1");
        }
        if (unitRandom < 0 || unitRandom >= 1) {
            throw new IllegalArgumentException("unitRandom must be in [0, 1)");
        }
        Duration wait = asked.or(() -> retryAfter.flatMap(h -> parseRetryAfter(h, now)))
                .map(d -> d.compareTo(retryAfterCap) > 0 ? retryAfterCap : d)
                .orElseGet(() -> Duration.ofMillis(Math.round(unitRandom * ceilingMillis(attempt))));
        if (!now.plus(wait).isBefore(deadline)) {
            return Optional.empty();
        }
        return Optional.of(wait);
    }

    /**
     * The jitter ceiling after {@code attempt} attempts: baseDelay doubled {@code attempt - 1} times, capped.
     *
     * @param attempt attempts made so far, from 1
     * @return the ceiling in milliseconds
     */
    public long ceilingMillis(int attempt) {
        int doublings = Math.min(attempt - 1, 30);
        long ceiling = baseMillis << doublings;
        return ceiling < 0 || ceiling > maxMillis ? maxMillis : ceiling;
    }

    /**
     * Reads a Retry-After header: delay-seconds ({@code 2}) or an HTTP-date
     * ({@code Wed, 21 Oct 2015 07:28:00 GMT}). A date in the past means "now".
     *
     * @param header the header's value
     * @param now    the instant an HTTP-date is measured from
     * @return the wait, or empty when the header is neither form (the computed backoff then applies)
     */
    public static Optional<Duration> parseRetryAfter(String header, Instant now) {
        String value = header.trim();
        if (!value.isEmpty() && value.chars().allMatch(c -> c >= '0' && c <= '9')) {
            try {
                return Optional.of(Duration.ofSeconds(Long.parseLong(value)));
            } catch (NumberFormatException tooLong) {
                // More digits than a long holds: further away than any cap, so the cap will apply.
                return Optional.of(Duration.ofSeconds(Long.MAX_VALUE / 1_000_000_000L));
            }
        }
        try {
            Instant at = ZonedDateTime.parse(value, DateTimeFormatter.RFC_1123_DATE_TIME).toInstant();
            return Optional.of(at.isAfter(now) ? Duration.between(now, at) : Duration.ZERO);
        } catch (DateTimeException notADate) {
            return Optional.empty();
        }
    }
}
