package dev.idempotent.seatgrant.server.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.idempotent.seatgrant.server.JournalEntry;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Settling journal entries at the edges of the ring: the oldest entry still kept can be settled, while a seq
 * already dropped or not yet given out changes nothing, even when its slot is shared with a kept entry.
 */
class JournalSettleTest {

    private static JournalEntry entry(String key) {
        return new JournalEntry(0, Instant.parse("2026-01-01T00:00:00Z"), "POST", "/v1/seats", key, "ws", "u", 1,
                null, true, null, 201, false, null);
    }

    private static List<Boolean> sent(Journal journal) {
        return journal.snapshot().stream().map(JournalEntry::sent).toList();
    }

    @Test
    void theOldestEntryKeptCanBeSettled() {
        Journal journal = new Journal(2);
        journal.record(entry("k1"), false);
        journal.record(entry("k2"), false);
        journal.record(entry("k3"), false);

        journal.settle(2, 5L);

        assertEquals(List.of(true, false), sent(journal), "seq 2 is the oldest kept");
        assertEquals(List.of("k2"), journal.after(0).stream().map(JournalEntry::idempotencyKey).toList(),
                "a follower reads up to the first unsettled entry");
    }

    @Test
    void aDroppedSeqChangesNothingThoughItsSlotIsReused() {
        Journal journal = new Journal(2);
        journal.record(entry("k1"), false);
        journal.record(entry("k2"), false);
        journal.record(entry("k3"), false);

        // Seq 1 was dropped; its slot now holds seq 3.
        journal.settle(1, 5L);

        assertEquals(List.of(false, false), sent(journal));
        assertEquals(List.of(), journal.after(0));
    }

    @Test
    void aSeqNotYetGivenOutChangesNothingThoughItsSlotIsInUse() {
        Journal journal = new Journal(2);
        journal.record(entry("k1"), false);
        journal.record(entry("k2"), false);

        // Seq 3 is next; its slot holds seq 1 until it is recorded.
        journal.settle(3, 5L);

        assertEquals(List.of(false, false), sent(journal));
        assertEquals(List.of(), journal.after(0), "seq 1 is still unsettled");
        assertEquals(3, journal.record(entry("k3"), true));
    }
}
