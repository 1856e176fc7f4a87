package dev.idempotent.seatgrant.worker.conformance;

import dev.idempotent.seatgrant.worker.GrantOutcome;
import dev.idempotent.seatgrant.worker.SeatGrantConfig;
import dev.idempotent.seatgrant.worker.SeatGrantWorker;
import dev.idempotent.seatgrant.worker.SeatRequested;
import dev.idempotent.seatgrant.worker.testing.CapturedEvents;
import dev.idempotent.seatgrant.worker.testing.FakeTime;
import java.net.URI;
import java.time.Duration;
import java.util.Locale;
import java.util.Optional;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * The library's worker as a conformance implementation, once per entry point. Both get the fake time as their
 * way to wait ({@code handle} as a {@code Sleeper}, {@code handleAsync} as a {@code Scheduler}), and a fresh worker
 * per run, closed afterwards.
 */
public enum AnswerKey implements Implementation {

    /** {@link SeatGrantWorker#handle(SeatRequested)}. */
    SYNC {
        @Override
        GrantOutcome call(SeatGrantWorker worker, SeatRequested event) {
            return worker.handle(event);
        }
    },

    /** {@link SeatGrantWorker#handleAsync(SeatRequested)}, awaited with a generous bound. */
    ASYNC {
        @Override
        GrantOutcome call(SeatGrantWorker worker, SeatRequested event) throws Exception {
            try {
                return worker.handleAsync(event).get(60, TimeUnit.SECONDS);
            } catch (ExecutionException e) {
                // The future completes with the same exception handle would throw; unwrap get()'s envelope.
                throw e.getCause() instanceof Exception cause ? cause : e;
            } catch (TimeoutException e) {
                throw new AssertionError("handleAsync never completed", e);
            }
        }
    };

    abstract GrantOutcome call(SeatGrantWorker worker, SeatRequested event) throws Exception;

    @Override
    public Kind kind() {
        return Kind.ANSWER_KEY;
    }

    @Override
    public Observed run(URI baseUri, FakeTime time, CapturedEvents events, SeatRequested event, Duration callTimeout) {
        SeatGrantConfig config = SeatGrantConfig.builder(baseUri).callTimeout(callTimeout).build();
        try (SeatGrantWorker worker = new SeatGrantWorker(config, time, time, time)) {
            GrantOutcome outcome = call(worker, event);
            String kind = outcome instanceof GrantOutcome.Replayed ? "replayed" : "granted";
            return new Observed(Optional.of(kind), Optional.of(outcome.seatId()), Optional.empty());
        } catch (Exception e) {
            return new Observed(Optional.empty(), Optional.empty(), Optional.of(e));
        }
    }

    @Override
    public String toString() {
        return "ANSWER_KEY(" + name().toLowerCase(Locale.ROOT) + ")";
    }
}
