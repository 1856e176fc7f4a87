package dev.idempotent.seatgrant.worker.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * What a give-up tells the operator who reads it: each refusal a worker knows by name gets its own reason and
 * keeps its status, so a dead-lettered 401 says "credentials", not "some client error". Also the exact edges
 * of the 2xx range that counts as a created seat.
 */
class ClassifierReasonsTest {

    private static final String SEAT = "{\"id\":\"seat_1\",\"role\":\"member\"}";
    private static final String PROBLEM = "{\"type\":\"about:blank\",\"title\":\"refused\"}";

    private final Classifier classifier = new Classifier();

    private Verdict.GiveUp giveUp(int status) {
        Exchange refusal = new Exchange(status, Optional.of("application/problem+json"), Optional.empty(), false, PROBLEM);
        return assertInstanceOf(Verdict.GiveUp.class, classifier.classify(refusal));
    }

    @ParameterizedTest(name = "{0}: {1}")
    @CsvSource(delimiter = '|', value = {
        "400 | the request is malformed",
        "401 | not authorised",
        "403 | not authorised",
        "404 | no such endpoint or workspace",
        "422 | used with another payload",
        "405 | a client error",
        "410 | a client error",
        "499 | a client error",
        "501 | do not guess",
        "599 | do not guess",
        "302 | do not guess",
    })
    void eachRefusalKeepsItsStatusAndNamesItsCause(int status, String cause) {
        Verdict.GiveUp verdict = giveUp(status);
        assertEquals(status, verdict.status());
        assertTrue(verdict.reason().startsWith(status + ": "), verdict.reason());
        assertTrue(verdict.reason().contains(cause), () -> status + " should say '" + cause + "': " + verdict.reason());
    }

    @ParameterizedTest
    @ValueSource(ints = {400, 401, 403, 404, 422})
    void aNamedRefusalIsNotReportedAsAGenericClientError(int status) {
        // The generic 4xx clause would give up too; only the reason shows that the specific clause decided.
        String generic = giveUp(418).reason().substring("418".length());
        assertNotEquals(status + generic, giveUp(status).reason());
    }

    @ParameterizedTest
    @ValueSource(ints = {200, 201, 299})
    void everyTwoHundredWithASeatIsASuccess(int status) {
        Exchange created = new Exchange(status, Optional.of("application/json"), Optional.empty(), false, SEAT);
        Verdict.Success success = assertInstanceOf(Verdict.Success.class, classifier.classify(created));
        assertEquals("seat_1", success.seatId());
        assertEquals(status, success.status());
    }

    @ParameterizedTest
    @ValueSource(ints = {199, 300})
    void aSeatBodyJustOutsideTheTwoHundredsIsNoSuccess(int status) {
        Exchange odd = new Exchange(status, Optional.of("application/json"), Optional.empty(), false, SEAT);
        Verdict.GiveUp verdict = assertInstanceOf(Verdict.GiveUp.class, classifier.classify(odd));
        assertEquals(status, verdict.status());
    }

    @ParameterizedTest
    @ValueSource(ints = {200, 299})
    void aReplayHeaderAtEitherEndOfTheTwoHundredsIsAReplay(int status) {
        Exchange replayed = new Exchange(status, Optional.of("application/json"), Optional.empty(), true, SEAT);
        Verdict.Replay replay = assertInstanceOf(Verdict.Replay.class, classifier.classify(replayed));
        assertEquals(status, replay.status());
    }

    @Test
    void aReplayHeaderOnAnErrorIsNotAReplay() {
        Exchange odd = new Exchange(500, Optional.of("application/json"), Optional.empty(), true, SEAT);
        assertInstanceOf(Verdict.Retry.class, classifier.classify(odd));
    }
}
