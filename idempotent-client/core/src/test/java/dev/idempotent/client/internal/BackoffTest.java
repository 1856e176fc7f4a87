package dev.idempotent.client.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** Backoff as the pure function it is: attempt, hint, time left and a random draw in; a wait or "stop" out. */
class BackoffTest {

    private static final Instant NOW = Instant.parse("2026-01-01T00:00:00Z");
    private static final Instant FAR = NOW.plusSeconds(3600);

    private final Backoff backoff = new Backoff(Duration.ofMillis(100), Duration.ofSeconds(2), Duration.ofSeconds(10));

    @Test
    void ceilingStartsAtBaseDoublesAndIsCapped() {
        assertEquals(100, backoff.ceilingMillis(1));
        assertEquals(200, backoff.ceilingMillis(2));
        assertEquals(400, backoff.ceilingMillis(3));
        assertEquals(800, backoff.ceilingMillis(4));
        assertEquals(1600, backoff.ceilingMillis(5));
        assertEquals(2000, backoff.ceilingMillis(6));
        assertEquals(2000, backoff.ceilingMillis(80));
    }

    @Test
    void fullJitterSpansZeroToCeiling() {
        assertEquals(Optional.of(Duration.ZERO), backoff.next(3, Optional.empty(), NOW, FAR, 0.0));
        assertEquals(Optional.of(Duration.ofMillis(200)), backoff.next(3, Optional.empty(), NOW, FAR, 0.5));
        assertEquals(Optional.of(Duration.ofMillis(400)), backoff.next(3, Optional.empty(), NOW, FAR, 0.99999));
    }

    @Test
    void retryAfterSecondsWinsOverJitter() {
        assertEquals(Optional.of(Duration.ofSeconds(2)), backoff.next(1, Optional.of("2"), NOW, FAR, 0.7));
        assertEquals(Optional.of(Duration.ofSeconds(0)), backoff.next(4, Optional.of(" 0 "), NOW, FAR, 0.7));
    }

    @Test
    void retryAfterHttpDateIsMeasuredFromNow() {
        Optional<Duration> wait = backoff.next(1, Optional.of("Thu, 01 Jan 2026 00:00:07 GMT"), NOW, FAR, 0.5);
        assertEquals(Optional.of(Duration.ofSeconds(7)), wait);
    }

    @Test
    void retryAfterInThePastMeansNow() {
        assertEquals(Optional.of(Duration.ZERO),
                backoff.next(1, Optional.of("Wed, 31 Dec 2025 23:59:00 GMT"), NOW, FAR, 0.5));
    }

    @Test
    void retryAfterIsCapped() {
        assertEquals(Optional.of(Duration.ofSeconds(10)), backoff.next(1, Optional.of("3600"), NOW, FAR, 0.5));
        assertEquals(Optional.of(Duration.ofSeconds(10)),
                backoff.next(1, Optional.of("99999999999999999999999"), NOW, FAR, 0.5));
    }

    @Test
    void unreadableRetryAfterFallsBackToJitter() {
        assertEquals(Optional.of(Duration.ofMillis(50)), backoff.next(1, Optional.of("soon"), NOW, FAR, 0.5));
        assertEquals(Optional.of(Duration.ofMillis(50)), backoff.next(1, Optional.of("-3"), NOW, FAR, 0.5));
    }

    @Test
    void stopsWhenTheWaitWouldReachTheDeadline() {
        Instant deadline = NOW.plusSeconds(2);
        assertEquals(Optional.empty(), backoff.next(1, Optional.of("2"), NOW, deadline, 0.5));
        assertEquals(Optional.of(Duration.ofSeconds(1)), backoff.next(1, Optional.of("1"), NOW, deadline, 0.5));
        assertEquals(Optional.empty(), backoff.next(1, Optional.empty(), NOW, NOW, 0.0));
    }

    @Test
    void rejectsNonsenseInputs() {
        assertThrows(IllegalArgumentException.class, () -> backoff.next(0, Optional.empty(), NOW, FAR, 0.5));
        assertThrows(IllegalArgumentException.class, () -> backoff.next(1, Optional.empty(), NOW, FAR, 1.0));
    }

    @Test
    void parseRetryAfterReadsBothForms() {
        assertEquals(Optional.of(Duration.ofSeconds(120)), Backoff.parseRetryAfter("120", NOW));
        assertEquals(Optional.of(Duration.ofSeconds(30)), Backoff.parseRetryAfter("Thu, 01 Jan 2026 00:00:30 GMT", NOW));
        assertTrue(Backoff.parseRetryAfter("", NOW).isEmpty());
        assertTrue(Backoff.parseRetryAfter("1.5", NOW).isEmpty());
    }

    @Test
    void aRulesWaitWinsOverTheHeaderAndIsCappedAndDeadlineChecked() {
        assertEquals(Optional.of(Duration.ofMillis(750)),
                backoff.next(1, Optional.of(Duration.ofMillis(750)), Optional.of("5"), NOW, FAR, 0.5));
        assertEquals(Optional.of(Duration.ofSeconds(10)),
                backoff.next(1, Optional.of(Duration.ofMinutes(5)), Optional.empty(), NOW, FAR, 0.5));
        assertEquals(Optional.empty(),
                backoff.next(1, Optional.of(Duration.ofSeconds(3)), Optional.empty(), NOW, NOW.plusSeconds(3), 0.5));
        assertEquals(Optional.of(Duration.ofSeconds(5)),
                backoff.next(1, Optional.empty(), Optional.of("5"), NOW, FAR, 0.5), "no rule's wait: the header's");
    }

    @Test
    void aBaseDelayUnderOneMillisecondHasACeilingOfZeroNotTheMaximum() {
        Backoff fine = new Backoff(Duration.ofNanos(500_000), Duration.ofSeconds(2), Duration.ofSeconds(10));
        assertEquals(0, fine.ceilingMillis(1));
        assertEquals(Optional.of(Duration.ZERO), fine.next(1, Optional.empty(), NOW, FAR, 0.99));
    }
}
