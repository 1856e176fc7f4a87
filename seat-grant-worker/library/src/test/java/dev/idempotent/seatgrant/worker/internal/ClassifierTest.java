package dev.idempotent.seatgrant.worker.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.EOFException;
import java.io.IOException;
import java.net.ConnectException;
import java.net.http.HttpConnectTimeoutException;
import java.net.http.HttpTimeoutException;
import java.util.Optional;
import java.util.OptionalInt;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** The guard clauses, one answer at a time, without a socket. */
class ClassifierTest {

    private static final String SEAT = "{\"id\":\"seat_1\",\"workspaceId\":\"ws_1\",\"userId\":\"u_1\",\"role\":\"member\"}";
    private static final String PROBLEM = "{\"type\":\"about:blank\",\"title\":\"in progress\",\"status\":409}";

    private final Classifier classifier = new Classifier();

    private static Exchange answer(int status, String body) {
        return new Exchange(status, Optional.of("application/json"), Optional.empty(), false, body);
    }

    @Test
    void createdWithSeatIsSuccess() {
        Verdict v = classifier.classify(answer(201, SEAT));
        Verdict.Success s = assertInstanceOf(Verdict.Success.class, v);
        assertEquals("seat_1", s.seatId());
        assertEquals(201, s.status());
    }

    @Test
    void conflictWithSeatIsReplayEvenWithoutHeader() {
        Verdict.Replay r = assertInstanceOf(Verdict.Replay.class, classifier.classify(answer(409, SEAT)));
        assertEquals("seat_1", r.seatId());
    }

    @Test
    void successWithReplayHeaderIsReplay() {
        Exchange replayed = new Exchange(201, Optional.of("application/json"), Optional.empty(), true, SEAT);
        assertInstanceOf(Verdict.Replay.class, classifier.classify(replayed));
    }

    @Test
    void conflictWithProblemBodyIsInProgressAndCarriesRetryAfter() {
        Exchange inProgress = new Exchange(409, Optional.of("application/problem+json"), Optional.of("1"), false, PROBLEM);
        Verdict.Retry r = assertInstanceOf(Verdict.Retry.class, classifier.classify(inProgress));
        assertEquals(OptionalInt.of(409), r.status());
        assertEquals(Optional.of("1"), r.retryAfter());
    }

    @Test
    void problemBodyIsNeverASeatEvenIfItHasAnId() {
        Exchange odd = new Exchange(409, Optional.of("application/problem+json"), Optional.empty(), false,
                "{\"id\":\"not-a-seat\",\"title\":\"in progress\"}");
        assertInstanceOf(Verdict.Retry.class, classifier.classify(odd));
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "{\"id\":", "[]", "{\"id\":42}", "{\"id\":\"  \"}", "<html>ok</html>"})
    void successWithUnreadableBodyIsRetry(String body) {
        assertInstanceOf(Verdict.Retry.class, classifier.classify(answer(201, body)));
        assertInstanceOf(Verdict.Retry.class, classifier.classify(answer(200, body)));
    }

    @ParameterizedTest
    @ValueSource(ints = {408, 429, 500, 502, 503, 504})
    void transientStatusesRetry(int status) {
        Exchange e = new Exchange(status, Optional.empty(), Optional.of("3"), false, "");
        Verdict.Retry r = assertInstanceOf(Verdict.Retry.class, classifier.classify(e));
        assertEquals(OptionalInt.of(status), r.status());
        assertEquals(Optional.of("3"), r.retryAfter());
        assertTrue(r.cause().isEmpty());
    }

    @ParameterizedTest
    @ValueSource(ints = {400, 401, 403, 404, 405, 410, 413, 415, 422, 451})
    void clientErrorsGiveUp(int status) {
        Verdict.GiveUp g = assertInstanceOf(Verdict.GiveUp.class, classifier.classify(answer(status, PROBLEM)));
        assertEquals(status, g.status());
    }

    @ParameterizedTest
    @ValueSource(ints = {301, 304, 501, 505})
    void unknownStatusesGiveUpRatherThanGuess(int status) {
        assertInstanceOf(Verdict.GiveUp.class, classifier.classify(answer(status, "")));
    }

    @Test
    void keyReusedWithAnotherPayloadSaysSo() {
        Verdict.GiveUp g = assertInstanceOf(Verdict.GiveUp.class, classifier.classify(answer(422, PROBLEM)));
        assertTrue(g.reason().contains("another payload"), g.reason());
    }

    @Test
    void everyTransportFailureRetriesWithItsCauseAndNoStatus() {
        for (IOException failure : new IOException[] {
                new ConnectException("refused"), new HttpConnectTimeoutException("connect"),
                new HttpTimeoutException("request timed out"), new EOFException("EOF"), new IOException("Connection reset")}) {
            Verdict.Retry r = assertInstanceOf(Verdict.Retry.class, classifier.classify(failure));
            assertEquals(Optional.of(failure), r.cause());
            assertTrue(r.status().isEmpty());
        }
    }

    @Test
    void timeoutAndResetReasonsNameTheCommitRisk() {
        assertTrue(classifier.classify(new HttpTimeoutException("t")).reason().contains("may have committed"));
        assertTrue(classifier.classify(new IOException("reset")).reason().contains("may have committed"));
        assertFalse(classifier.classify(new ConnectException("refused")).reason().contains("may have committed"));
    }

    @Test
    void reasonsNeverQuoteTheBody() {
        String secret = "{\"id\":\"seat_1\",\"note\":\"s3cr3t\"}";
        for (int status : new int[] {201, 400, 409, 500}) {
            assertFalse(classifier.classify(answer(status, secret)).reason().contains("s3cr3t"));
        }
    }
}
