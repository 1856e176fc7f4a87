package dev.idempotent.seatgrant.server.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.idempotent.seatgrant.server.JournalEntry;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/**
 * Settling journal entries at the edges of the ring: the oldest entry still kept can be settled, while a seq
 * already dropped or not yet given out changes nothing, even when its slot is shared with a kept entry. A settled
 * snapshot waits for answers still being written, and no longer than its bound or the entry's own settle wait.
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

    @Test
    void aSettledSnapshotWaitsForTheAnswerBeingWritten() throws Exception {
        Journal journal = new Journal(10);
        journal.record(entry("k1"), true);
        long seq = journal.record(entry("k2"), false);

        // The write completes on another thread while the reader waits; the wait is bounded far above it.
        CompletableFuture<List<JournalEntry>> read = CompletableFuture.supplyAsync(() -> {
            try {
                return journal.settledSnapshot(Duration.ofMinutes(1));
            } catch (InterruptedException e) {
                throw new IllegalStateException(e);
            }
        });
        journal.settle(seq, 7L);

        List<JournalEntry> entries = read.get(30, TimeUnit.SECONDS);
        assertEquals(List.of(false, true), entries.stream().map(JournalEntry::sent).toList(),
                "k1 was settled at once as not sent, as a fault's entry is; k2 once its answer was written");
        assertEquals(7L, entries.get(1).answeredMs());
    }

    @Test
    void aSettledSnapshotSettlesAnAnswerItsReaderStoppedTakingAsNotSent() throws Exception {
        AtomicLong now = new AtomicLong();
        Journal journal = new Journal(10, Journal.MAX_BYTES, Duration.ofSeconds(1), now::get);
        long seq = journal.record(entry("k1"), false);
        now.addAndGet(TimeUnit.MILLISECONDS.toNanos(1_001));

        // The wait's own bound is a minute: it ends at once because the entry's settle wait has passed.
        long started = System.nanoTime();
        List<JournalEntry> entries = journal.settledSnapshot(Duration.ofMinutes(1));

        assertEquals(List.of(false), entries.stream().map(JournalEntry::sent).toList());
        assertTrue(System.nanoTime() - started < TimeUnit.SECONDS.toNanos(30), "no wait for an expired answer");
        journal.settle(seq, 5L);
        assertEquals(List.of(false), sent(journal), "settled as not sent for good");
    }

    @Test
    void aSettledSnapshotWaitsNoLongerThanItsBound() throws Exception {
        Journal journal = new Journal(10, Journal.MAX_BYTES, Duration.ofDays(1), System::nanoTime);
        journal.record(entry("k1"), false);

        List<JournalEntry> entries = journal.settledSnapshot(Duration.ofMillis(20));

        assertEquals(List.of(false), entries.stream().map(JournalEntry::sent).toList(), "still being written");
    }

    @Test
    void anInterruptedReaderGetsTheEntriesAsTheyStandAndKeepsItsInterrupt() {
        // A settle wait of a day: only the interrupt can end this read before the test times out.
        Journal journal = new Journal(10, Journal.MAX_BYTES, Duration.ofDays(1), System::nanoTime);
        journal.record(entry("k1"), false);

        Thread.currentThread().interrupt();
        try {
            List<JournalEntry> entries = journal.settledSnapshot();

            assertEquals(List.of(false), entries.stream().map(JournalEntry::sent).toList(), "still being written");
            assertTrue(Thread.currentThread().isInterrupted(), "the interrupt is kept for the caller to see");
        } finally {
            Thread.interrupted();
        }
    }
}
