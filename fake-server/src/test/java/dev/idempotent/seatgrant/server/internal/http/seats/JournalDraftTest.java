package dev.idempotent.seatgrant.server.internal.http.seats;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;

import dev.idempotent.seatgrant.server.JournalEntry;
import java.time.Instant;
import org.junit.jupiter.api.Test;

/**
 * A journaled status is one shared boxed value per HTTP status, not a new {@code Integer} per request: the journal
 * keeps 100,000 entries, each one a young collection copies (docs/benchmarks.md, the in-memory tail).
 */
class JournalDraftTest {

    private static JournalEntry answered(Integer status) {
        return JournalDraft.of(Instant.EPOCH, "POST", "/v1/seats", false).entry(1, null, true, "seat_1", status);
    }

    @Test
    void everyStatusIsOneSharedBoxedValue() {
        for (int status : new int[] {100, 201, 409, 503, 599}) {
            JournalEntry first = answered(Integer.valueOf(status));
            JournalEntry second = answered(Integer.valueOf(status));
            assertEquals(status, first.status());
            assertSame(first.status(), second.status(), "status " + status);
        }
    }

    @Test
    void aStatusOutsideHttpsRangeOrNoneIsKeptAsGiven() {
        assertNull(answered(null).status());
        assertEquals(700, answered(700).status());
        assertEquals(42, answered(42).status());
    }
}
