package dev.idempotent.client.providers;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.idempotent.client.IdempotentClient;
import dev.idempotent.client.IdempotentRequest;
import dev.idempotent.client.IdempotentResponse;
import dev.idempotent.client.RequestRejectedException;
import dev.idempotent.client.testing.FakeTime;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Each recipe of docs/providers.md against a fake of its provider over a loopback socket: a lost answer after the
 * commit, a replay, the in-progress answer and a key reused with another body, each ending with exactly one
 * resource and the answer the page says.
 */
class ProviderRecipesTest {

    private final FakeTime time = new FakeTime();
    private ProviderFake fake;
    private IdempotentClient client;

    static Stream<Recipes.Recipe> recipes() {
        return Recipes.all().stream();
    }

    private void start(Recipes.Recipe recipe) throws Exception {
        fake = new ProviderFake(recipe.behaviour());
        client = recipe.client().get().sleeper(time).scheduler(time).clock(time).jitter(() -> 0.5).build();
    }

    @AfterEach
    void stop() {
        if (client != null) {
            client.close();
        }
        if (fake != null) {
            fake.close();
        }
    }

    private IdempotentRequest payment(String key, int amount) {
        return IdempotentRequest.post(fake.uri(), key).json("{\"amount\":" + amount + ",\"currency\":\"GBP\"}").build();
    }

    private static boolean marksReplays(Recipes.Recipe recipe) {
        return recipe == Recipes.GOCARDLESS;
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("recipes")
    void aLostAnswerAfterTheCommitLeavesOneResource(Recipes.Recipe recipe) throws Exception {
        start(recipe);
        fake.dropNextAnswer();
        IdempotentResponse r = client.send(payment("order-1", 100));
        assertEquals(2, r.attempts());
        assertEquals(Optional.of("res_1"), r.resourceId());
        assertEquals(1, fake.resources());
        // A provider that answers a repeat with the first answer does not mark it: the call reads as created.
        assertEquals(marksReplays(recipe), r.replayed());
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("recipes")
    void aSecondCallWithTheKeyIsTheFirstOnesResourceInOneAttempt(Recipes.Recipe recipe) throws Exception {
        start(recipe);
        IdempotentResponse first = client.send(payment("order-2", 100));
        IdempotentResponse again = client.send(payment("order-2", 100));
        assertEquals(first.resourceId(), again.resourceId());
        assertEquals(1, again.attempts());
        assertEquals(marksReplays(recipe), again.replayed());
        assertEquals(1, fake.resources());
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("recipes")
    void theInProgressAnswerIsWaitedOut(Recipes.Recipe recipe) throws Exception {
        start(recipe);
        fake.holdInProgress("order-3", 1);
        IdempotentResponse r = client.send(payment("order-3", 100));
        assertEquals(2, r.attempts());
        assertEquals(Optional.of("res_1"), r.resourceId());
        assertEquals(1, time.sleeps().size());
        assertEquals(1, fake.resources());
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("recipes")
    void aKeyReusedWithAnotherBodyIsRejectedInOneAttempt(Recipes.Recipe recipe) throws Exception {
        start(recipe);
        client.send(payment("order-4", 100));
        RequestRejectedException e = assertThrows(RequestRejectedException.class,
                () -> client.send(payment("order-4", 999)));
        assertEquals(1, e.attempts());
        assertEquals(OptionalInt.of(recipe.behaviour().reusedStatus()), e.status());
        assertEquals(1, fake.resources());
    }

    @Test
    void squaresRecipeSendsTheKeyOnlyInTheBody() throws Exception {
        start(Recipes.SQUARE);
        fake.dropNextAnswer();
        client.send(payment("order-5", 100));
        assertEquals(2, fake.requests.size());
        for (String[] request : fake.requests) {
            assertEquals("-", request[0], "no Idempotency-Key header");
            assertEquals("{\"amount\":100,\"currency\":\"GBP\",\"idempotency_key\":\"order-5\"}", request[1]);
        }
    }

    @Test
    void goCardlessRecipeEndsTheConflictAsAReplayWithTheExistingIdInOneAttempt() throws Exception {
        start(Recipes.GOCARDLESS);
        client.send(payment("order-6", 100));
        IdempotentResponse r = client.send(payment("order-6", 100));
        assertTrue(r.replayed());
        assertEquals(409, r.status());
        assertEquals(Optional.of("res_1"), r.resourceId());
        assertEquals(1, r.attempts());
        assertEquals(List.of(), time.sleeps());
    }
}
