package dev.idempotent.client.internal;

import static dev.idempotent.client.internal.Answers.answer;
import static dev.idempotent.client.internal.Answers.json;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.core.JsonPointer;
import java.io.EOFException;
import java.io.IOException;
import java.net.ConnectException;
import java.net.http.HttpConnectTimeoutException;
import java.net.http.HttpTimeoutException;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** The default guard clauses, one answer at a time, without a socket. */
class ClassifierTest {

    private static final String ORDER = "{\"id\":\"ord_1\",\"amount\":1200}";
    private static final String PROBLEM = "{\"type\":\"about:blank\",\"title\":\"in progress\",\"status\":409}";

    /** As a caller that names where the id sits. */
    private final Classifier withId = new Classifier(List.of(), Optional.of(JsonPointer.compile("/id")));
    /** As a caller that does not: the default. */
    private final Classifier plain = new Classifier();

    @Test
    void createdWithAnIdIsCreatedAndNamesIt() {
        Decision.Done d = assertInstanceOf(Decision.Done.class, withId.classify(json(201, ORDER), 1));
        assertFalse(d.answer().replayed());
        assertEquals(Optional.of("ord_1"), d.answer().resourceId());
        assertEquals(201, d.answer().status());
        assertEquals(1, d.answer().attempts());
    }

    @Test
    void withoutAPointerAnyTwoHundredIsCreatedAndNamesNoId() {
        for (String body : new String[] {ORDER, "", "<html>ok</html>"}) {
            Decision.Done d = assertInstanceOf(Decision.Done.class, plain.classify(json(200, body), 2));
            assertFalse(d.answer().replayed());
            assertEquals(Optional.empty(), d.answer().resourceId());
            assertEquals(2, d.answer().attempts());
        }
    }

    @Test
    void aNestedPointerAndANumericIdAreRead() {
        Classifier nested = new Classifier(List.of(), Optional.of(JsonPointer.compile("/data/id")));
        Decision.Done d = assertInstanceOf(Decision.Done.class,
                nested.classify(json(201, "{\"data\":{\"id\":42}}"), 1));
        assertEquals(Optional.of("42"), d.answer().resourceId());
    }

    @Test
    void conflictNamingTheResourceIsAReplayEvenWithoutTheHeader() {
        Decision.Done d = assertInstanceOf(Decision.Done.class, withId.classify(json(409, ORDER), 1));
        assertTrue(d.answer().replayed());
        assertEquals(Optional.of("ord_1"), d.answer().resourceId());
    }

    @Test
    void successWithTheReplayHeaderIsAReplay() {
        Decision.Done d = assertInstanceOf(Decision.Done.class,
                plain.classify(json(200, ORDER, "Idempotent-Replayed", "true"), 1));
        assertTrue(d.answer().replayed());
    }

    @Test
    void aReplayHeaderSaysTrueOrItIsNotOne() {
        Decision.Done d = assertInstanceOf(Decision.Done.class,
                plain.classify(json(200, ORDER, "Idempotent-Replayed", "false"), 1));
        assertFalse(d.answer().replayed());
        assertTrue(assertInstanceOf(Decision.Done.class,
                plain.classify(json(200, ORDER, "Idempotent-Replayed", " TRUE "), 1)).answer().replayed());
    }

    @Test
    void conflictWithAProblemBodyIsInProgressAndCarriesRetryAfter() {
        Exchange inProgress = answer(409, PROBLEM, "Content-Type", "application/problem+json", "Retry-After", "1");
        Decision.Retry r = assertInstanceOf(Decision.Retry.class, withId.classify(inProgress, 1));
        assertEquals(OptionalInt.of(409), r.status());
        assertEquals(Optional.of("1"), r.retryAfter());
        assertTrue(r.reason().contains("in progress"), r.reason());
    }

    @Test
    void aProblemBodyNeverNamesAResourceEvenIfItHasAnId() {
        Exchange odd = answer(409, "{\"id\":\"not-one\",\"title\":\"in progress\"}",
                "Content-Type", "application/problem+json");
        assertInstanceOf(Decision.Retry.class, withId.classify(odd, 1));
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "{\"id\":", "[]", "{\"id\":4.5}", "{\"id\":\"  \"}", "{\"id\":null}", "<html>"})
    void aConflictWhoseBodyNamesNoIdIsInProgress(String body) {
        assertInstanceOf(Decision.Retry.class, withId.classify(json(409, body), 1));
    }

    @ParameterizedTest
    @ValueSource(ints = {408, 429, 500, 502, 503, 504})
    void transientStatusesRetry(int status) {
        Decision.Retry r = assertInstanceOf(Decision.Retry.class, plain.classify(answer(status, "", "Retry-After", "3"), 1));
        assertEquals(OptionalInt.of(status), r.status());
        assertEquals(Optional.of("3"), r.retryAfter());
        assertTrue(r.asked().isEmpty());
        assertTrue(r.cause().isEmpty());
    }

    @ParameterizedTest
    @ValueSource(ints = {400, 401, 403, 404, 405, 410, 413, 415, 422, 451})
    void clientErrorsGiveUp(int status) {
        Decision.GiveUp g = assertInstanceOf(Decision.GiveUp.class, plain.classify(json(status, PROBLEM), 1));
        assertEquals(status, g.status());
    }

    @ParameterizedTest
    @ValueSource(ints = {301, 304, 501, 505})
    void unknownStatusesGiveUpRatherThanGuess(int status) {
        assertInstanceOf(Decision.GiveUp.class, plain.classify(answer(status, ""), 1));
    }

    @Test
    void keyReusedWithAnotherBodySaysSo() {
        Decision.GiveUp g = assertInstanceOf(Decision.GiveUp.class, plain.classify(json(422, PROBLEM), 1));
        assertTrue(g.reason().contains("another body"), g.reason());
    }

    @Test
    void everyTransportFailureRetriesWithItsCauseAndNoStatus() {
        for (IOException failure : new IOException[] {
                new ConnectException("refused"), new HttpConnectTimeoutException("connect"),
                new HttpTimeoutException("request timed out"), new EOFException("EOF"), new IOException("Connection reset")}) {
            Decision.Retry r = assertInstanceOf(Decision.Retry.class, plain.classify(failure));
            assertEquals(Optional.of(failure), r.cause());
            assertTrue(r.status().isEmpty());
        }
    }

    @Test
    void timeoutAndResetReasonsNameTheCommitRisk() {
        assertTrue(plain.classify(new HttpTimeoutException("t")).reason().contains("may have committed"));
        assertTrue(plain.classify(new IOException("reset")).reason().contains("may have committed"));
        assertFalse(plain.classify(new ConnectException("refused")).reason().contains("may have committed"));
        assertTrue(plain.classify(new HttpConnectTimeoutException("c")).reason().startsWith("connect timeout"));
    }

    @Test
    void reasonsNeverQuoteTheBody() {
        String secret = "{\"id\":\"ord_1\",\"note\":\"s3cr3t\"}";
        for (int status : new int[] {201, 400, 409, 500}) {
            assertFalse(withId.classify(json(status, secret), 1).reason().contains("s3cr3t"));
        }
    }

    @Test
    void anAnswerPrintsNoHeaderValueAndNoBody() {
        Exchange e = json(201, "{\"card\":\"4242\"}", "Idempotent-Replayed", "true", "Set-Cookie", "s3cr3t");
        assertEquals("Exchange[status=201, replayed=true, bodyBytes=15]", e.toString());
    }
}
