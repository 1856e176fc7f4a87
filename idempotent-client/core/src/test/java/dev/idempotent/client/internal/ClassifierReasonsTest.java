package dev.idempotent.client.internal;

import static dev.idempotent.client.internal.Answers.answer;
import static dev.idempotent.client.internal.Answers.json;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.core.JsonPointer;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * What a give-up tells the operator who reads it: each refusal the client knows by name gets its own reason and
 * keeps its status, so a dead-lettered 401 says "credentials", not "some client error". Also the exact edges of the
 * 2xx range that counts as created.
 */
class ClassifierReasonsTest {

    private static final String ORDER = "{\"id\":\"ord_1\"}";
    private static final String PROBLEM = "{\"type\":\"about:blank\",\"title\":\"refused\"}";

    private final Classifier classifier = new Classifier(List.of(), Optional.of(JsonPointer.compile("/id")));

    private Decision.GiveUp giveUp(int status) {
        Exchange refusal = answer(status, PROBLEM, "Content-Type", "application/problem+json");
        return assertInstanceOf(Decision.GiveUp.class, classifier.classify(refusal, 1));
    }

    @ParameterizedTest(name = "{0}: {1}")
    @CsvSource(delimiter = '|', value = {
        "400 | the request is malformed",
        "401 | not authorised",
        "403 | not authorised",
        "404 | no such endpoint or resource",
        "422 | used with another body",
        "405 | a client error",
        "410 | a client error",
        "499 | a client error",
        "501 | do not guess",
        "599 | do not guess",
        "302 | do not guess",
    })
    void eachRefusalKeepsItsStatusAndNamesItsCause(int status, String cause) {
        Decision.GiveUp verdict = giveUp(status);
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
    @ValueSource(ints = {502, 504})
    void aGatewayErrorNamesItsStatus(int status) {
        Decision.Retry r = assertInstanceOf(Decision.Retry.class, classifier.classify(answer(status, ""), 1));
        assertTrue(r.reason().startsWith(status + " from a gateway"), r.reason());
    }

    @ParameterizedTest
    @ValueSource(ints = {200, 201, 299})
    void everyTwoHundredIsCreated(int status) {
        Decision.Done done = assertInstanceOf(Decision.Done.class, classifier.classify(json(status, ORDER), 1));
        assertEquals(status, done.answer().status());
        assertEquals(Optional.of("ord_1"), done.answer().resourceId());
    }

    @ParameterizedTest
    @ValueSource(ints = {199, 300})
    void aBodyJustOutsideTheTwoHundredsIsNotCreated(int status) {
        Decision.GiveUp verdict = assertInstanceOf(Decision.GiveUp.class, classifier.classify(json(status, ORDER), 1));
        assertEquals(status, verdict.status());
    }

    @ParameterizedTest
    @ValueSource(ints = {200, 299})
    void aReplayHeaderAtEitherEndOfTheTwoHundredsIsAReplay(int status) {
        Exchange replayed = json(status, ORDER, "Idempotent-Replayed", "true");
        Decision.Done replay = assertInstanceOf(Decision.Done.class, classifier.classify(replayed, 1));
        assertTrue(replay.answer().replayed());
        assertEquals(status, replay.answer().status());
    }

    @ParameterizedTest
    @ValueSource(ints = {199, 300, 500})
    void aReplayHeaderOutsideTheTwoHundredsIsNotAReplay(int status) {
        Decision d = classifier.classify(json(status, "{}", "Idempotent-Replayed", "true"), 1);
        assertTrue(!(d instanceof Decision.Done), d.toString());
    }

    @Test
    void aReplayHeaderOnAnErrorIsNotAReplay() {
        assertInstanceOf(Decision.Retry.class, classifier.classify(json(500, ORDER, "Idempotent-Replayed", "true"), 1));
    }

    @ParameterizedTest(name = "{0} with Retry-After {1}")
    @CsvSource(delimiter = '|', value = {
        "429 | 2                             | true",
        "503 | Wed, 21 Oct 2026 07:28:00 GMT | true",
        "503 | soon                          | false",
        "429 | ''                            | false",
        "503 | -                             | false",
    })
    void theReasonSaysRetryAfterIsHonouredOnlyWhenTheAnswerHadOneTheClientCouldRead(int status, String header,
            boolean honoured) {
        Exchange busy = "-".equals(header) ? answer(status, "") : answer(status, "", "Retry-After", header);
        Decision.Retry r = assertInstanceOf(Decision.Retry.class, classifier.classify(busy, 1));
        assertEquals(honoured, r.reason().contains("honouring Retry-After"), r.reason());
        assertTrue(r.reason().startsWith(status + ": "), r.reason());
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(ints = {201, 409})
    void aTruncatedBodyNamesNoResource(int status) {
        Exchange cut = new Exchange(status, json(status, ORDER).headers(), ORDER.getBytes(), true);
        Decision d = classifier.classify(cut, 1);
        if (status == 201) {
            Decision.Done done = assertInstanceOf(Decision.Done.class, d);
            assertEquals(Optional.empty(), done.answer().resourceId());
            assertTrue(done.answer().bodyTruncated());
        } else {
            Decision.Retry retry = assertInstanceOf(Decision.Retry.class, d);
            assertTrue(retry.answer().orElseThrow().bodyTruncated());
        }
    }
}
