package dev.idempotent.seatgrant.worker.conformance;

import dev.idempotent.seatgrant.worker.SeatRequested;
import dev.idempotent.seatgrant.worker.testing.CapturedEvents;
import dev.idempotent.seatgrant.worker.testing.FakeTime;
import java.net.URI;
import java.time.Duration;
import java.util.List;
import java.util.Optional;

/**
 * The adapter: one way to drive an implementation with one event, and one shape for what came back. An
 * implementation whose API returns nothing (the fixture and its patch, faithful to the seed's {@code Promise<void>})
 * reports its outcome only through its logs; {@link #viaLogs} reads it from there: an outcome nobody logged in a
 * structured event did not, for an operator, happen.
 */
public interface Implementation {

    /** Which row of the pass table an implementation is held to. */
    enum Kind {
        /** The library's worker, through either entry point: passes every scenario. */
        ANSWER_KEY,
        /** The lab's fixture plus the interview key's minimal patch. */
        MINIMAL_PATCH,
        /** The lab's agent-written fixture, as found. */
        FIXTURE
    }

    /**
     * What one handled event looked like from outside.
     *
     * @param outcome {@code granted} or {@code replayed} when the implementation reported success
     * @param seatId  the seat it reported
     * @param error   what it threw, if it threw
     */
    record Observed(Optional<String> outcome, Optional<String> seatId, Optional<Throwable> error) {}

    /** @return the row of the table this implementation must match */
    Kind kind();

    /**
     * Handles one event; never throws for anything the implementation does.
     *
     * @param baseUri  the seat API
     * @param time     the fake clock and sleeper (and scheduler) to inject
     * @param events   the captured log events
     * @param event    the event
     * @param callTimeout the call timeout, for implementations that have one
     * @return what came back
     */
    Observed run(URI baseUri, FakeTime time, CapturedEvents events, SeatRequested event, Duration callTimeout);

    /** A call that, like the seed's {@code Promise<void>}, returns nothing and may throw anything. */
    @FunctionalInterface
    interface VoidCall {
        /** @throws Exception whatever the implementation throws */
        void call() throws Exception;
    }

    /**
     * Runs a call that reports only through its logs, and reads the last success it logged for the event.
     *
     * @param events the captured log events
     * @param event  the event handled
     * @param call   the call
     * @return what the logs say happened
     */
    static Observed viaLogs(CapturedEvents events, SeatRequested event, VoidCall call) {
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
