package dev.idempotent.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.idempotent.client.IdempotentListener.AttemptEvent;
import dev.idempotent.client.IdempotentListener.Outcome;
import dev.idempotent.client.IdempotentListener.OutcomeEvent;
import dev.idempotent.client.testing.CapturedEvents;
import dev.idempotent.client.testing.FakeTime;
import dev.idempotent.client.testing.ScriptedServer;
import dev.idempotent.client.testing.ScriptedServer.Answer;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;

/**
 * One structured event per attempt and per outcome on {@code dev.idempotent.client}, naming the key, the attempt,
 * the status and the outcome, never the URL; the listener hears the same; one that throws changes nothing.
 */
class EventsTest {

    private final FakeTime time = new FakeTime();

    private IdempotentClient.Builder builder() {
        return IdempotentClient.builder().sleeper(time).scheduler(time).clock(time).jitter(() -> 0.5)
                .resourceIdPointer("/id");
    }

    @Test
    void eachAttemptAndTheOutcomeIsOneEventWithoutTheUrl() {
        List<AttemptEvent> attempts = new CopyOnWriteArrayList<>();
        List<OutcomeEvent> outcomes = new CopyOnWriteArrayList<>();
        try (ScriptedServer s = new ScriptedServer(n -> n == 1 ? new Answer(502, "") : new Answer(201,
                "{\"id\":\"o_1\"}"));
                CapturedEvents events = new CapturedEvents();
                IdempotentClient c = builder().listener(new IdempotentListener() {
                    @Override
                    public void onAttempt(AttemptEvent attempt) {
                        attempts.add(attempt);
                    }

                    @Override
                    public void onOutcome(OutcomeEvent outcome) {
                        outcomes.add(outcome);
                    }
                }).build()) {
            c.send(IdempotentRequest.post(s.uri("/orders?token=s3cr3t"), "k_1").json("{}").build());

            List<CapturedEvents.Event> mine = events.forKey("k_1");
            assertEquals(List.of("idempotent.attempt", "idempotent.attempt", "idempotent.outcome"),
                    mine.stream().map(CapturedEvents.Event::message).toList());
            assertTrue(mine.stream().allMatch(e -> e.logger().equals("dev.idempotent.client")));
            assertEquals(List.of(1, 2, 2), mine.stream().map(e -> e.get("attempt")).toList());
            assertEquals(List.of("retry", "created", "created"), mine.stream().map(e -> e.get("outcome")).toList());
            assertEquals(List.of(502, 201, 201), mine.stream().map(e -> e.get("status")).toList());
            assertEquals(50L, mine.get(0).get("delayMs"));
            assertEquals("o_1", mine.get(2).get("resourceId"));
            for (CapturedEvents.Event e : mine) {
                assertFalse(e.rendered().contains("127.0.0.1") || e.rendered().contains("s3cr3t")
                        || e.rendered().contains("/orders"), e.rendered());
            }
            assertEquals(new AttemptEvent("k_1", 1, Outcome.RETRY, OptionalInt.of(502), Optional.empty(),
                    Optional.of(Duration.ofMillis(50)), attempts.get(0).reason(), Optional.empty(), Duration.ZERO),
                    attempts.get(0));
            assertTrue(attempts.get(0).reason().startsWith("502 from a gateway"), attempts.get(0).reason());
            assertEquals(List.of(new OutcomeEvent("k_1", 2, Outcome.CREATED, OptionalInt.of(201), Optional.of("o_1"),
                    Duration.ofMillis(50), Optional.empty())), outcomes);
        }
    }

    @Test
    void withLogEventsOffOnlyTheListenerHears() {
        List<OutcomeEvent> outcomes = new CopyOnWriteArrayList<>();
        try (ScriptedServer s = new ScriptedServer(n -> new Answer(201, "{\"id\":\"o\"}"));
                CapturedEvents events = new CapturedEvents();
                IdempotentClient c = builder().logEvents(false).listener(new IdempotentListener() {
                    @Override
                    public void onOutcome(OutcomeEvent outcome) {
                        outcomes.add(outcome);
                    }
                }).build()) {
            c.send(IdempotentRequest.post(s.uri("/orders"), "k_2").json("{}").build());
            assertEquals(List.of(), events.forKey("k_2"));
            assertEquals(1, outcomes.size());
        }
    }

    @Test
    void aListenerThatThrowsChangesNothingAndIsReportedByClassName() {
        try (ScriptedServer s = new ScriptedServer(n -> new Answer(201, "{\"id\":\"o\"}"));
                CapturedEvents events = new CapturedEvents();
                IdempotentClient c = builder().listener(new IdempotentListener() {
                    @Override
                    public void onAttempt(AttemptEvent attempt) {
                        throw new IllegalStateException("meter registry s3cr3t");
                    }

                    @Override
                    public void onOutcome(OutcomeEvent outcome) {
                        throw new UnsupportedOperationException();
                    }
                }).build()) {
            IdempotentResponse r = c.send(IdempotentRequest.post(s.uri("/orders"), "k_3").json("{}").build());
            assertEquals(Optional.of("o"), r.resourceId());
            List<CapturedEvents.Event> failed = events.forKey("k_3").stream()
                    .filter(e -> e.message().equals("idempotent.listener-failed")).toList();
            assertEquals(List.of("onAttempt", "onOutcome"), failed.stream().map(e -> e.get("method")).toList());
            assertEquals("java.lang.IllegalStateException", failed.get(0).get("error"));
            assertEquals("WARN", failed.get(0).level());
            assertTrue(failed.stream().noneMatch(e -> e.rendered().contains("s3cr3t")));
        }
    }

    @Test
    void levelsSayWhatNeedsAnOperator() {
        try (ScriptedServer s = new ScriptedServer(n -> new Answer(422, "{}"));
                CapturedEvents events = new CapturedEvents();
                IdempotentClient c = builder().build()) {
            try {
                c.send(IdempotentRequest.post(s.uri("/orders"), "k_4").json("{}").build());
            } catch (RequestRejectedException expected) {
                // the events are what this test reads
            }
            assertEquals(List.of("WARN", "ERROR"), events.forKey("k_4").stream().map(CapturedEvents.Event::level).toList());
            assertEquals("rejected", events.forKey("k_4").get(1).get("outcome"));
        }
    }
}
