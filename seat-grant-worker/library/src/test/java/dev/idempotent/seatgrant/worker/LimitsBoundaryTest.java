package dev.idempotent.seatgrant.worker;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.idempotent.client.internal.Backoff;
import java.net.URI;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Every validated limit at its exact edge: the last value accepted and the first refused, so a limit that
 * moves by one is caught. Also the configuration's value semantics (equality, hash, toString, toBuilder).
 */
class LimitsBoundaryTest {

    private static final URI BASE = URI.create("http://127.0.0.1:8080");

    @Test
    void oneAttemptIsTheFewestAllowed() {
        assertEquals(1, SeatGrantConfig.builder(BASE).maxAttempts(1).build().maxAttempts());
        assertThrows(IllegalArgumentException.class, () -> SeatGrantConfig.builder(BASE).maxAttempts(0).build());
    }

    @Test
    void baseDelayMayEqualMaxDelayButNotExceedIt() {
        SeatGrantConfig flat = SeatGrantConfig.builder(BASE)
                .baseDelay(Duration.ofSeconds(2)).maxDelay(Duration.ofSeconds(2)).build();
        assertEquals(flat.baseDelay(), flat.maxDelay());
        assertThrows(IllegalArgumentException.class, () -> SeatGrantConfig.builder(BASE)
                .baseDelay(Duration.ofMillis(2001)).maxDelay(Duration.ofSeconds(2)).build());
    }

    @Test
    void everyDurationMustBePositiveAndOneNanosecondIs() {
        Duration tiny = Duration.ofNanos(1);
        SeatGrantConfig c = SeatGrantConfig.builder(BASE).baseDelay(tiny).maxDelay(tiny).retryAfterCap(tiny)
                .requestTimeout(tiny).connectTimeout(tiny).build();
        assertEquals(tiny, c.retryAfterCap());
        for (Duration bad : new Duration[] {Duration.ZERO, Duration.ofNanos(-1)}) {
            SeatGrantConfig.Builder b = SeatGrantConfig.builder(BASE);
            assertThrows(IllegalArgumentException.class, () -> b.baseDelay(bad));
            assertThrows(IllegalArgumentException.class, () -> b.maxDelay(bad));
            assertThrows(IllegalArgumentException.class, () -> b.retryAfterCap(bad));
            assertThrows(IllegalArgumentException.class, () -> b.requestTimeout(bad));
            assertThrows(IllegalArgumentException.class, () -> b.connectTimeout(bad));
        }
    }

    @Test
    void httpAndHttpsInAnyCaseAreTheOnlySchemes() {
        assertDoesNotThrow(() -> SeatGrantConfig.defaults(URI.create("HTTPS://127.0.0.1")));
        assertDoesNotThrow(() -> SeatGrantConfig.defaults(URI.create("Http://127.0.0.1")));
        assertThrows(IllegalArgumentException.class, () -> SeatGrantConfig.defaults(URI.create("ws://127.0.0.1")));
    }

    @Test
    void configsAreEqualExactlyWhenEverySettingIs() {
        SeatGrantConfig base = SeatGrantConfig.defaults(BASE);
        assertEquals(base, SeatGrantConfig.defaults(BASE));
        assertEquals(base.hashCode(), SeatGrantConfig.defaults(BASE).hashCode());
        SeatGrantConfig[] variants = {
            base.toBuilder().baseUri(URI.create("http://127.0.0.1:8081")).build(),
            base.toBuilder().maxAttempts(6).build(),
            base.toBuilder().baseDelay(Duration.ofMillis(101)).build(),
            base.toBuilder().maxDelay(Duration.ofMillis(2001)).build(),
            base.toBuilder().retryAfterCap(Duration.ofSeconds(11)).build(),
            base.toBuilder().requestTimeout(Duration.ofSeconds(6)).build(),
            base.toBuilder().connectTimeout(Duration.ofSeconds(3)).build(),
        };
        for (SeatGrantConfig other : variants) {
            assertNotEquals(base, other, other::toString);
            assertNotEquals(base.hashCode(), other.hashCode(), "distinct configs spread over hash buckets");
        }
        assertNotEquals(base, "not a config");
    }

    @Test
    void toBuilderCanMoveTheBaseUri() {
        URI other = URI.create("https://127.0.0.1:9443/api/");
        SeatGrantConfig moved = SeatGrantConfig.defaults(BASE).toBuilder().baseUri(other).maxAttempts(2).build();
        assertEquals(other, moved.baseUri());
        assertEquals(2, moved.maxAttempts());
    }

    @Test
    void toStringNamesEverySetting() {
        String text = SeatGrantConfig.builder(BASE).maxAttempts(3).build().toString();
        for (String setting : new String[] {"maxAttempts=3", "baseDelay=PT0.1S", "maxDelay=PT2S", "retryAfterCap=PT10S",
                "requestTimeout=PT5S", "connectTimeout=PT2S"}) {
            assertTrue(text.contains(setting), () -> setting + " missing from " + text);
        }
    }

    @ParameterizedTest
    @ValueSource(chars = {'!', '~', 'a', '0'})
    void theFirstAndLastVisibleAsciiCharactersAreLegalKeys(char c) {
        assertEquals("k" + c, new SeatRequested("k" + c, "ws", "u").requestId());
        assertEquals(String.valueOf(c), new SeatRequested(String.valueOf(c), "ws", "u").requestId());
    }

    @ParameterizedTest
    @ValueSource(chars = {' ', '\u007f', '\u001f', '\u0080'})
    void theCharactersJustOutsideVisibleAsciiAreNot(char c) {
        assertThrows(IllegalArgumentException.class, () -> new SeatRequested("k" + c, "ws", "u"));
    }

    @Test
    void aKeyIsOneTo255Characters() {
        assertEquals(SeatRequested.MAX_REQUEST_ID_LENGTH, 255);
        assertEquals(1, new SeatRequested("k", "ws", "u").requestId().length());
        assertEquals(255, new SeatRequested("k".repeat(255), "ws", "u").requestId().length());
        assertThrows(IllegalArgumentException.class, () -> new SeatRequested("k".repeat(256), "ws", "u"));
        assertThrows(IllegalArgumentException.class, () -> new SeatRequested("", "ws", "u"));
    }

    @Test
    void aSubMillisecondBaseDelayMeansNoComputedWait() {
        // The builder accepts any positive duration; below a millisecond the jitter ceiling is 0, not maxDelay.
        Backoff backoff = new Backoff(Duration.ofNanos(500_000), Duration.ofSeconds(2), Duration.ofSeconds(10));
        assertEquals(0, backoff.ceilingMillis(1));
        Instant now = Instant.parse("2026-01-01T00:00:00Z");
        assertEquals(Optional.of(Duration.ZERO), backoff.next(1, Optional.empty(), now, now.plusSeconds(60), 0.99));
    }

    @Test
    void aRetryAfterExactlyAtTheCapIsHonouredInFull() {
        Backoff backoff = new Backoff(Duration.ofMillis(100), Duration.ofSeconds(2), Duration.ofSeconds(10));
        Instant now = Instant.parse("2026-01-01T00:00:00Z");
        assertEquals(Optional.of(Duration.ofSeconds(10)), backoff.next(1, Optional.of("10"), now, now.plusSeconds(60), 0.5));
        assertEquals(Optional.of(Duration.ofSeconds(9)), backoff.next(1, Optional.of("9"), now, now.plusSeconds(60), 0.5));
        assertEquals(Optional.of(Duration.ofSeconds(10)), backoff.next(1, Optional.of("11"), now, now.plusSeconds(60), 0.5));
    }

    @Test
    void theRandomDrawMustBeInZeroToOne() {
        Backoff backoff = new Backoff(Duration.ofMillis(100), Duration.ofSeconds(2), Duration.ofSeconds(10));
        Instant now = Instant.parse("2026-01-01T00:00:00Z");
        assertThrows(IllegalArgumentException.class, () -> backoff.next(1, Optional.empty(), now, now.plusSeconds(60), -0.01));
        assertThrows(IllegalArgumentException.class, () -> backoff.next(1, Optional.empty(), now, now.plusSeconds(60), 1.0));
        assertEquals(Optional.of(Duration.ZERO), backoff.next(1, Optional.empty(), now, now.plusSeconds(60), 0.0));
    }
}
