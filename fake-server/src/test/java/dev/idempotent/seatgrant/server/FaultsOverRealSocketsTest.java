package dev.idempotent.seatgrant.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * One scenario per fault, over real sockets with the JDK's HttpClient: what the client sees, then what the
 * journal and the ledger say happened. The README's fault table is these assertions in prose.
 */
class FaultsOverRealSocketsTest extends SharedServerTest {

    /** What java.net.http says when a connection ends before any response byte, by FIN or by RST alike. */
    private static final class HttpClientSays {
        static final String NO_BYTES = "HTTP/1.1 header parser received no bytes";
    }

    private static void plan(FaultRule rule) {
        server.faultPlan(FaultPlan.of(rule.withMethodAndPath("POST", "/v1/seats")));
    }

    /** The JDK client keeps the socket's own error as a cause: "Connection reset" for an RST, nothing for a FIN. */
    private static boolean causedByReset(Throwable e) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t instanceof java.net.SocketException && String.valueOf(t.getMessage()).contains("Connection reset")) {
                return true;
            }
        }
        return false;
    }

    private static JournalEntry onlyEntry() {
        List<JournalEntry> journal = server.journal();
        assertEquals(1, journal.size(), journal::toString);
        return journal.get(0);
    }

    @Test
    void resetBeforeCommitIsAConnectionResetAndWritesNothing() throws IOException {
        plan(FaultRule.of(Fault.RESET));

        IOException e = assertThrows(IOException.class, () -> http.grant("k-reset", Http.BODY));

        // The JDK client reports an RST with the same message as an empty reply; its cause and the raw socket tell.
        assertEquals(HttpClientSays.NO_BYTES, e.getMessage());
        assertTrue(causedByReset(e), "an RST shows as a SocketException cause");
        JournalEntry entry = onlyEntry();
        assertEquals("reset", entry.fault());
        assertFalse(entry.committed());
        assertNull(entry.status());
        assertEquals(0, server.ledger().seats());
        assertEquals(Wire.Seen.RESET, Wire.exchange(server.baseUri(), Wire.seatPost("k-reset2", Http.BODY), 5000).seen());
        assertEquals(0, server.ledger().seats());
    }

    @Test
    void closeBeforeCommitIsAnEmptyResponseAndWritesNothing() throws IOException {
        plan(FaultRule.of(Fault.CLOSE));

        IOException e = assertThrows(IOException.class, () -> http.grant("k-close", Http.BODY));

        assertEquals(HttpClientSays.NO_BYTES, e.getMessage());
        assertFalse(causedByReset(e), "a FIN has no socket error under it");
        JournalEntry entry = onlyEntry();
        assertEquals("close", entry.fault());
        assertFalse(entry.committed());
        assertNull(entry.status());
        assertEquals(0, server.ledger().seats());
        assertEquals(Wire.Seen.EOF, Wire.exchange(server.baseUri(), Wire.seatPost("k-close2", Http.BODY), 5000).seen());
    }

    @Test
    void statusBeforeCommitAnswersWithRetryAfterAndWritesNothing() throws Exception {
        plan(FaultRule.of(Fault.STATUS, 503).withRetryAfter(2));

        HttpResponse<String> response = http.grant("k-503", Http.BODY);

        assertEquals(503, response.statusCode());
        assertEquals("2", response.headers().firstValue("Retry-After").orElseThrow());
        assertEquals("application/problem+json", response.headers().firstValue("Content-Type").orElseThrow());
        assertEquals(503, Http.json(response.body()).get("status").asInt());
        JournalEntry entry = onlyEntry();
        assertEquals("status", entry.fault());
        assertEquals(503, entry.status());
        assertFalse(entry.committed());
        assertEquals(0, server.ledger().seats());
    }

    @Test
    void delayServesNormallyAfterTheWait() throws Exception {
        plan(FaultRule.of(Fault.DELAY).withDelayMs(300));

        long started = System.nanoTime();
        HttpResponse<String> response = http.grant("k-delay", Http.BODY);
        long tookMs = Duration.ofNanos(System.nanoTime() - started).toMillis();

        assertEquals(201, response.statusCode());
        assertTrue(tookMs >= 300, "answered after " + tookMs + " ms, before the delay ran out");
        JournalEntry entry = onlyEntry();
        assertEquals("delay", entry.fault());
        assertTrue(entry.committed());
        assertEquals(201, entry.status());
        assertEquals(1, server.ledger().seats());
    }

    @Test
    void resetAfterCommitLosesTheAnswerButNotTheSeatAndTheRetryIsAReplay() throws Exception {
        plan(FaultRule.of(Fault.RESET_AFTER_COMMIT).withAttempt(1));

        IOException e = assertThrows(IOException.class, () -> http.grant("k-rac", Http.BODY));
        assertEquals(HttpClientSays.NO_BYTES, e.getMessage());
        assertTrue(causedByReset(e), "an RST shows as a SocketException cause");

        JournalEntry entry = onlyEntry();
        assertEquals("reset-after-commit", entry.fault());
        assertTrue(entry.committed());
        assertNotNull(entry.seatId());
        assertNull(entry.status());
        assertEquals(1, server.ledger().seats());

        HttpResponse<String> retry = http.grant("k-rac", Http.BODY);
        assertEquals(409, retry.statusCode());
        assertEquals("true", retry.headers().firstValue("Idempotent-Replayed").orElseThrow());
        assertEquals(entry.seatId(), Http.json(retry.body()).get("id").asText());
        assertEquals(1, server.ledger().seats());
        assertEquals(List.of(), server.ledger().duplicates());
        assertEquals(Wire.Seen.RESET, Wire.exchange(server.baseUri(), Wire.seatPost("k-rac2", Http.BODY), 5000).seen());
        assertEquals(2, server.ledger().seats());
    }

    @Test
    void closeAfterCommitLosesTheAnswerButNotTheSeat() throws IOException {
        plan(FaultRule.of(Fault.CLOSE_AFTER_COMMIT));

        IOException e = assertThrows(IOException.class, () -> http.grant("k-cac", Http.BODY));

        assertEquals(HttpClientSays.NO_BYTES, e.getMessage());
        assertFalse(causedByReset(e), "a FIN has no socket error under it");
        JournalEntry entry = onlyEntry();
        assertEquals("close-after-commit", entry.fault());
        assertTrue(entry.committed());
        assertNull(entry.status());
        assertEquals(1, server.ledger().seats());
        assertEquals(Wire.Seen.EOF, Wire.exchange(server.baseUri(), Wire.seatPost("k-cac2", Http.BODY), 5000).seen());
        assertEquals(2, server.ledger().seats());
    }

    @Test
    void hangAfterCommitMakesTheClientTimeOutWithTheSeatWritten() {
        plan(FaultRule.of(Fault.HANG_AFTER_COMMIT).withDelayMs(30_000));
        HttpRequest request = http.postSeat("k-hang", Http.BODY).timeout(Duration.ofMillis(500)).build();

        assertThrows(HttpTimeoutException.class,
                () -> http.client().send(request, HttpResponse.BodyHandlers.ofString()));

        JournalEntry entry = onlyEntry();
        assertEquals("hang-after-commit", entry.fault());
        assertTrue(entry.committed());
        assertNull(entry.status());
        assertEquals(1, server.ledger().seats());
    }

    @Test
    void statusAfterCommitWithoutAKeyIsTheIncident() throws Exception {
        plan(FaultRule.of(Fault.STATUS_AFTER_COMMIT, 504).withAttempt(1));

        HttpResponse<String> first = http.grant(null, Http.BODY);
        assertEquals(504, first.statusCode());
        HttpResponse<String> retry = http.grant(null, Http.BODY);
        assertEquals(201, retry.statusCode());

        List<JournalEntry> journal = server.journal();
        assertEquals(List.of(1, 2), journal.stream().map(JournalEntry::attempt).toList());
        assertEquals("status-after-commit", journal.get(0).fault());
        assertEquals(504, journal.get(0).status());
        assertTrue(journal.get(0).committed());
        assertTrue(journal.get(1).committed());
        Ledger ledger = server.ledger();
        assertEquals(2, ledger.seats());
        assertEquals(1, ledger.duplicates().size());
        assertEquals(List.of(journal.get(0).seatId(), journal.get(1).seatId()), ledger.duplicates().get(0).seatIds());
    }

    @Test
    void statusAfterCommitWithAKeyIsHealedByTheReplay() throws Exception {
        plan(FaultRule.of(Fault.STATUS_AFTER_COMMIT, 504).withAttempt(1));

        assertEquals(504, http.grant("k-504", Http.BODY).statusCode());
        HttpResponse<String> retry = http.grant("k-504", Http.BODY);

        assertEquals(409, retry.statusCode());
        JsonNode seat = Http.json(retry.body());
        assertEquals(server.journal().get(0).seatId(), seat.get("id").asText());
        assertEquals(1, server.ledger().seats());
        assertEquals(1, server.ledger().keys());
        assertEquals(List.of(), server.ledger().duplicates());
    }

    @Test
    void a204StatusFaultSendsNoBodySoTheKeptAliveConnectionStillWorks() throws Exception {
        plan(FaultRule.of(Fault.STATUS, 204).withTimes(1));

        HttpResponse<String> faulted = http.grant("k-204", Http.BODY);
        // The client keeps the connection; a body after the 204 would be read as the next response's head.
        HttpResponse<String> next = http.grant("k-204", Http.BODY);

        assertEquals(204, faulted.statusCode());
        assertEquals("", faulted.body());
        assertEquals(201, next.statusCode());
        assertEquals(1, server.ledger().seats());
    }

    @Test
    void theFirstMatchingRuleWinsAndLaterRequestsPassUntouched() throws Exception {
        server.faultPlan(FaultPlan.of(
                FaultRule.of(Fault.STATUS, 429).withTimes(1),
                FaultRule.of(Fault.STATUS, 503).withTimes(1)));

        assertEquals(429, http.grant("k-a", Http.BODY).statusCode());
        assertEquals(503, http.grant("k-a", Http.BODY).statusCode());
        assertEquals(201, http.grant("k-a", Http.BODY).statusCode());
    }
}
