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
 * journal holding exactly its capacity and dropping the oldest past it (and what a follower of it sees), and which UTF-16 text counts as valid.
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

    private static JournalEntry entry(String key) {
        return new JournalEntry(0, Instant.parse("2026-01-01T00:00:00Z"), "POST", "/v1/seats", key, "ws", "u", 1, null,
                true, null, 201, true, 3L);
    }

    private static List<String> keys(List<JournalEntry> entries) {
        return entries.stream().map(JournalEntry::idempotencyKey).toList();
    }

    @Test
    void theJournalHoldsExactlyItsCapacityAndDropsTheOldestPastIt() {
        Journal journal = new Journal(3);
        for (String key : List.of("k1", "k2", "k3")) {
            journal.record(entry(key), true);
        }
        assertEquals(List.of("k1", "k2", "k3"), keys(journal.snapshot()));

        assertEquals(4, journal.record(entry("k4"), true));

        assertEquals(List.of("k2", "k3", "k4"), keys(journal.snapshot()));
        assertEquals(List.of(2L, 3L, 4L), journal.snapshot().stream().map(JournalEntry::seq).toList());
        assertEquals(List.of("k3", "k4"), keys(journal.after(2)));
        assertEquals(List.of("k2", "k3", "k4"), keys(journal.after(0)), "after an evicted seq: what is left");
    }

    @Test
    void aJournalOfOneIsTheSmallestAndKeepsTheLatest() {
        Journal journal = new Journal(1);
        journal.record(entry("k1"), true);
        journal.record(entry("k2"), true);
        assertEquals(List.of("k2"), keys(journal.snapshot()));
        assertEquals(1, journal.capacity());
        assertThrows(IllegalArgumentException.class, () -> new Journal(0));
        assertEquals(Journal.DEFAULT_CAPACITY, new Journal().capacity());
    }

    @Test
    void aFollowerStopsAtTheFirstUnsettledEntryAndSeesItOnceSettled() {
        Journal journal = new Journal(8);
        journal.record(entry("k1"), true);
        long writing = journal.record(entry("k2"), false);
        journal.record(entry("k3"), true);
        assertEquals(List.of("k1"), keys(journal.after(0)));

        journal.settle(writing, null);

        assertEquals(List.of("k1", "k2", "k3"), keys(journal.after(0)));
        assertEquals(false, journal.snapshot().get(1).sent());
        assertEquals(true, journal.snapshot().get(0).sent());
    }

    @Test
    void clearingKeepsTheSequenceGoing() {
        Journal journal = new Journal(4);
        journal.record(entry("k1"), true);
        journal.record(entry("k2"), true);
        journal.clear();
        assertEquals(List.of(), journal.snapshot());
        assertEquals(3, journal.record(entry("k3"), true));
        assertEquals(List.of("k3"), keys(journal.after(0)));
        journal.settle(1, 5L);
        assertEquals(List.of("k3"), keys(journal.snapshot()), "settling a cleared seq changes nothing");
    }
}
