package dev.idempotent.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.idempotent.client.IdempotentListener.OutcomeEvent;
import dev.idempotent.client.testing.RawServer;
import dev.idempotent.client.testing.RecordingListener;
import dev.idempotent.client.testing.ScriptedServer;
import dev.idempotent.client.testing.ScriptedServer.Answer;
import java.net.http.HttpTimeoutException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Every call ends by its deadline and at {@code close()}, whatever the server does: the watchdog, not the thread
 * reading the answer, ends an attempt that runs over its budget, and ends every call in flight when the client
 * closes, on JDK 17 (whose {@code HttpClient} cannot be closed) as on 25.
 */
class CloseAndDeadlineTest {

    private static IdempotentRequest order(java.net.URI uri, String key) {
        return IdempotentRequest.post(uri, key).json("{\"sku\":\"a\"}").build();
    }

    @Test
    @Timeout(30)
    void aFastEndlessBodyIsCutAtTheAttemptsBudget() throws Exception {
        // 50 MiB/s that never ends; the limit would allow 20 s of it, the budget 2 s.
        try (RawServer s = new RawServer(RawServer.body(201, "{\"id\":\"o\"", -1, true, 50L << 20));
                IdempotentClient c = IdempotentClient.builder().maxAttempts(1).maxBodyBytes(RawServer.GIB)
                        .attemptTimeout(Duration.ofSeconds(2)).build()) {
            long start = System.nanoTime();
            RetriesExhaustedException e = assertThrows(RetriesExhaustedException.class,
                    () -> c.send(order(s.uri("/orders"), "k_paced")));
            long tookMs = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
            assertInstanceOf(HttpTimeoutException.class, e.getCause());
            assertTrue(tookMs >= 1000 && tookMs <= 3000, "cut at 2 s +- 1 s, took " + tookMs + " ms");
            assertTrue(s.awaitClientLeft(), "the connection was closed");
        }
    }

    @Test
    @Timeout(30)
    void closeEndsABlockingSendWithinOneSecond() throws Exception {
        RecordingListener heard = new RecordingListener();
        try (ScriptedServer s = new ScriptedServer(n -> new Answer(201, "{}")).holding()) {
            IdempotentClient c = IdempotentClient.builder().attemptTimeout(Duration.ofSeconds(25)).listener(heard)
                    .build();
            CompletableFuture<Long> endedAt = new CompletableFuture<>();
            CompletableFuture<RuntimeException> failure = new CompletableFuture<>();
            Thread caller = new Thread(() -> {
                try {
                    c.send(order(s.uri("/orders"), "k_close"));
                    failure.complete(null);
                } catch (RuntimeException e) {
                    failure.complete(e);
                } finally {
                    endedAt.complete(System.nanoTime());
                }
            }, "blocking-caller");
            caller.start();
            s.awaitArrival();
            long closing = System.nanoTime();
            c.close();
            long tookMs = TimeUnit.NANOSECONDS.toMillis(endedAt.get(20, TimeUnit.SECONDS) - closing);
            IllegalStateException e = assertInstanceOf(IllegalStateException.class, failure.get());
            assertTrue(tookMs <= 1000, "send ended " + tookMs + " ms after close()");
            assertEquals(List.of(Optional.of(OutcomeEvent.CLOSE)),
                    heard.outcomes.stream().map(OutcomeEvent::endedBy).toList());
            assertInstanceOf(CancellationException.class, e.getCause(), "the cause stands for the close");
            assertEquals(1, s.keys().size());
        }
    }

    @Test
    @Timeout(120)
    void closeEndsFiftyAsyncCallsAndSendsNoneTwice() throws Exception {
        try (ScriptedServer s = new ScriptedServer(n -> new Answer(201, "{}"))) {
            List<String> keys = new ArrayList<>();
            for (int round = 0; round < 20; round++) {
                s.holding();
                IdempotentClient c = IdempotentClient.builder().attemptTimeout(Duration.ofSeconds(25)).build();
                List<CompletableFuture<IdempotentResponse>> calls = new ArrayList<>();
                for (int i = 0; i < 50; i++) {
                    String key = "k_" + round + "_" + i;
                    keys.add(key);
                    calls.add(c.sendAsync(order(s.uri("/orders"), key)));
                }
                s.awaitArrivals(keys.size());
                long closing = System.nanoTime();
                c.close();
                int sent = s.keys().size();
                for (CompletableFuture<IdempotentResponse> call : calls) {
                    ExecutionException failed = assertThrows(ExecutionException.class,
                            () -> call.get(5, TimeUnit.SECONDS));
                    IllegalStateException closed = assertInstanceOf(IllegalStateException.class, failed.getCause());
                    assertInstanceOf(CancellationException.class, closed.getCause());
                }
                long tookMs = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - closing);
                assertTrue(tookMs <= 1000, "round " + round + ": the calls ended " + tookMs + " ms after close()");
                s.release();
                assertEquals(sent, s.keys().size(), "round " + round + ": no attempt started after close()");
            }
            assertEquals(keys.stream().sorted().toList(), s.keys().stream().sorted().toList(),
                    "every key reached the server exactly once");
        }
    }
}
