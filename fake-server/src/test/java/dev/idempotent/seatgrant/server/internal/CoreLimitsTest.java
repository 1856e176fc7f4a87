package dev.idempotent.seatgrant.server.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.idempotent.seatgrant.server.JournalEntry;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The server core's size limits at their exact edges: a grant field of 255 characters and one of 256, the
 * journal holding exactly its capacity and dropping the oldest past it, and which UTF-16 text counts as valid.
 */
class CoreLimitsTest {

    private static byte[] body(String workspaceId, String userId) {
        return ("{\"workspaceId\":\"" + workspaceId + "\",\"userId\":\"" + userId + "\",\"role\":\"member\"}")
                .getBytes(StandardCharsets.UTF_8);
    }

    private static GrantRequest.Invalid refused(byte[] body) {
        return assertThrows(GrantRequest.Invalid.class, () -> GrantRequest.parse(body));
    }

    @Test
    void aFieldMayBe255CharactersButNot256() throws Exception {
        assertEquals(255, GrantRequest.parse(body("w".repeat(255), "u")).workspaceId().length());
        GrantRequest.Invalid tooLong = refused(body("w", "u".repeat(256)));
        assertEquals("invalid-field", tooLong.slug());
        assertTrue(tooLong.getMessage().contains("userId must be at most 255"), tooLong.getMessage());
    }

    @Test
    void aSurrogatePairIsOneValidCharacter() throws Exception {
        // U+1F600 as a JSON escape: a high then a low surrogate, anywhere in the field.
        String emoji = "\\ud83d\\ude00";
        assertEquals("u\uD83D\uDE00", GrantRequest.parse(body("w", "u" + emoji)).userId());
        assertEquals("\uD83D\uDE00u", GrantRequest.parse(body("w", emoji + "u")).userId());
        assertEquals("\uD83D\uDE00\uD83D\uDE00", GrantRequest.parse(body("w", emoji + emoji)).userId());
    }

    @Test
    void halfASurrogatePairIsRefusedWherever() {
        for (String half : new String[] {"\\ud83du", "u\\ud83d", "\\ude00u", "u\\ude00", "\\ude00\\ud83d"}) {
            GrantRequest.Invalid e = refused(body("w", half));
            assertTrue(e.getMessage().contains("valid Unicode"), half + ": " + e.getMessage());
        }
    }

    @Test
    void theJournalHoldsExactlyItsCapacityAndDropsTheOldestPastIt() {
        Journal journal = new Journal();
        Instant at = Instant.parse("2026-01-01T00:00:00Z");
        for (int i = 1; i <= Journal.CAPACITY; i++) {
            journal.record(journal.arrive(), new JournalEntry(at, "POST", "/v1/seats", "k" + i, 1, null, true, null, 201));
        }
        List<JournalEntry> full = journal.snapshot();
        assertEquals(Journal.CAPACITY, full.size());
        assertEquals("k1", full.get(0).idempotencyKey());

        journal.record(journal.arrive(), new JournalEntry(at, "POST", "/v1/seats", "k-last", 1, null, true, null, 201));

        List<JournalEntry> after = journal.snapshot();
        assertEquals(Journal.CAPACITY, after.size());
        assertEquals("k2", after.get(0).idempotencyKey());
        assertEquals("k-last", after.get(after.size() - 1).idempotencyKey());
    }
}
