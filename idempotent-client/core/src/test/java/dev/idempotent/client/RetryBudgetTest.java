package dev.idempotent.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.idempotent.client.IdempotentListener.Outcome;
import dev.idempotent.client.RetriesExhaustedException.Limit;
import dev.idempotent.client.testing.CapturedEvents;
import dev.idempotent.client.testing.FakeTime;
import dev.idempotent.client.testing.RecordingListener;
import dev.idempotent.client.testing.ScriptedServer;
import dev.idempotent.client.testing.ScriptedServer.Answer;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * One budget shared by every call (and every client given it) bounds what an outage makes them resend; a first
 * attempt is never refused; a call that succeeds earns tokens back.
 */
class RetryBudgetTest {

    private final FakeTime time = new FakeTime();
    private final RecordingListener heard = new RecordingListener();

    private IdempotentClient client(RetryBudget budget) {
        return IdempotentClient.builder().sleeper(time).scheduler(time).clock(time).jitter(() -> 0.5)
                .listener(heard).retryBudget(budget).build();
    }

    @Test
    void aHundredCallsInAnOutageSendAtMostAHundredAndTenAttempts() throws Exception {
        RetryBudget budget = RetryBudget.tokenBucket(50, 5, 1);
        try (ScriptedServer s = new ScriptedServer(n -> new Answer(503, "{\"error\":\"down\"}"));
                CapturedEvents events = new CapturedEvents();
                IdempotentClient a = client(budget);
                IdempotentClient b = client(budget)) {
            List<CompletableFuture<RetriesExhaustedException>> calls = new ArrayList<>();
            for (int thread = 0; thread < 4; thread++) {
                IdempotentClient c = thread % 2 == 0 ? a : b;
                int first = thread * 25;
                calls.add(CompletableFuture.supplyAsync(() -> {
                    RetriesExhaustedException last = null;
                    for (int i = first; i < first + 25; i++) {
                        String key = "k_" + i;
                        last = assertThrows(RetriesExhaustedException.class,
                                () -> c.send(IdempotentRequest.post(s.uri("/orders"), key).json("{}").build()));
                    }
                    return last;
                }));
            }
            for (CompletableFuture<RetriesExhaustedException> call : calls) {
                RetriesExhaustedException last = call.get(60, TimeUnit.SECONDS);
                assertEquals(Limit.BUDGET, last.limit(), "late calls are stopped by the budget");
                assertEquals(503, last.response().orElseThrow().status(), "with the last answer attached");
                assertTrue(last.getMessage().contains("retry budget spent"), last.getMessage());
            }
            assertEquals(100, s.keys().stream().distinct().count(), "every call's first attempt was sent");
            assertTrue(s.keys().size() <= 110, s.keys().size() + " attempts");
            assertEquals(0, budget.available());
            assertEquals(100, heard.outcomes.size());
            assertTrue(heard.outcomes.stream()
                    .allMatch(o -> o.outcome() == Outcome.EXHAUSTED && o.limit().isPresent()));
            assertTrue(heard.outcomes.stream().anyMatch(o -> o.limit().equals(Optional.of(Limit.BUDGET))));
            assertTrue(events.all().stream().anyMatch(e -> "budget".equals(e.get("limit"))));
        }
    }

    @Test
    void aSuccessRefundsUpToTheCapacityAndAnInProgressResendCosts() {
        RetryBudget budget = RetryBudget.tokenBucket(10, 4, 3);
        try (ScriptedServer s = new ScriptedServer(n -> n == 1 ? new Answer(409, "") : new Answer(201, "{}"));
                IdempotentClient c = client(budget)) {
            c.send(IdempotentRequest.post(s.uri("/orders"), "k_1").json("{}").build());
            assertEquals(10 - 4 + 3, budget.available(), "the 409's resend cost 4, the success earned 3");
            c.send(IdempotentRequest.post(s.uri("/orders"), "k_2").json("{}").build());
            assertEquals(10, budget.available(), "never above the capacity");
        }
    }

    @Test
    void aFirstAttemptIsNeverRefused() {
        RetryBudget budget = RetryBudget.tokenBucket(1, 1, 0);
        try (ScriptedServer s = new ScriptedServer(n -> new Answer(503, ""));
                IdempotentClient c = client(budget)) {
            RetriesExhaustedException spent = assertThrows(RetriesExhaustedException.class,
                    () -> c.send(IdempotentRequest.post(s.uri("/orders"), "k_1").json("{}").build()));
            assertEquals(2, spent.attempts());
            RetriesExhaustedException refused = assertThrows(RetriesExhaustedException.class,
                    () -> c.send(IdempotentRequest.post(s.uri("/orders"), "k_2").json("{}").build()));
            assertEquals(1, refused.attempts());
            assertEquals(Limit.BUDGET, refused.limit());
            assertEquals(3, s.keys().size());
        }
    }

    @Test
    void theNumbersAreChecked() {
        assertThrows(IllegalArgumentException.class, () -> RetryBudget.tokenBucket(0, 5, 1));
        assertThrows(IllegalArgumentException.class, () -> RetryBudget.tokenBucket(500, 0, 1));
        assertThrows(IllegalArgumentException.class, () -> RetryBudget.tokenBucket(500, 5, -1));
        RetryBudget aws = RetryBudget.tokenBucket(500, 5, 1);
        assertEquals(500, aws.available());
        assertEquals("RetryBudget[TokenBucket[500 of 500, retryCost=5, successRefund=1]]", aws.toString());
        RetryBudget.tokenBucket(1, 1, 0);
    }
}
