package dev.idempotent.seatgrant.server.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.idempotent.seatgrant.server.JournalEntry;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/**
 * The journal's new bounds (issue 20 items 1, 5 and 10) at their edges, with a clock the test moves: the byte
 * bound drops the oldest entries, a client's string is cut to 1 KiB of JSON without splitting a character, an
 * answer that waits longer than a second on its reader is settled as not sent for good, and a slice says where
 * the next one starts and whether there is more.
 */
class JournalBoundsTest {

    private static final Instant AT = Instant.parse("2026-01-01T00:00:00Z");

    private final AtomicLong now = new AtomicLong();

    private Journal journal(int capacity, long maxBytes) {
        return new Journal(capacity, maxBytes, Duration.ofSeconds(1), now::get);
    }

    private static JournalEntry entry(String key) {
        return new JournalEntry(0, AT, "POST", "/v1/seats", key, "ws", "u", 1, null, true, null, 201, false, null);
    }

    private static JournalEntry withPath(String path) {
        return new JournalEntry(0, AT, "GET", path, null, null, null, 1, null, false, null, 404, false, null);
    }

    private static List<String> keys(List<JournalEntry> entries) {
        return entries.stream().map(JournalEntry::idempotencyKey).toList();
    }

    @Test
    void theByteBoundDropsTheOldestAndExactlyTheBoundIsKept() {
        int size = Journal.estimatedBytes(entry("k1"));
        Journal journal = journal(100, 3L * size);
        for (String key : List.of("k1", "k2", "k3")) {
            journal.record(entry(key), true);
        }
        assertEquals(List.of("k1", "k2", "k3"), keys(journal.snapshot()), "exactly the bound is kept whole");
        assertEquals(3L * size, journal.bytes());

        journal.record(entry("k4"), true);

        assertEquals(List.of("k2", "k3", "k4"), keys(journal.snapshot()));
        assertEquals(3L * size, journal.bytes());
        journal.clear();
        assertEquals(0, journal.bytes());
    }

    @Test
    void aLargeEntryPushesOutAsManyAsItNeeds() {
        int small = Journal.estimatedBytes(entry("k1"));
        Journal journal = journal(100, 4L * small);
        for (String key : List.of("k1", "k2", "k3", "k4")) {
            journal.record(entry(key), true);
        }
        JournalEntry large = withPath("/v1/" + "p".repeat(600));

        journal.record(large, true);

        int bytes = Journal.estimatedBytes(journal.snapshot().get(journal.snapshot().size() - 1));
        long kept = journal.snapshot().size() - 1;
        assertTrue(bytes > 2 * small, "the large one costs more than two small ones");
        assertTrue(kept * small + bytes <= 4L * small, kept + " small entries kept beside it");
        assertTrue((kept + 1) * small + bytes > 4L * small, "and no fewer than fit");
        assertEquals(kept * small + bytes, journal.bytes());
    }

    @Test
    void theEstimateCountsEveryStringAsTheHeapHoldsIt() {
        JournalEntry bare = new JournalEntry(0, AT, "G", "/", null, null, null, 0, null, false, null, null, false, null);
        JournalEntry longer = new JournalEntry(0, AT, "GE", "/a", "k", "w", "u", 0, "reset", false, "seat", null, false,
                null);
        int base = Journal.estimatedBytes(bare);
        assertEquals(200 + (40 + 1) + (40 + 1), base, "a fixed 200 bytes, and a header and a byte a Latin-1 character");
        assertEquals(base + 1 + 1 + 3 * (40 + 1) + (40 + 5) + (40 + 4), Journal.estimatedBytes(longer));
        JournalEntry latin1 = withPath("/caf\u00e9");
        JournalEntry wide = withPath("/caf\u4e2d");
        assertEquals(Journal.estimatedBytes(latin1) + 5, Journal.estimatedBytes(wide), "two bytes a character past Latin-1");
        assertEquals(Journal.estimatedBytes(latin1), Journal.estimatedBytes(withPath("/caf\u00ff")), "\u00ff is Latin-1");
    }

    @Test
    void aClientStringIsCutToOneKibOfJsonAndTheEntrySaysSo() {
        Journal journal = journal(10, Journal.MAX_BYTES);
        journal.record(withPath("/v1/" + "p".repeat(8_000)), true);
        journal.record(withPath("/v1/ok"), true);

        JournalEntry cut = journal.snapshot().get(0);
        assertEquals(JournalEntry.MAX_CLIENT_STRING_BYTES, cut.path().length());
        assertTrue(cut.path().startsWith("/v1/ppp"));
        assertTrue(cut.cut());
        JournalEntry whole = journal.snapshot().get(1);
        assertEquals("/v1/ok", whole.path());
        assertFalse(whole.cut());
    }

    @Test
    void everyClientStringIsCutAndTheServersAreNot() {
        String big = "b".repeat(2_000);
        JournalEntry e = new JournalEntry(0, AT, big, big, big, big, big, 1, "reset", false, "seat_1", null, false,
                null).withClientStringsCut();

        for (String s : List.of(e.method(), e.path(), e.idempotencyKey(), e.workspaceId(), e.userId())) {
            assertEquals(1024, s.length());
        }
        assertEquals("reset", e.fault());
        assertEquals("seat_1", e.seatId());
        assertTrue(e.cut());
        JournalEntry exactly = withPath("q".repeat(1024));
        assertSame(exactly, exactly.withClientStringsCut(), "1024 bytes fit: nothing to cut");
        assertEquals(1024, withPath("q".repeat(1025)).withClientStringsCut().path().length());
    }

    @Test
    void theCutCountsBytesAsTheJsonWritesThemAndNeverSplitsACharacter() {
        // A control character is a six-byte escape, a quote or backslash two, é two, 中 three, an emoji four.
        assertEquals(170, withPath("\u0001".repeat(400)).withClientStringsCut().path().length());
        assertEquals(512, withPath("\"".repeat(600)).withClientStringsCut().path().length());
        assertEquals(512, withPath("\\".repeat(600)).withClientStringsCut().path().length());
        assertEquals(512, withPath("\u00e9".repeat(600)).withClientStringsCut().path().length());
        assertEquals(341, withPath("\u4e2d".repeat(600)).withClientStringsCut().path().length());
        assertEquals(1024, withPath("\u007f".repeat(1100)).withClientStringsCut().path().length(), "DEL is one byte");
        String emoji = "a" + "\uD83D\uDE00".repeat(300);
        String kept = withPath(emoji).withClientStringsCut().path();
        assertEquals(1 + 2 * 255, kept.length(), "1 + 255 * 4 = 1021 bytes; one more emoji would be 1025");
        assertTrue(Character.isLowSurrogate(kept.charAt(kept.length() - 1)), "never half a pair");
        String lone = "\uD83D".repeat(400);
        assertEquals(341, withPath(lone).withClientStringsCut().path().length(), "a lone surrogate is three bytes");
    }

    @Test
    void anAnswerThatWaitsMoreThanASecondOnItsReaderIsSettledAsNotSentForGood() {
        Journal journal = journal(10, Journal.MAX_BYTES);
        journal.record(entry("k1"), true);
        long stalled = journal.record(entry("k2"), false);
        journal.record(entry("k3"), true);

        now.set(Duration.ofMillis(1_000).toNanos());
        assertEquals(List.of("k1"), keys(journal.after(0)), "a second is not more than a second");

        now.set(Duration.ofMillis(1_001).toNanos());
        List<JournalEntry> followed = journal.after(0);
        assertEquals(List.of("k1", "k2", "k3"), keys(followed));
        assertFalse(followed.get(1).sent());
        assertNull(followed.get(1).answeredMs());

        journal.settle(stalled, 1_500L);

        assertFalse(journal.snapshot().get(1).sent(), "a late end of the write changes nothing");
    }

    @Test
    void aWriteThatEndsAfterTheWaitIsNotSentEvenIfNobodyAskedMeanwhile() {
        Journal journal = journal(10, Journal.MAX_BYTES);
        long slow = journal.record(entry("k1"), false);
        long quick = journal.record(entry("k2"), false);
        journal.settle(quick, 3L);

        now.set(Duration.ofMillis(1_001).toNanos());
        journal.settle(slow, 1_001L);

        assertFalse(journal.snapshot().get(0).sent(), "the same rule whether or not a follower was waiting");
        assertTrue(journal.snapshot().get(1).sent());
        assertEquals(3L, journal.snapshot().get(1).answeredMs());
    }

    @Test
    void aWholeListingShowsAnUnsettledEntryAsNotSentWithoutSettlingIt() {
        Journal journal = journal(10, Journal.MAX_BYTES);
        long writing = journal.record(entry("k1"), false);
        now.set(Duration.ofSeconds(5).toNanos());

        Journal.Slice whole = journal.slice(0, Long.MAX_VALUE, 10, false);

        assertEquals(1, whole.entries().size());
        assertFalse(whole.entries().get(0).sent());
        journal.settle(writing, 4L);
        assertFalse(journal.snapshot().get(0).sent(), "it waited five seconds: not sent");
    }

    @Test
    void aSliceSaysWhereTheNextStartsAndWhetherThereIsMore() {
        Journal journal = journal(10, Journal.MAX_BYTES);
        for (int i = 1; i <= 5; i++) {
            journal.record(entry("k" + i), i != 4);
        }

        Journal.Slice full = journal.slice(0, Long.MAX_VALUE, 2, true);
        assertEquals(List.of("k1", "k2"), keys(full.entries()));
        assertTrue(full.more());
        assertEquals(2, full.through());

        Journal.Slice unsettled = journal.slice(2, Long.MAX_VALUE, 10, true);
        assertEquals(List.of("k3"), keys(unsettled.entries()));
        assertTrue(unsettled.more(), "seq 4 is still being written, and 5 follows it");
        assertEquals(3, unsettled.through());

        Journal.Slice blocked = journal.slice(3, Long.MAX_VALUE, 10, true);
        assertEquals(List.of(), blocked.entries());
        assertTrue(blocked.more());
        assertEquals(3, blocked.through());

        Journal.Slice end = journal.slice(4, Long.MAX_VALUE, 10, true);
        assertEquals(List.of("k5"), keys(end.entries()));
        assertFalse(end.more());
        assertEquals(5, end.through());

        Journal.Slice oneLeft = journal.slice(0, Long.MAX_VALUE, 4, false);
        assertEquals(List.of("k1", "k2", "k3", "k4"), keys(oneLeft.entries()));
        assertTrue(oneLeft.more(), "seq 5 is left, exactly one");

        Journal.Slice bounded = journal.slice(0, 3, 10, false);
        assertEquals(List.of("k1", "k2", "k3"), keys(bounded.entries()));
        assertFalse(bounded.more(), "nothing more up to its bound");
    }

    @Test
    void anAfterAtOrPastTheNewestReadsNothingEvenAtTheLargestLong() {
        Journal journal = journal(10, Journal.MAX_BYTES);
        journal.record(entry("k1"), true);
        journal.record(entry("k2"), true);

        for (long after : new long[] {2, 3, Long.MAX_VALUE - 1, Long.MAX_VALUE}) {
            Journal.Slice s = journal.slice(after, Long.MAX_VALUE, 10, true);
            assertEquals(List.of(), s.entries(), "after=" + after);
            assertFalse(s.more(), "after=" + after);
        }
        assertEquals(List.of("k2"), keys(journal.after(1)));
    }

    @Test
    void anAfterOlderThanTheRingStartsAtTheOldestKept() {
        Journal journal = journal(3, Journal.MAX_BYTES);
        for (int i = 1; i <= 5; i++) {
            journal.record(entry("k" + i), true);
        }

        Journal.Slice s = journal.slice(0, Long.MAX_VALUE, 10, true);

        assertEquals(List.of("k3", "k4", "k5"), keys(s.entries()));
        assertEquals(5, s.through());
        Journal.Slice none = journal.slice(1, Long.MAX_VALUE, 0, true);
        assertEquals(2, none.through(), "the seq before the first it could have read");
        assertTrue(none.more());
        Journal.Slice belowTheRing = journal.slice(1, 1, 10, true);
        assertEquals(List.of(), belowTheRing.entries());
        assertEquals(2, belowTheRing.through(), "read on from before the oldest kept, not past it");
    }

    @Test
    void theRingGrowsInOrderAndWrapsAtItsCapacity() {
        Journal journal = journal(40, Journal.MAX_BYTES);
        for (int i = 1; i <= 100; i++) {
            journal.record(entry("k" + i), true);
            List<JournalEntry> kept = journal.snapshot();
            assertEquals(Math.min(i, 40), kept.size());
            assertEquals("k" + i, kept.get(kept.size() - 1).idempotencyKey());
            assertEquals("k" + Math.max(1, i - 39), kept.get(0).idempotencyKey());
            assertEquals(i, journal.lastSeq());
        }
        assertEquals(40, journal.capacity());
        long writing = journal.record(entry("k101"), false);
        journal.settle(writing, 5L);
        journal.settle(writing, null);
        assertEquals(5L, journal.snapshot().get(39).answeredMs(), "settled once: a second settle changes nothing");
    }

    @Test
    void aJournalMustHoldSomethingAndHoldsTheNewestEntryWhateverItsSize() {
        assertThrows(IllegalArgumentException.class, () -> journal(0, 10));
        assertThrows(IllegalArgumentException.class, () -> journal(1, 0));
        Journal tiny = journal(5, 1);
        tiny.record(entry("k1"), true);
        tiny.record(entry("k2"), true);
        assertEquals(List.of("k2"), keys(tiny.snapshot()), "an entry over the whole bound is kept alone");
    }

    @Test
    void aSeqNotYetGivenOutSettlesNothingInAFullRing() {
        // A ring of 16 is full at 16: the slot seq 17 would take is the oldest entry's.
        Journal journal = journal(16, Journal.MAX_BYTES);
        for (int i = 1; i <= 16; i++) {
            journal.record(entry("k" + i), false);
        }

        journal.settle(17, 5L);

        assertFalse(journal.snapshot().get(0).sent(), "seq 1 is not seq 17");
    }
}
