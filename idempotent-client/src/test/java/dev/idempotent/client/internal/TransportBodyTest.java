package dev.idempotent.client.internal;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.idempotent.client.IdempotentRequest;
import dev.idempotent.client.testing.ScriptedServer;
import dev.idempotent.client.testing.ScriptedServer.Answer;
import dev.idempotent.client.testing.StallingServer;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpTimeoutException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * One blocking attempt's body, below the client: the whole answer arrives, and a stalled body ends as the JDK's kind
 * of timeout, with the transport's own message (on JDK 25 a cancelled read fails at once with the JDK's error, which
 * must not win), and its connection is closed.
 */
class TransportBodyTest {

    private final ExecutorService threads = Executors.newCachedThreadPool();
    private final HttpClient http = Transport.newClient(Duration.ofSeconds(2), threads);

    @AfterEach
    void stopThreads() {
        threads.shutdownNow();
    }

    private Transport transport() {
        return new Transport(http, "Idempotency-Key", (builder, key, attempt) -> { }, "test");
    }

    private static IdempotentRequest order(URI uri) {
        return IdempotentRequest.post(uri, "k_1").json("{\"sku\":\"a\"}").build();
    }

    @Test
    void theWholeAnswerArrives() throws Exception {
        try (ScriptedServer s = new ScriptedServer(n -> new Answer(201, "{\"id\":\"o_1\"}", "Retry-After", "3"))) {
            Transport t = transport();
            Exchange answer = t.send(order(s.uri("/orders")), "k_1", 1, Duration.ofSeconds(5));
            assertEquals(201, answer.status());
            assertArrayEquals("{\"id\":\"o_1\"}".getBytes(StandardCharsets.UTF_8), answer.body());
            assertEquals(Optional.of("3"), answer.retryAfter());
            t.close();
        }
    }

    @Test
    @Timeout(20)
    void aStalledBodyEndsAsATimeoutAndItsConnectionIsClosed() throws Exception {
        try (StallingServer s = new StallingServer()) {
            Transport t = transport();
            HttpTimeoutException e = assertThrows(HttpTimeoutException.class,
                    () -> t.send(order(s.uri()), "k_1", 1, Duration.ofMillis(300)));
            assertEquals(Transport.TimedBody.TIMED_OUT, e.getMessage());
            assertTrue(s.headersSent.await(10, TimeUnit.SECONDS));
            assertTrue(s.clientLeft.await(10, TimeUnit.SECONDS), "the read was cancelled, not left open");
            t.close();
        }
    }
}
