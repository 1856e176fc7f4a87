package dev.idempotent.client;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.idempotent.client.IdempotentListener.AttemptEvent;
import dev.idempotent.client.IdempotentListener.Outcome;
import dev.idempotent.client.IdempotentListener.OutcomeEvent;
import dev.idempotent.client.testing.CapturedEvents;
import dev.idempotent.client.testing.FakeTime;
import dev.idempotent.client.testing.LowHeapCall;
import dev.idempotent.client.testing.RawServer;
import dev.idempotent.client.testing.ScriptedServer;
import dev.idempotent.client.testing.ScriptedServer.Answer;
import java.io.File;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The client never holds more than {@code maxBodyBytes} of one answer: past it the rest is not read, the connection
 * is closed, and the answer still decides the call by its status, marked truncated. A GiB under a 256 MiB heap
 * leaves the JVM healthy.
 */
class BodyLimitTest {

    private final FakeTime time = new FakeTime();

    @ParameterizedTest(name = "chunked={0}")
    @ValueSource(booleans = {false, true})
    @Timeout(90)
    void aGibAnswerUnderA256MibHeapIsTruncatedAndTheJvmStaysHealthy(boolean chunked, @TempDir Path dir)
            throws Exception {
        try (RawServer huge = new RawServer(RawServer.body(201, "{\"id\":\"o_1\"", RawServer.GIB, chunked, 0));
                ScriptedServer normal = new ScriptedServer(n -> new Answer(201, "{\"id\":\"o_2\"}"))) {
            Path err = dir.resolve("stderr.txt");
            Process child = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                    "-Xmx256m", "-cp", System.getProperty("java.class.path"), LowHeapCall.class.getName(),
                    huge.uri("/orders").toString(), normal.uri("/orders").toString())
                    .redirectError(err.toFile()).redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")))
                    .start();
            String out;
            try {
                out = new String(child.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
                assertTrue(child.waitFor(60, TimeUnit.SECONDS), "the child ended");
            } finally {
                child.destroyForcibly();
            }
            String stderr = Files.readString(err);
            assertFalse(stderr.contains("OutOfMemoryError"), stderr);
            assertEquals(0, child.exitValue(), out + stderr);
            Matcher m = Pattern.compile("status=201 truncated=true bytes=4194304 tookMs=(\\d+) normal=201").matcher(out);
            assertTrue(m.find(), out);
            assertTrue(Long.parseLong(m.group(1)) < 20_000, "within the attempt's 20 s: " + out);
        }
    }

    @Test
    @Timeout(30)
    void anAnswerPastTheLimitIsTheAnswerMarkedTruncatedOnAConnectionNeverReused() throws Exception {
        List<AttemptEvent> attempts = new CopyOnWriteArrayList<>();
        List<OutcomeEvent> outcomes = new CopyOnWriteArrayList<>();
        try (RawServer s = new RawServer(RawServer.body(201, "{\"id\":\"o_1\"}", 64 << 20, false, 0));
                CapturedEvents events = new CapturedEvents();
                IdempotentClient c = IdempotentClient.builder().sleeper(time).scheduler(time).clock(time)
                        .resourceIdPointer("/id").maxBodyBytes(16).listener(new IdempotentListener() {
                            @Override
                            public void onAttempt(AttemptEvent attempt) {
                                attempts.add(attempt);
                            }

                            @Override
                            public void onOutcome(OutcomeEvent outcome) {
                                outcomes.add(outcome);
                            }
                        }).build()) {
            IdempotentResponse r = c.send(IdempotentRequest.post(s.uri("/orders"), "k_big").json("{}").build());
            assertEquals(201, r.status());
            assertFalse(r.replayed(), "a 2xx over the limit is still created");
            assertTrue(r.bodyTruncated());
            assertArrayEquals("{\"id\":\"o_1\"}    ".getBytes(StandardCharsets.US_ASCII), r.body());
            assertEquals(Optional.empty(), r.resourceId(), "a truncated body names no resource");
            assertTrue(s.awaitClientLeft(), "the rest was not read: the connection was closed");
            assertEquals(List.of(true), attempts.stream().map(AttemptEvent::truncated).toList());
            assertEquals(List.of(true), outcomes.stream().map(OutcomeEvent::truncated).toList());
            assertEquals(List.of(true, true), events.forKey("k_big").stream().map(e -> e.get("truncated")).toList());
            assertTrue(r.toString().contains("truncated"), r.toString());
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
