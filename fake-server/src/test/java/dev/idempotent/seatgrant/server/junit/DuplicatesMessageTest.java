package dev.idempotent.seatgrant.server.junit;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.idempotent.seatgrant.server.FakeServer.Duplication;
import dev.idempotent.seatgrant.server.JournalEntry;
import java.time.Instant;
import java.util.Collections;
import java.util.List;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/** How each kind of journal entry reads in the message, and where a long story is cut. */
class DuplicatesMessageTest {

    private static JournalEntry entry(long seq, String key, int attempt, String fault, boolean committed,
                                      String seatId, Integer status, boolean sent) {
        return new JournalEntry(seq, Instant.EPOCH, "POST", "/v1/seats", key, "ws_1", "user_1", attempt, fault,
                committed, seatId, status, sent, sent ? 0L : null);
    }

    @Test
    void eachOutcomeInWords() {
        assertEquals("#1 POST /v1/seats, attempt 1, key k: committed seat_a; fault reset-after-commit sent no answer",
                DuplicatesMessage.request(entry(1, "k", 1, "reset-after-commit", true, "seat_a", null, false)));
        assertEquals("#2 POST /v1/seats, attempt 2, key k: replayed seat_a; answered 409",
                DuplicatesMessage.request(entry(2, "k", 2, null, false, "seat_a", 409, true)));
        assertEquals("#3 POST /v1/seats, attempt 1, no key: wrote nothing; fault status answered 503",
                DuplicatesMessage.request(entry(3, null, 1, "status", false, null, 503, true)));
        assertEquals("#4 POST /v1/seats, attempt 3, no key: committed seat_b; answer 201 not (yet) sent in full",
                DuplicatesMessage.request(entry(4, null, 3, null, true, "seat_b", 201, false)));
        assertEquals("#5 POST /v1/seats, key k: wrote nothing; answered 415",
                DuplicatesMessage.request(entry(5, "k", 0, null, false, null, 415, true)),
                "a request refused before the fault plan has no attempt number");
        assertEquals("#6 GET /v1/seats, attempt 1, no key: wrote nothing; answered 200",
                DuplicatesMessage.request(new JournalEntry(6, Instant.EPOCH, "GET", "/v1/seats", null, "ws_1",
                        "user_1", 1, null, false, null, 200, true, 0L)));
    }

    @Test
    void aSubjectWhoseRequestsTheJournalNoLongerHolds() {
        assertEquals("""
                Expected at most one resource per operation; found 1 duplicate:
                  operation op-7 has 2 resources: r1, r2; keys: op-7; none of its requests is left in the journal""",
                DuplicatesMessage.describe(List.of(
                        new Duplication("operation op-7", "resource", List.of("r1", "r2"), List.of("op-7"), List.of()))));
    }

    @Test
    void longStoriesAreCutWithACountOfTheRest() {
        List<JournalEntry> requests = IntStream.rangeClosed(1, DuplicatesMessage.MAX_REQUESTS + 3)
                .mapToObj(i -> entry(i, null, i, null, true, "seat_" + i, 201, true)).toList();
        Duplication many = new Duplication("user user_1 in workspace ws_1", "seat",
                requests.stream().map(JournalEntry::seatId).toList(), List.of(), requests);

        List<String> lines = DuplicatesMessage.describe(
                Collections.nCopies(DuplicatesMessage.MAX_SUBJECTS + 2, many)).lines().toList();

        assertEquals("Expected at most one seat per user; found 22 duplicates:",
                lines.get(0));
        int perSubject = 1 + DuplicatesMessage.MAX_REQUESTS + 1;
        assertEquals(1 + DuplicatesMessage.MAX_SUBJECTS * perSubject + 1, lines.size());
        assertEquals("    #20 POST /v1/seats, attempt 20, no key: committed seat_20; answered 201",
                lines.get(DuplicatesMessage.MAX_REQUESTS + 1));
        assertEquals("    ... and 3 more requests", lines.get(perSubject));
        assertEquals("  ... and 2 more duplicates", lines.get(lines.size() - 1));
    }
}
