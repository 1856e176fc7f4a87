package dev.idempotent.client;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.idempotent.client.IdempotentListener.AttemptEvent;
import dev.idempotent.client.IdempotentListener.OutcomeEvent;
import dev.idempotent.client.testing.CapturedEvents;
import dev.idempotent.client.testing.FakeTime;
import dev.idempotent.client.testing.RawServer;
import dev.idempotent.client.testing.RecordingListener;
import dev.idempotent.client.testing.ScriptedServer;
import dev.idempotent.client.testing.ScriptedServer.Answer;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The client never holds more than {@code maxBodyBytes} of one answer: past it the rest is not read, the connection
 * is closed, and the answer still decides the call by its status, marked truncated. A GiB under a 256 MiB heap
 * leaves the JVM healthy.
 */
class BodyLimitTest {

    private final FakeTime time = new FakeTime();

    @Test
    @Timeout(30)
    void anAnswerPastTheLimitIsTheAnswerMarkedTruncatedOnAConnectionNeverReused() throws Exception {
        RecordingListener heard = new RecordingListener();
        try (RawServer s = new RawServer(RawServer.body(201, "{\"id\":\"o_1\"}", 64 << 20, false, 0));
                CapturedEvents events = new CapturedEvents();
                IdempotentClient c = IdempotentClient.builder().sleeper(time).scheduler(time).clock(time)
                        .resourceIdPointer("/id").maxBodyBytes(16).listener(heard).build()) {
            IdempotentResponse r = c.send(IdempotentRequest.post(s.uri("/orders"), "k_big").json("{}").build());
            assertEquals(201, r.status());
            assertFalse(r.replayed(), "a 2xx over the limit is still created");
            assertTrue(r.bodyTruncated());
            assertArrayEquals("{\"id\":\"o_1\"}    ".getBytes(StandardCharsets.US_ASCII), r.body());
            assertEquals(Optional.empty(), r.resourceId(), "a truncated body names no resource");
            assertTrue(s.awaitClientLeft(), "the rest was not read: the connection was closed");
            assertEquals(List.of(true), heard.attempts.stream().map(AttemptEvent::truncated).toList());
            assertEquals(List.of(true), heard.outcomes.stream().map(OutcomeEvent::truncated).toList());
            assertEquals(List.of(true, true), events.forKey("k_big").stream().map(e -> e.get("truncated")).toList());
            assertTrue(r.toString().contains("truncated"), r.toString());
        }
    }

    @Test
    @Timeout(30)
    void anAsynchronousAnswerPastTheLimitIsTheAnswerMarkedTruncatedToo() throws Exception {
        // The read is stopped by failing it inside the JDK; the future completes with the answer, not that failure.
        try (RawServer s = new RawServer(RawServer.body(201, "{\"id\":\"o_1\"}", 64 << 20, true, 0));
                IdempotentClient c = IdempotentClient.builder().sleeper(time).scheduler(time).clock(time)
                        .resourceIdPointer("/id").maxBodyBytes(16).build()) {
            IdempotentResponse r = c.sendAsync(IdempotentRequest.post(s.uri("/orders"), "k_big").json("{}").build())
                    .get(20, TimeUnit.SECONDS);
            assertEquals(201, r.status());
            assertEquals(1, r.attempts());
            assertTrue(r.bodyTruncated());
            assertEquals(16, r.body().length);
            assertTrue(s.awaitClientLeft(), "the rest was not read: the connection was closed");
        }
    }

    @Test
    void aTruncated409IsRetriedAsInProgress() {
        // The id fits in the kept bytes; the client still cannot know what the rest held.
        try (ScriptedServer s = new ScriptedServer(n -> n == 1
                ? new Answer(409, "{\"id\":\"o_1\",\"note\":\"" + "x".repeat(100) + "\"}")
                : new Answer(201, "{\"id\":\"o_1\"}"));
                IdempotentClient c = IdempotentClient.builder().sleeper(time).scheduler(time).clock(time)
                        .jitter(() -> 0.5).resourceIdPointer("/id").maxBodyBytes(64).build()) {
            IdempotentResponse r = c.send(IdempotentRequest.post(s.uri("/orders"), "k_409").json("{}").build());
            assertEquals(2, r.attempts());
            assertEquals(Optional.of("o_1"), r.resourceId());
            assertFalse(r.bodyTruncated());
        }
    }

    @Test
    void anAnswerOfExactlyTheLimitIsWhole() {
        String body = "{\"id\":\"o_1\"}";
        try (ScriptedServer s = new ScriptedServer(n -> new Answer(201, body));
                IdempotentClient c = IdempotentClient.builder().sleeper(time).scheduler(time).clock(time)
                        .resourceIdPointer("/id").maxBodyBytes(body.length()).build()) {
            IdempotentResponse r = c.send(IdempotentRequest.post(s.uri("/orders"), "k_edge").json("{}").build());
            assertFalse(r.bodyTruncated(), "the limit is the most the client keeps, and this is all there was");
            assertEquals(body, new String(r.body(), StandardCharsets.UTF_8));
            assertEquals(Optional.of("o_1"), r.resourceId());
        }
    }

    @Test
    void maxBodyBytesIsCheckedAtBuild() {
        for (long wrong : new long[] {0, -1, Integer.MAX_VALUE - 7L, Long.MAX_VALUE}) {
            IdempotentClient.Builder b = IdempotentClient.builder().maxBodyBytes(wrong);
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class, b::build);
            assertTrue(e.getMessage().startsWith("maxBodyBytes"), e.getMessage());
        }
        for (long right : new long[] {1, Integer.MAX_VALUE - 8L}) {
            IdempotentClient.builder().maxBodyBytes(right).build().close();
        }
    }
}
