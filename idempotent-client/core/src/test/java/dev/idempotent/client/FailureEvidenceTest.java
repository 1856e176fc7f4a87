package dev.idempotent.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.idempotent.client.testing.CapturedEvents;
import dev.idempotent.client.testing.FakeTime;
import dev.idempotent.client.testing.ScriptedServer;
import dev.idempotent.client.testing.ScriptedServer.Answer;
import java.net.ServerSocket;
import java.net.URI;
import java.util.Optional;
import java.util.OptionalInt;
import org.junit.jupiter.api.Test;

/**
 * A failed call keeps the provider's answer ({@code response()}: status, headers, body up to the limit), so its
 * error code can be read; no message, cause or log line holds a body, a header value other than the key, or a URL,
 * even when the customizer sets a value HTTP cannot carry.
 */
class FailureEvidenceTest {

    private final FakeTime time = new FakeTime();

    private IdempotentClient.Builder builder() {
        return IdempotentClient.builder().sleeper(time).scheduler(time).clock(time).jitter(() -> 0.5).maxAttempts(2);
    }

    private static void assertSaysNothingOf(Throwable e, String... secrets) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            for (String secret : secrets) {
                assertFalse(String.valueOf(t.getMessage()).contains(secret), t.getMessage());
                assertFalse(t.toString().contains(secret), t.toString());
            }
        }
    }

    @Test
    void aRejectionCarriesTheProvidersAnswer() {
        try (ScriptedServer s = new ScriptedServer(n -> new Answer(422,
                "{\"error\":{\"code\":\"IDEMPOTENCY_KEY_REUSED\"}}", "Request-Id", "req_7f3a"));
                IdempotentClient c = builder().build()) {
            RequestRejectedException e = assertThrows(RequestRejectedException.class,
                    () -> c.send(IdempotentRequest.post(s.uri("/orders?token=t0k3n"), "k_1").json("{}").build()));
            IdempotentResponse answer = e.response().orElseThrow();
            assertEquals(422, answer.status());
            assertEquals(Optional.of("req_7f3a"), answer.headers().firstValue("Request-Id"));
            assertTrue(answer.bodyAsString().contains("IDEMPOTENCY_KEY_REUSED"));
            assertEquals(1, answer.attempts());
            assertSaysNothingOf(e, "IDEMPOTENCY_KEY_REUSED", "req_7f3a", "t0k3n", "127.0.0.1");
            assertTrue(e.getMessage().contains("k_1"), "the key is named: " + e.getMessage());
        }
    }

    @Test
    void exhaustedAttemptsCarryTheLastAnswer() {
        try (ScriptedServer s = new ScriptedServer(n -> new Answer(503, "{\"error_codes\":[\"outage_" + n + "\"]}"));
                IdempotentClient c = builder().build()) {
            RetriesExhaustedException e = assertThrows(RetriesExhaustedException.class,
                    () -> c.send(IdempotentRequest.post(s.uri("/orders"), "k_2").json("{}").build()));
            IdempotentResponse last = e.response().orElseThrow();
            assertEquals(OptionalInt.of(last.status()), e.status());
            assertTrue(last.bodyAsString().contains("outage_2"), last.bodyAsString());
            assertEquals(2, last.attempts());
            assertSaysNothingOf(e, "outage");
        }
    }

    @Test
    void noAnswerMeansNoResponse() throws Exception {
        URI refused;
        try (ServerSocket closed = new ServerSocket(0)) {
            refused = URI.create("http://127.0.0.1:" + closed.getLocalPort() + "/orders");
        }
        try (IdempotentClient c = builder().build()) {
            RetriesExhaustedException e = assertThrows(RetriesExhaustedException.class,
                    () -> c.send(IdempotentRequest.post(refused, "k_3").json("{}").build()));
            assertEquals(Optional.empty(), e.response());
            assertEquals(OptionalInt.empty(), e.status());
        }
    }

    @Test
    void aCustomizersBadHeaderValueIsNamedNeverQuoted() {
        String token = "Bearer s3cr3t-t0k3n\r\nX-Evil: 1";
        try (ScriptedServer s = new ScriptedServer(n -> new Answer(201, "{}"));
                CapturedEvents events = new CapturedEvents();
                IdempotentClient c = builder().requestCustomizer((request, key, attempt) ->
                        request.header("traceparent", "00-" + key).header("Authorization", token)).build()) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                    () -> c.send(IdempotentRequest.post(s.uri("/orders"), "k_4").json("{}").build()));
            assertEquals("invalid value for header Authorization", e.getMessage());
            assertNull(e.getCause());
            assertSaysNothingOf(e, "s3cr3t", "X-Evil");
            assertTrue(events.all().stream().noneMatch(ev -> ev.rendered().contains("s3cr3t")),
                    events.all().toString());
            assertEquals(1, events.forKey("k_4").size(), "the call's one outcome is logged");
            assertEquals(0, s.keys().size(), "nothing was sent");
        }
    }
}
