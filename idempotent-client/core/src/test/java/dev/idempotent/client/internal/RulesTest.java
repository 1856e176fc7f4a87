package dev.idempotent.client.internal;

import static dev.idempotent.client.internal.Answers.answer;
import static dev.idempotent.client.internal.Answers.json;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.core.JsonPointer;
import dev.idempotent.client.IdempotentResponse;
import dev.idempotent.client.ResponseRule;
import dev.idempotent.client.Verdict;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;
import org.junit.jupiter.api.Test;

/** A caller's rules come before the defaults, in the order they were added, and each verdict does what it says. */
class RulesTest {

    private static Classifier with(ResponseRule... rules) {
        return new Classifier(List.of(rules), Optional.of(JsonPointer.compile("/id")));
    }

    @Test
    void aRuleDecidesBeforeTheDefaults() {
        // A provider that marks replays with its own header: the defaults would call this "created".
        ResponseRule ownHeader = (answer, attempt) -> answer.headers().firstValue("X-Replay").isPresent()
                ? Optional.of(Verdict.replay("X-Replay: the provider's own replay mark")) : Optional.empty();
        Decision.Done d = assertInstanceOf(Decision.Done.class,
                with(ownHeader).classify(json(201, "{\"id\":\"o\"}", "X-Replay", "1"), 1));
        assertTrue(d.answer().replayed());
        assertEquals("X-Replay: the provider's own replay mark", d.reason());
        assertEquals(Optional.of("o"), d.answer().resourceId());
    }

    @Test
    void aRuleWithNoVerdictLeavesTheAnswerToTheNextAndThenTheDefaults() {
        List<Integer> asked = new ArrayList<>();
        ResponseRule first = (answer, attempt) -> {
            asked.add(1);
            return Optional.empty();
        };
        ResponseRule second = (answer, attempt) -> {
            asked.add(2);
            return Optional.empty();
        };
        Decision.Done d = assertInstanceOf(Decision.Done.class, with(first, second).classify(json(201, "{}"), 1));
        assertEquals(List.of(1, 2), asked);
        assertFalse(d.answer().replayed());
        assertEquals("2xx: created by this attempt", d.reason());
    }

    @Test
    void theFirstRuleWithAVerdictWins() {
        ResponseRule reject = (answer, attempt) -> Optional.of(Verdict.reject("first"));
        ResponseRule never = (answer, attempt) -> {
            throw new AssertionError("asked after a verdict");
        };
        Decision.GiveUp g = assertInstanceOf(Decision.GiveUp.class, with(reject, never).classify(json(201, "{}"), 1));
        assertEquals(201, g.status());
        assertEquals("first", g.reason());
    }

    @Test
    void aRuleSeesTheAnswerAndTheAttemptAsTheServerSentThem() {
        List<IdempotentResponse> seen = new ArrayList<>();
        List<Integer> attempts = new ArrayList<>();
        ResponseRule spy = (answer, attempt) -> {
            seen.add(answer);
            attempts.add(attempt);
            return Optional.empty();
        };
        with(spy).classify(json(200, "{\"id\":\"o\"}", "Idempotent-Replayed", "true"), 3);
        IdempotentResponse a = seen.get(0);
        assertTrue(a.replayed());
        assertEquals(200, a.status());
        assertEquals("{\"id\":\"o\"}", a.bodyAsString());
        assertEquals(Optional.of("o"), a.resourceId());
        assertEquals(3, a.attempts());
        assertEquals(List.of(3), attempts);
    }

    @Test
    void createdFromARuleIsNotAReplayEvenUnderTheReplayHeader() {
        ResponseRule created = (answer, attempt) -> Optional.of(Verdict.created("the provider says new"));
        Decision.Done d = assertInstanceOf(Decision.Done.class,
                with(created).classify(json(200, "{}", "Idempotent-Replayed", "true"), 1));
        assertFalse(d.answer().replayed());
    }

    @Test
    void retryFromARuleKeepsTheHeaderAndItsOwnWait() {
        ResponseRule plain = (answer, attempt) -> Optional.of(Verdict.retry("no id yet"));
        Decision.Retry r = assertInstanceOf(Decision.Retry.class,
                with(plain).classify(answer(202, "", "Retry-After", "4"), 2));
        assertEquals(OptionalInt.of(202), r.status());
        assertEquals(Optional.of("4"), r.retryAfter());
        assertEquals(Optional.empty(), r.asked());
        assertEquals("no id yet", r.reason());
        assertTrue(r.cause().isEmpty());

        ResponseRule timed = (answer, attempt) -> Optional.of(Verdict.retryAfter(Duration.ofMillis(750), "wait"));
        assertEquals(Optional.of(Duration.ofMillis(750)),
                assertInstanceOf(Decision.Retry.class, with(timed).classify(answer(202, ""), 1)).asked());
    }

    @Test
    void aRuleThatThrowsIsNotSwallowed() {
        ResponseRule broken = (answer, attempt) -> {
            throw new IllegalStateException("rule bug");
        };
        assertThrows(IllegalStateException.class, () -> with(broken).classify(json(201, "{}"), 1));
    }

    @Test
    void aRuleNeverSeesATransportFailure() {
        ResponseRule never = (answer, attempt) -> {
            throw new AssertionError("asked about a transport failure");
        };
        assertInstanceOf(Decision.Retry.class, with(never).classify(new java.io.IOException("reset")));
    }

    @Test
    void aNegativeWaitIsRefused() {
        assertThrows(IllegalArgumentException.class, () -> Verdict.retryAfter(Duration.ofMillis(-1), "no"));
    }
}
