package dev.idempotent.seatgrant.worker.conformance;

import dev.idempotent.seatgrant.worker.GrantOutcome;
import dev.idempotent.seatgrant.worker.SeatGrantConfig;
import dev.idempotent.seatgrant.worker.SeatGrantWorker;
import dev.idempotent.seatgrant.worker.SeatRequested;
import dev.idempotent.seatgrant.worker.testing.CapturedEvents;
import dev.idempotent.seatgrant.worker.testing.FakeTime;
import java.net.URI;
import java.time.Duration;
import java.util.List;
import java.util.Optional;

/**
 * The adapter: one way to drive each of the three implementations with one event, and one shape for what
 * came back. An implementation whose API returns nothing (the fixture and its patch, faithful to the seed's
 * {@code Promise<void>}) reports its outcome only through its logs, so the adapter reads it from there: an
 * outcome nobody logged in a structured event did not, for an operator, happen.
 */
enum Implementation {

    ANSWER_KEY {
        @Override
        Observed run(URI baseUri, FakeTime time, CapturedEvents events, SeatRequested event, Duration deadline) {
            SeatGrantWorker worker = new SeatGrantWorker(
                    SeatGrantConfig.builder(baseUri).callTimeout(deadline).build(), time, time);
            try {
                GrantOutcome outcome = worker.handle(event);
                String kind = outcome instanceof GrantOutcome.Replayed ? "replayed" : "granted";
                return new Observed(Optional.of(kind), Optional.of(outcome.seatId()), Optional.empty());
            } catch (RuntimeException e) {
                return new Observed(Optional.empty(), Optional.empty(), Optional.of(e));
            }
        }
    },

    MINIMAL_PATCH {
        @Override
        Observed run(URI baseUri, FakeTime time, CapturedEvents events, SeatRequested event, Duration deadline) {
            var worker = new dev.idempotent.seatgrant.worker.minimalpatch.AgentSeatGrantWorker(baseUri, time::delayMillis);
            return viaLogs(events, event, () -> worker.handleSeatRequested(
                    new dev.idempotent.seatgrant.worker.minimalpatch.AgentSeatGrantWorker.SeatEvent(
                            event.requestId(), event.workspaceId(), event.userId())));
        }
    },

    FIXTURE {
        @Override
        Observed run(URI baseUri, FakeTime time, CapturedEvents events, SeatRequested event, Duration deadline) {
            var worker = new dev.idempotent.seatgrant.worker.fixture.AgentSeatGrantWorker(baseUri, time::delayMillis);
            return viaLogs(events, event, () -> worker.handleSeatRequested(
                    new dev.idempotent.seatgrant.worker.fixture.AgentSeatGrantWorker.SeatEvent(
                            event.requestId(), event.workspaceId(), event.userId())));
        }
    };

    /**
     * What one handled event looked like from outside.
     *
     * @param outcome {@code granted} or {@code replayed} when the implementation reported success
     * @param seatId  the seat it reported
     * @param error   what it threw, if it threw
     */
    record Observed(Optional<String> outcome, Optional<String> seatId, Optional<Throwable> error) {}

    /** Handles one event; never throws for anything the implementation does. */
    abstract Observed run(URI baseUri, FakeTime time, CapturedEvents events, SeatRequested event, Duration deadline);

    /** A call that, like the seed's {@code Promise<void>}, returns nothing and may throw anything. */
    @FunctionalInterface
    interface VoidCall {
        void call() throws Exception;
    }

    private static Observed viaLogs(CapturedEvents events, SeatRequested event, VoidCall call) {
        try {
            call.call();
        } catch (Exception e) {
            return new Observed(Optional.empty(), Optional.empty(), Optional.of(e));
        }
        List<CapturedEvents.Event> reported = events.forRequest(event.requestId()).stream()
                .filter(e -> "granted".equals(e.get("outcome")) || "replayed".equals(e.get("outcome")))
                .toList();
        if (reported.isEmpty()) {
            return new Observed(Optional.empty(), Optional.empty(), Optional.empty());
        }
        CapturedEvents.Event last = reported.get(reported.size() - 1);
        return new Observed(Optional.of((String) last.get("outcome")),
                Optional.ofNullable((String) last.get("seatId")), Optional.empty());
    }
}
